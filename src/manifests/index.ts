import type { LoadedManifest, Manifest, SourcePosition } from '../model/manifest.js';
import { manifestKey } from '../model/manifest.js';
import { credentialReferences } from './credential-refs.js';
import { crossChecks } from './cross-checks.js';
import { type Diagnostic, hasErrors, sortDiagnostics } from './diagnostics.js';
import { DEFAULT_LIMITS, type LoaderLimits, readSources } from './files.js';
import { capDiagnostics, DEFAULT_DOCUMENT_LIMITS, DocumentBound } from './input-checks.js';
import { type ParsedDocument, parseSource } from './parse.js';
import { powerScheduleChecks } from './power-schedule-checks.js';
import { commonStrings, FileAgain, SkeletonManifest } from './skeleton.js';
import type { SourceText } from './source-text.js';
import { type ApiGroups, DEFAULT_GROUPS, validateDocument } from './validate-document.js';
import { buildLookup } from './variables.js';
import { keepVersionText } from './version-text.js';
import { windowChecks } from './window-checks.js';

export * from '../model/manifest.js';

export {
  DIAGNOSTIC_CODES,
  formatDiagnostics,
} from './diagnostics.js';
export { DEFAULT_LIMITS } from './files.js';
export { schemaFileOf } from './schemas.js';
export { localInstant } from './window-checks.js';

/**
 * A loaded manifest whose positions are its parsed document's, found when first asked. A class,
 * not an object literal with a getter: such a literal got a hidden class of its own per document.
 */
class LoadedDocument implements LoadedManifest {
  readonly manifest: Manifest;
  readonly key: string;
  readonly file: string;
  readonly #doc: ParsedDocument;

  constructor(manifest: Manifest, key: string | undefined, doc: ParsedDocument) {
    this.manifest = manifest;
    this.key = key ?? manifestKey(manifest); // validateDocument's key, the same string
    this.file = doc.file;
    this.#doc = doc;
  }

  get source(): SourcePosition {
    return this.#doc.source;
  }

  positionOf(path: readonly (string | number)[]): SourcePosition {
    return this.#doc.positionOf(path);
  }
}

/** What to load; see {@link loadAndValidate}. */
export interface LoadInput {
  /** Files and directories; `-` reads {@link stdin}. */
  paths: string[];
  /**
   * What `-` stands for (the caller reads the real stdin): its bytes, refused like a file's when
   * they are not UTF-8 or hold a NUL, or text already decoded (only a NUL can still be seen).
   */
  stdin?: string | Uint8Array;
  /** Variables for `${VAR}`; they win over var files and the environment. */
  vars?: Record<string, string>;
  /** `KEY=VALUE` or YAML-map files; a later file wins. */
  varFiles?: string[];
  /** The environment; `${NAME}` reads only `PLATCTL_VAR_NAME` from it. @default process.env */
  env?: Record<string, string | undefined>;
  /** Values a substitution may never carry (the API key): such a variable is refused. */
  refusedValues?: readonly string[];
  limits?: Partial<LoaderLimits>;
  /** API groups of the envelope kinds. @default DEFAULT_GROUPS */
  groups?: Partial<ApiGroups>;
}

/** The loaded manifests (empty when any error was found) and every diagnostic, sorted. */
export interface LoadResult {
  manifests: LoadedManifest[];
  diagnostics: Diagnostic[];
}

/**
 * Loads, substitutes and validates manifests: read files → parse YAML with positions → `${VAR}`
 * → schema per document → checks across documents. Collects every problem before returning.
 * Manifests come back in file order then document order, and only when no diagnostic is an error.
 * Reads files; never throws for bad input.
 */
export async function loadAndValidate(input: LoadInput): Promise<LoadResult> {
  const { kept, diagnostics } = await load(
    input,
    (manifest, key, doc) => new LoadedDocument(manifest, key, doc),
  );
  return { manifests: hasErrors(diagnostics) ? [] : kept, diagnostics };
}

/**
 * {@link loadAndValidate} for `platctl validate`, which needs the diagnostics and a count, not the
 * manifests: each file is let go of once its documents are checked, and the checks across
 * documents get only what they read of each ({@link SkeletonManifest}), positions being found in
 * the file again for what they report. The same diagnostics, in the same order. Reads files.
 */
