import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS, defaultDialect } from '../../src/core/dialect.js';
import type { RunResult } from '../../src/reconcile/run-types.js';
import type { JournalEntry, World } from '../e2e/harness.js';
import { keyHeaders } from '../helpers/key-header.js';

/** POSTs that create a resource: the collection endpoints, not verbs on one resource. */
const CREATE =
  /^\/(auth\/v1\/users\/|apis\/[^/]+\/v\d\/projects\/[^/]+\/(services|workspaces|clusters|workspaces\/[^/]+\/computeinstances))$/;

/** The examples declare 3 users, 2 VPCs, 3 workspaces, 3 instances and 1 cluster. */
const EXPECTED_CREATES = 12;

const FOUND_PATH = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';

/**
 * Makes an object another party created (through the API, before platctl ever ran) and declares
 * it in git too: platctl finds it, updates it, and must never delete it.
 */
export async function plantFound(w: World): Promise<void> {
  const res = await fetch(`${w.emulator.url}${FOUND_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...keyHeaders(w.apiKey) },
    body: JSON.stringify({
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'found-ws', project: 'platform', displayName: 'Theirs' },
    }),
  });
  if (!res.ok) throw new Error(`cannot plant the found workspace: ${res.status}`);
  writeFileSync(
    join(w.manifests, '95-found.yaml'),
    'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: found-ws\n  project: platform\n  displayName: Ours now\n',
  );
}

/** A run that left nothing for the next one: no failure, nothing deferred. */
function settled(r: RunResult): boolean {
  const failed = Object.values(r.outcomes ?? {}).some((o) => o.status !== 'succeeded');
  const deferred = (r.plan?.diagnostics ?? []).some((d) => /deferred/.test(d.message));
  return (r.status === 'applied' || r.status === 'in-sync') && !failed && !deferred;
}

/** Applies (faults still on) until a run settles, at most `max` times; returns the runs made. */
export async function applyUntilSettled(w: World, max = 3): Promise<number> {
  for (let i = 1; i <= max; i++) {
    try {
      if (settled(await w.run({ mode: 'apply' }))) return i;
    } catch {
      // a whole-run failure (the lease, a refused key): the next run starts over
    }
  }
  return max + 1;
}

/** The figures of one trial, checked by the tests and printed as docs/reliability.md's table. */
export interface Figures {
  readonly trial: string;
  readonly runs: number;
  readonly injected: number;
  readonly duplicates: number;
  readonly lost: number;
  readonly foreignDeletes: number;
}

/**
 * With faults cleared: counts duplicate creates (2xx creates beyond one per declared object),
 * lost objects (a fault-free plan that still has changes), and deletions of what this state did
 * not create (any DELETE, then a prune run without the found object's manifest must leave it).
 */
export async function audit(w: World, trial: string, runs: number): Promise<Figures> {
  await w.clearFaults();
  const journal = await w.journal(0);
  const creates = journal.filter(isCreate);
  const plan = await w.run({ mode: 'plan' });
  const lost = plan.plan?.actions.filter((a) => a.type !== 'noop').length ?? 1;
  rmSync(join(w.manifests, '95-found.yaml'));
  await w.run({ mode: 'apply', prune: true });
  const after = await w.journal(0);
  const found = await fetch(`${w.emulator.url}${FOUND_PATH}/found-ws`, {
    headers: { ...keyHeaders(w.apiKey) },
  });
  await found.text();
  return {
    trial,
    runs,
    injected: injectedCount(journal),
    duplicates: creates.length - EXPECTED_CREATES,
    lost,
    foreignDeletes: after.filter((e) => e.method === 'DELETE').length + (found.ok ? 0 : 1),
  };
}

/**
 * A create that the platform carried out: a 2xx to a collection POST that can only create (users,
 * services), asked to fail on an existing name (workspaces, instances), or answered 201 (clusters,
 * whose 200 is an update).
 */
function isCreate(e: JournalEntry & { query?: Record<string, string> }): boolean {
  if (e.method !== 'POST' || !CREATE.test(e.path) || e.status < 200 || e.status >= 300)
    return false;
  if (/\/(workspaces|computeinstances)$/.test(e.path))
    return e.query?.['fail-on-exists'] === 'true';
  // a dialect whose cluster create is an apply answers 200 (nothing in these trials updates one)
  if (e.path.endsWith('/clusters'))
    return e.status === (DIALECTS[defaultDialect()].clusterCreate === 'apply' ? 200 : 201);
  return true;
}

function injectedCount(journal: readonly JournalEntry[]): number {
  return journal.filter((e) => e.status === 500 || e.status === 429 || e.status === 0).length;
}

/** The figures as a markdown table. */
export function table(rows: readonly Figures[]): string {
  const head =
    '| Trial | Apply runs to converge | Injected failures | Duplicates | Lost | Deletions not ours |\n|---|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.trial} | ${r.runs} | ${r.injected} | ${r.duplicates} | ${r.lost} | ${r.foreignDeletes} |`,
  );
  return [head, ...lines].join('\n');
}
