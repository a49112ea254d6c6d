import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { packageRoot } from '../../core/package-root.js';
import { type Diagnostic, sortDiagnostics } from '../../manifests/diagnostics.js';
import { DEFAULT_LIMITS } from '../../manifests/files.js';
import { type ParsedDocument, parseSource } from '../../manifests/parse.js';
import { schemaDiagnostics } from '../../manifests/schema-messages.js';
import { hasEmbeddedSecret } from '../sources/safe-url.js';
import type { AlertKind, Severity } from './alerts.js';
import type { ProviderType } from './providers/index.js';

/** One receiver of alerts as the notifications file declares it (schemas/notifications.schema.json). */
export interface ProviderConfig {
  readonly name: string;
  readonly type: ProviderType;
  readonly url?: string;
  readonly urlFile?: string;
  readonly tokenFile?: string;
  readonly secretFile?: string;
  readonly repository?: string;
  /** @default 'platctl' */
  readonly context?: string;
  /** @default every kind */
  readonly events?: readonly AlertKind[];
  /** @default 'info' */
  readonly minSeverity?: Severity;
}

/** The notifications file: `--notifications FILE`. */
export interface NotificationConfig {
  readonly providers: readonly ProviderConfig[];
  /** The dashboard's base URL as people reach it: alerts link to their run's page there. */
  readonly dashboardUrl?: string;
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  const url = new URL('schemas/notifications.schema.json', packageRoot());
  compiled = ajv.compile(JSON.parse(readFileSync(url, 'utf8')) as object);
  return compiled;
}

/** Variables are not substituted in this file: it names files, it does not template them. */
const noVariables = Object.assign(() => undefined, {
  refusal: (name: string) =>
    `\${${name}}: the notifications file takes no variables; name files with urlFile, tokenFile, secretFile`,
});

/**
 * Reads and validates a notifications file (YAML or JSON; file I/O): the schema, unique names,
 * `url` or `urlFile` for webhook and Slack, and every named file readable and not empty (its
 * content is never put in a diagnostic). Every problem at once, each at `file:line:col`; the
 * config only when there is none.
 */
export function loadNotifications(
  file: string,
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): { readonly config?: NotificationConfig; readonly diagnostics: Diagnostic[] } {
  let text: string;
  try {
    text = read(file);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    const message = `cannot read the notifications file (${why})`;
    return { diagnostics: [{ severity: 'error', code: 'file-read', message, file }] };
  }
  const parsed = parseSource({ file, text }, noVariables, DEFAULT_LIMITS);
  if (parsed.diagnostics.length > 0) return { diagnostics: parsed.diagnostics };
  const [doc, extra] = parsed.docs;
  if (!doc || extra) {
    const message = 'the notifications file must hold exactly one document: {providers: [...]}';
    return { diagnostics: [{ severity: 'error', code: 'invalid-value', message, file }] };
  }
  const validate = validator();
  if (!validate(doc.data)) {
    return {
      diagnostics: sortDiagnostics(schemaDiagnostics(doc, validate.errors ?? [], undefined)),
    };
  }
  const config = doc.data as NotificationConfig;
  const diagnostics = checks(doc, config, read);
  return diagnostics.length > 0 ? { diagnostics } : { config, diagnostics };
}

/**
 * What the schema cannot say: unique names, one of url/urlFile, URLs fetch can call (no
 * `user:password@`), files that can be read. A file's content is never put in a message.
 */
function checks(
  doc: ParsedDocument,
  config: NotificationConfig,
  read: (path: string) => string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const error = (path: (string | number)[], message: string, code: Diagnostic['code']) =>
    out.push({ severity: 'error', code, message, path: path.join('.'), ...doc.positionOf(path) });
  const names = new Set<string>();
  config.providers.forEach((p, i) => {
    const at = (field?: string) => ['providers', i, ...(field ? [field] : [])];
    if (names.has(p.name)) error(at('name'), `provider ${p.name} is named twice`, 'invalid-value');
    names.add(p.name);
    const needsUrl = p.type === 'webhook' || p.type === 'slack';
    if (needsUrl && (p.url === undefined) === (p.urlFile === undefined)) {
      error(at(), `type ${p.type} needs url or urlFile (one of them)`, 'missing-field');
    }
    if (p.url !== undefined && hasEmbeddedSecret(p.url)) {
      error(
        at('url'),
        'a URL with user:password@ is refused: keep a secret URL in urlFile',
        'invalid-value',
      );
    }
    for (const field of ['urlFile', 'tokenFile', 'secretFile'] as const) {
      const path = p[field];
      if (path === undefined) continue;
      const content = readable(path, read);
      if (content === undefined) {
        error(at(field), `${field} ${path} is missing, unreadable or empty`, 'file-read');
      } else if (field === 'urlFile' && (!HTTP_URL.test(content) || hasEmbeddedSecret(content))) {
        error(
          at(field),
          `urlFile ${path} does not hold one http(s) URL without user:password@`,
          'invalid-value',
        );
      }
    }
  });
  return out;
}

const HTTP_URL = /^https?:\/\/\S+$/;

/** The trimmed content of a file, or undefined when it is missing, unreadable or empty. */
function readable(path: string, read: (path: string) => string): string | undefined {
  try {
    return read(path).trim() || undefined;
  } catch {
    return undefined;
  }
}