export async function validateManifests(
  input: LoadInput,
): Promise<{ valid: number; diagnostics: Diagnostic[] }> {
  const common = commonStrings();
  const { kept, diagnostics } = await load(
    input,
    (manifest, key, doc, again) =>
      new SkeletonManifest(manifest, key ?? manifestKey(manifest), again, doc.index, common),
  );
  return { valid: hasErrors(diagnostics) ? 0 : kept.length, diagnostics };
}

/**
 * How a load keeps a valid manifest once its own checks are done: `again` is its file as the
 * position finder can read it after the loader has let the text go (the text itself for stdin).
 */
type Keep = (
  manifest: Manifest,
  key: string | undefined,
  doc: ParsedDocument,
  again: SourceText,
) => LoadedManifest;

/**
 * The load, one file at a time: each is bounded, parsed and its documents validated (and checked
 * for policy syntax and credential references, which read the whole document) before the next is
 * read. Diagnostics are collected per stage and joined in the stages' order, as when every file
 * went through each stage before the next.
 */
async function load(
  input: LoadInput,
  keep: Keep,
): Promise<{ kept: LoadedManifest[]; diagnostics: Diagnostic[] }> {
  const limits = { ...DEFAULT_LIMITS, ...input.limits };
  const groups = { ...DEFAULT_GROUPS, ...input.groups };
  const { lookup, diagnostics: varDiags } = await buildLookup(input);
  const bound = new DocumentBound(DEFAULT_DOCUMENT_LIMITS);
  const parseDiags: Diagnostic[] = [];
  const documentDiags: Diagnostic[] = [];
  const policyDiags: Diagnostic[] = [];
  const windowDiags: Diagnostic[] = [];
  const credentialDiags: Diagnostic[] = [];
  const kept: LoadedManifest[] = [];
  const policies: LoadedManifest[] = [];
  const invalid = new Set<string>();
  let documents = 0;
  // Read: every file named, in a stable order, each handed on as it is read.
  const fileDiags = readSources(input.paths, input.stdin, limits, (src, path) => {
    // Bound: too many or too large documents are refused before any parsing.
    if (bound.admit(src) !== true) return;
    // Parse and substitute: YAML documents as data; positions are found when a diagnostic asks.
    const { docs, diagnostics } = parseSource(src, lookup, limits);
    parseDiags.push(...diagnostics);
    documents += docs.length;
    const again = path === undefined ? src : new FileAgain(src.file, path);
    // Validate each document against its kind's schema, then what reads the whole of it.
    for (const doc of docs) {
      const r = validateDocument(doc, groups);
      if (r.diagnostics.length > 0) documentDiags.push(...r.diagnostics);
      if (!r.manifest && r.key) invalid.add(r.key);
      if (!r.manifest) continue;
      keepVersionText(r.manifest, doc);
      const whole = new LoadedDocument(r.manifest, r.key, doc);
      // Policies: every rule's CEL compiles (checked once the files are read, see below).
      if (r.manifest.kind === 'Policy') policies.push(whole);
      // Change windows: a known time zone, ranges that end after they start.
      if (r.manifest.kind === 'ChangeWindow') windowDiags.push(...windowChecks([whole]));
      // Credentials: no password may be read from one of platctl's own credential variables.
      credentialDiags.push(...credentialReferences(whole));
      kept.push(keep(r.manifest, r.key, doc, again));
    }
  });
  if (policies.length > 0) {
    // CEL's compiler is loaded only when there is a Policy: loading it was ≈ 80 ms of every
    // `platctl validate` (and more under load), most of which hold none.
    const { policyChecks } = await import('./policy-rules.js');
    for (const p of policies) policyDiags.push(...policyChecks(p));
  }
  const diagnostics = [...varDiags, ...fileDiags, ...bound.diagnostics, ...parseDiags];
  diagnostics.push(...documentDiags);
  // Across documents: duplicates, references, dependsOn cycles.
  diagnostics.push(...crossChecks(kept, invalid), ...policyDiags, ...windowDiags);
  // Power schedules: time zones, periods, and what each selects.
  diagnostics.push(...powerScheduleChecks(kept), ...credentialDiags);
  if (documents === 0 && !hasErrors(diagnostics)) {
    const message = `no manifests found in ${input.paths.join(', ')}`;
    diagnostics.push({ severity: 'warning', code: 'no-manifests', message });
  }
  const sorted = capDiagnostics(
    sortDiagnostics(diagnostics),
    DEFAULT_DOCUMENT_LIMITS.maxDiagnostics,
  );
  return { kept, diagnostics: sorted };
}
