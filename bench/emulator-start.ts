/**
 * Emulator start benchmark: `npx tsx bench/emulator-start.ts [--runs 6] [--before <other checkout>]`.
 *
 * The CPU (user + system, `process.cpuUsage()`) of a fresh Node process that imports the built
 * emulator (`dist/src/emulator/index.js`), starts it in memory and has one request answered: what
 * each `platctl emulator` child and each test file that starts an emulator in a fresh process
 * pays before its own work. Split into Node's own start, the import, `startEmulator` and the first
 * answer (a list with a query: its validators compiled). Runs alternate between this checkout and
 * `--before` (another checkout's build, e.g. a worktree of main), on both dialects; prints each
 * run and the medians with the 1-minute load. Needs a fresh build (`npm run build`) in each.
 */

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '6' },
    /** Another checkout whose build is measured alternately with this one's. */
    before: { type: 'string' },
  },
});
const runs = Number(values.runs);
const here = fileURLToPath(new URL('../', import.meta.url));
const trees: Record<string, string> = {
  this: here,
  ...(values.before ? { before: values.before } : {}),
};
for (const [name, root] of Object.entries(trees)) {
  if (!existsSync(`${root}/dist/src/emulator/index.js`)) {
    throw new Error(`${name}: no build at ${root}/dist (run npm run build there)`);
  }
}

/** The child's script: figures in ms of CPU, as one JSON line. */
const CHILD = `
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const [entry, dialect] = process.argv.slice(1);
const boot = cpu();
const { startEmulator } = await import(entry);
const imported = cpu();
const emu = await startEmulator({ apiKey: 'bench-admin-key-0123456789', dialect });
const started = cpu();
const header = dialect === 'rafay' ? 'X-RAFAY-API-KEYID' : 'X-SERVICE-API-KEYID';
const res = await fetch(emu.url + '/auth/v1/projects/?limit=10&offset=0', {
  headers: { [header]: 'bench-admin-key-0123456789' },
});
await res.text();
const answered = cpu();
await emu.close();
if (res.status !== 200) throw new Error('status ' + res.status);
console.log(JSON.stringify({
  node: boot, import: imported - boot, start: started - imported, first: answered - started,
  total: answered,
}));
`;

type Figures = Record<'node' | 'import' | 'start' | 'first' | 'total', number>;
const results: Record<string, Figures[]> = {};
for (let run = 0; run < runs; run++) {
  for (const dialect of ['spec', 'rafay']) {
    for (const [name, root] of Object.entries(trees)) {
      const entry = pathToFileURL(`${root}/dist/src/emulator/index.js`).href;
      const load = loadavg()[0]!.toFixed(1);
      const out = execFileSync(
        process.execPath,
        ['--input-type=module', '-e', CHILD, entry, dialect],
        {
          encoding: 'utf8',
        },
      );
      const figures = JSON.parse(out) as Figures;
      const key = `${name} ${dialect}`;
      results[key] = [...(results[key] ?? []), figures];
      const cells = Object.entries(figures).map(([k, v]) => `${k} ${v.toFixed(0)}`);
      console.log(`${name} ${dialect} run ${run + 1} (load ${load}): ${cells.join(', ')} ms`);
    }
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
console.log('\nmedians (ms of CPU):');
for (const [key, list] of Object.entries(results)) {
  const keys = Object.keys(list[0]!) as (keyof Figures)[];
  console.log(
    `${key}: ${keys.map((k) => `${k} ${median(list.map((f) => f[k])).toFixed(0)}`).join(', ')}`,
  );
}
