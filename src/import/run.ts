import type { Clock } from '../core/clock.js';
import type { ApiClient } from '../model/api.js';
import { type Manifest, manifestKey } from '../model/manifest.js';
import type { LiveObject, ProviderPorts, ProviderRegistry } from '../model/provider.js';
import { processHolder } from '../state/holder.js';
import type { StateStore } from '../state/types.js';
import { adoptImported } from './adopt.js';
import { renderFiles, schemaRefFor, writeFiles } from './files.js';
import { fromLastApplied } from './from-state.js';
import { manifestOf } from './manifests.js';
import { type ImportScope, readPlatform } from './read.js';
import { renderAhead } from './render-ahead.js';

/** What `platctl import` was asked. */
export interface ImportOptions {
  readonly scope: ImportScope;
  readonly outDir: string;
  /** Record the imported objects in the state as managed (prune candidates). */
  readonly adopt?: boolean;
  /** Write into a directory that already holds YAML files. */
  readonly overwrite?: boolean;
}

/**
 * The I/O an import uses. `state`, when given, supplies what the API cannot read (as platctl last
 * applied it) and, with `adopt`, records the imported objects.
 */
export interface ImportPorts {
  readonly api: ApiClient;
  readonly providers: ProviderRegistry;
  readonly clock: Clock;
  readonly state?: StateStore;
  readonly signal?: AbortSignal;
}

export interface ImportResult {
  readonly projects: readonly string[];
  /** File names written, relative to the output directory. */
  readonly files: readonly string[];
  /** Objects written, per kind (readless kinds from the state's last-applied manifests). */
  readonly counts: Readonly<Record<string, number>>;
  readonly adopted: boolean;
  /** Things a person should know: objects left out, objects a plan will still act on. */
  readonly notes: readonly string[];
}

/**
 * Imports the live platform into a manifest set (I/O): read every object of the scope (paged,
 * through the client's shared rate limiter), and what it cannot read from the state's last-applied
 * manifests → normalize to manifests → write one file per project
 * and one for users → with `adopt`, record them in the state under its lease. Nothing on the
 * platform changes.
 */
export async function importPlatform(
  options: ImportOptions,
  ports: ImportPorts,
): Promise<ImportResult> {
  // what the API cannot read: as platctl last applied it, when a state store is at hand
  const applied = ports.state ? await ports.state.lastApplied() : undefined;
  const { groups } = applied ? fromLastApplied(applied, [], options.scope) : { groups: new Map() };
  // read every object of the chosen kinds and projects; normalize each kind as it arrives (the
  // fields a manifest owns, secrets replaced by placeholders) and render it while the rest is read
  const normalized = new Map<LiveObject, Manifest>();
  const ahead = renderAhead();
  const read = await readPlatform(options.scope, ports.providers, providerPorts(ports), (live) => {
    for (const l of live) normalized.set(l, manifestOf(l, groups.get(l.ref.name)));
    ahead.add(live.map((l) => normalized.get(l)!));
  });
  const known = applied
    ? fromLastApplied(applied, read.projects, options.scope)
    : { manifests: [], groups };
  const imported = read.live.map((live) => ({ live, manifest: normalized.get(live)! }));
  // write: a fresh, stable set of files
  const files = renderFiles(
    [...imported.map((i) => i.manifest), ...known.manifests],
    schemaRefFor(options.outDir),
    await ahead.texts(),
  );
  await writeFiles(options.outDir, files, options.overwrite);
  // adopt: managed from now on, as if platctl had created them
  if (options.adopt && ports.state) {
    const lease = await ports.state.acquire({ holder: processHolder('import') });
    try {
      await adoptImported(ports.state, imported);
    } finally {
      await lease.release();
    }
  }
  const counts: Record<string, number> = {};
  for (const m of [...imported.map((i) => i.manifest), ...known.manifests]) {
    counts[m.kind] = (counts[m.kind] ?? 0) + 1;
  }
  return {
    projects: read.projects,
    files: [...files.keys()],
    counts,
    adopted: options.adopt === true,
    notes: [
      ...read.skipped.map((s) => `${s.key} left out: ${s.reason}`),
      ...imported.flatMap(({ live, manifest }) => unsettled(live, manifest)),
    ],
  };
}

/** A note for an object a plan would still act on: not deployed or provisioned yet. Pure. */
function unsettled(live: LiveObject, m: Manifest): string[] {
  const done: Partial<Record<Manifest['kind'], string>> = {
    Service: 'deployed',
    ComputeInstance: 'success',
    Cluster: 'ready',
  };
  const want = done[m.kind];
  if (want === undefined || live.status === undefined || live.status === want) return [];
  const next = m.kind === 'Cluster' ? 'still provisioning' : 'a plan will publish it';
  return [`${manifestKey(m)} is ${live.status}: ${next}`];
}

/** Provider ports for reading only: no secret is ever resolved, no progress shown. */
function providerPorts(ports: ImportPorts): ProviderPorts {
  return {
    api: ports.api,
    clock: ports.clock,
    signal: ports.signal ?? new AbortController().signal,
    progress: () => {},
    resolveSecret: () => Promise.reject(new Error('import never resolves secrets')),
    projectId: () => Promise.reject(new Error('import never looks up project ids')),
    wait: { pollMs: 0, timeoutMs: 0 },
  };
}
