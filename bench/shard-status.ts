/**
 * Benchmark: one status save of a sharded replica (`ShardStatusBook`'s persistence), the part of
 * every run's start and end that writes one document per held shard.
 *
 *   npx tsx bench/shard-status.ts [--projects 1000] [--per-project 100] [--held 334] [--runs 5]
 *
 * Builds a status of `projects × per-project` workspaces (a condition and an inventory entry
 * each) and a coordinator double that holds `held` project shards and the global one and takes
 * every document without I/O, then times saves: wall and CPU of each, and the load average. The
 * first save writes every document; later ones find them unchanged (as an idle run does). Then
 * times a takeover: a second book taking every held shard back from the documents written
 * (`ShardStatusBook.taken`, all shards at once as a replica takes them; `--one-by-one` calls
 * it once per shard, as replicas did before 2026-11-28).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ShardStatusBook } from '../src/controller/leadership/shards/shard-status.js';
import { initialStatus } from '../src/controller/status/status.js';
import type { ShardCoordinator } from '../src/state/index.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '1000' },
    'per-project': { type: 'string', default: '100' },
    held: { type: 'string', default: '334' },
    runs: { type: 'string', default: '5' },
    'one-by-one': { type: 'boolean', default: false },
  },
});
const projects = Number(values.projects);
const per = Number(values['per-project']);
const status = initialStatus('git', { suspended: false, dryRun: false, selfHeal: true });
for (let p = 0; p < projects; p++) {
  for (let w = 0; w < per; w++) {
    const key = `Workspace/bench-p${p}/ws-${w}`;
    status.conditions.push({
      key,
      kind: 'Workspace',
      project: `bench-p${p}`,
      name: `ws-${w}`,
      condition: 'Ready',
      reason: 'Applied',
      lastTransitionTime: '2026-11-28T10:00:00.000Z',
      order: 0,
      dependsOn: [],
    });
    status.inventory.push(key);
  }
}
const held = new Map<string, number>([['global', 1]]);
for (let p = 0; p < Number(values.held); p++) held.set(`project:bench-p${p}`, 1);
let written = 0;
const docs = new Map<string, unknown>();
const coordinator = {
  held: () => held,
  putStatus: async (shard: string, doc: unknown) => {
    written++;
    docs.set(shard, doc);
  },
  status: async (shard: string) => docs.get(shard),
} as unknown as ShardCoordinator;
const logger = { info() {}, warn() {}, error() {}, debug() {} } as never;
const book = new ShardStatusBook({ coordinator, status, memory: {}, logger });
const persist = book.persistence({ appendRun: async () => {} });
for (let run = 1; run <= Number(values.runs); run++) {
  written = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await persist(undefined);
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      run,
      resources: projects * per,
      heldShards: held.size,
      written,
      wallMs: Math.round(wall),
      cpuMs: Math.round((used.user + used.system) / 1000),
      load: loadavg()[0]!.toFixed(1),
    }),
  );
}

const taker = new ShardStatusBook({
  coordinator,
  status: initialStatus('git', { suspended: false, dryRun: false, selfHeal: true }),
  memory: {},
  logger,
});
const shards = [...held.keys()];
const cpu = process.cpuUsage();
const t0 = performance.now();
if (values['one-by-one']) for (const s of shards) await taker.taken(s);
else await taker.taken(...shards);
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    takeover: shards.length,
    oneByOne: values['one-by-one'],
    wallMs: Math.round(performance.now() - t0),
    cpuMs: Math.round((used.user + used.system) / 1000),
    load: loadavg()[0]!.toFixed(1),
  }),
);
