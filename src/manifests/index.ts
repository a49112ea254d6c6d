import type { LoadedManifest, Manifest, SourcePosition } from '../model/manifest.js';
import { manifestKey } from '../model/manifest.js';
import { credentialReferences } from './credential-refs.js';
import { crossChecks } from './cross-checks.js';
import { type Diagnostic, hasErrors, sortDiagnostics } from './diagnostics.js';
import { DEFAULT_LIMITS, type LoaderLimits, readSources } from './files.js';
import { boundDocuments, capDiagnostics, DEFAULT_DOCUMENT_LIMITS } from './input-checks.js';
import { type ParsedDocument, parseSource } from './parse.js';
import { policyChecks } from './policy-rules.js';
import { powerScheduleChecks } from './power-schedule-checks.js';
import { type ApiGroups, DEFAULT_GROUPS, validateDocument } from './validate-document.js';
import { buildLookup } from './variables.js';
import { keepVersionText } from './version-text.js';

export * from '../model/manifest.js';

export {
  DIAGNOSTIC_CODES,
  formatDiagnostics,
} from './diagnostics.js';
export { DEFAULT_LIMITS } from './files.js';
export { type CompiledRule, compileRule } from './policy-rules.js';

export { schemaFileOf } from './schemas.js';

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
  const limits = { ...DEFAULT_LIMITS, ...input.limits };
  const groups = { ...DEFAULT_GROUPS, ...input.groups };
  const diagnostics: Diagnostic[] = [];
  const { lookup, diagnostics: varDiags } = await buildLookup(input);
  diagnostics.push(...varDiags);
  // Read: every file named, in a stable order.
  const { sources: read, diagnostics: fileDiags } = readSources(input.paths, input.stdin, limits);
  diagnostics.push(...fileDiags);
  // Bound: too many or too large documents are refused before any parsing.
  const { sources, diagnostics: boundDiags } = boundDocuments(read, DEFAULT_DOCUMENT_LIMITS);
  diagnostics.push(...boundDiags);
  // Parse and substitute: YAML documents as data; positions are found when a diagnostic asks.
  const docs: ParsedDocument[] = [];
  for (const src of sources) {
    const r = parseSource(src, lookup, limits);
    docs.push(...r.docs);
    diagnostics.push(...r.diagnostics);
  }
  // Validate each document against its kind's schema.
  const loaded: LoadedManifest[] = [];
  const invalid = new Set<string>();
  for (const doc of docs) {
    const r = validateDocument(doc, groups);
    diagnostics.push(...r.diagnostics);
    if (!r.manifest && r.key) invalid.add(r.key);
    if (r.manifest) {
      keepVersionText(r.manifest, doc);
      loaded.push(new LoadedDocument(r.manifest, r.key, doc));
    }
  }
  // Across documents: duplicates, references, dependsOn cycles.
  diagnostics.push(...crossChecks(loaded, invalid));
  // Policies: every rule's CEL compiles.
  diagnostics.push(...policyChecks(loaded));
  // Power schedules: time zones, periods, and what each selects.
  diagnostics.push(...powerScheduleChecks(loaded));
  // Credentials: no password may be read from one of platctl's own credential variables.
  diagnostics.push(...credentialReferences(loaded));
  if (docs.length === 0 && !hasErrors(diagnostics)) {
    const message = `no manifests found in ${input.paths.join(', ')}`;
    diagnostics.push({ severity: 'warning', code: 'no-manifests', message });
  }
  const sorted = capDiagnostics(
    sortDiagnostics(diagnostics),
    DEFAULT_DOCUMENT_LIMITS.maxDiagnostics,
  );
  return { manifests: hasErrors(sorted) ? [] : loaded, diagnostics: sorted };
}
