import { readFileSync } from 'node:fs';
import type { LoadedManifest, Manifest, ManifestRef, Metadata } from '../model/manifest.js';
import { decodeManifest } from './input-checks.js';
import { LazyPositions } from './positions.js';
import type { SourceText } from './source-text.js';

/**
 * A file's text, read from disk again each time it is asked for: what a validated document keeps
 * of its file once the loader has moved on, for the few positions the checks across documents
 * report. Holding every file's text to the end was a third of the 100,000-document peak. Does
 * file I/O; a file gone or changed since gives its positions from what is there now (or line 1).
 */
export class FileAgain implements SourceText {
  readonly file: string;
  readonly #path: string;

  constructor(file: string, path: string) {
    this.file = file;
    this.#path = path;
  }

  get text(): string {
    try {
      const decoded = decodeManifest(this.file, readFileSync(this.#path));
      return 'text' in decoded ? decoded.text : '';
    } catch {
      return '';
    }
  }
}

/**
 * A validated manifest as the checks across documents read it (`crossChecks`, `cycles`,
 * `needsOf`): its kind, the identity and `dependsOn` of its metadata and the few spec fields that
 * make a target or an edge, its key, and its positions found from its file when asked. What
 * `platctl validate` keeps of each document instead of the whole of it: ≈ 10 % of the memory.
 */
export class SkeletonManifest extends LazyPositions implements LoadedManifest {
  readonly manifest: Manifest;
  readonly key: string;
  readonly file: string;

  constructor(manifest: Manifest, key: string, src: SourceText, index: number, common: Common) {
    super(src, index);
    this.manifest = skeletonOf(manifest, common);
    this.key = own(key);
    this.file = src.file;
  }
}

/** One copy of a string many documents repeat; see {@link commonStrings}. */
type Common = <S extends string>(s: S) => S;

/**
 * One copy of each of the few strings many documents repeat (kinds, projects, workspaces), for
 * the skeletons of one load: each holds a reference, not a string of its own.
 */
export function commonStrings(): Common {
  const shared = new Map<string, string>();
  return <S extends string>(s: S): S => {
    let kept = shared.get(s);
    if (kept === undefined) {
      kept = own(s);
      shared.set(kept, kept);
    }
    return kept as S;
  };
}

/**
 * A copy of `s` that holds nothing else: a name the parser cut from its file's text is a slice
 * that keeps the whole text alive (V8 slices strings of 13 characters or more), and a key built
 * from such names keeps them; a skeleton must let its file go. A shorter string is a copy of its
 * own already (V8 neither slices nor concatenates by reference below 13 characters): kept as is.
 */
const own = <S extends string>(s: S): S => (s.length < 13 ? s : (` ${s}`.slice(1) as S));

const ownOptional = (s: string | undefined): string | undefined =>
  s === undefined ? undefined : own(s);

/** Only what the checks across documents read of `m` (pure); the rest is left behind. */
function skeletonOf(m: Manifest, common: Common): Manifest {
  const { name, project, workspace, dependsOn, labels } = m.metadata;
  const metadata: Metadata = { name: own(name) };
  // what a PowerSchedule's selector reads of an instance
  if (labels !== undefined && m.kind === 'ComputeInstance') {
    metadata.labels = Object.fromEntries(
      Object.entries(labels).map(([k, v]) => [common(k), common(v)]),
    );
  }
  if (project !== undefined) metadata.project = common(project);
  if (workspace !== undefined) metadata.workspace = common(workspace);
  if (dependsOn !== undefined) {
    metadata.dependsOn = dependsOn.map((ref) => {
      const copy: ManifestRef = { kind: common(ref.kind), name: own(ref.name) };
      if (ref.project !== undefined) copy.project = common(ref.project);
      if (ref.workspace !== undefined) copy.workspace = common(ref.workspace);
      return copy;
    });
  }
  // a cast: the spec below is partial by design, read only by the checks listed above
  return { kind: common(m.kind), metadata, spec: specOf(m) } as Manifest;
}

function specOf(m: Manifest): unknown {
  const blueprint = (b: { name: string; version: string }) => ({
    name: own(b.name),
    version: own(b.version),
  });
  switch (m.kind) {
    case 'BlueprintPublish':
      return { cluster: own(m.spec.cluster), blueprint: blueprint(m.spec.blueprint) };
    case 'BlueprintVersion':
      return {
        blueprint: own(m.spec.blueprint),
        version: own(m.spec.version),
        enabled: m.spec.enabled,
      };
    case 'Cluster':
      return { blueprint: blueprint(m.spec.blueprint) };
    case 'ProjectAssignment':
      return { user: ownOptional(m.spec.user) };
    case 'PowerSchedule':
      return m.spec; // a few per set, read whole by the schedule checks
    default:
      return undefined;
  }
}
