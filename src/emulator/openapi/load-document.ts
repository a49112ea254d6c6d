import { readdirSync } from 'node:fs';
import { packageRoot } from '../../core/package-root.js';
import { readYaml } from './parsed-yaml.js';

/** The parts of an OpenAPI 3.1 document the emulator reads. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers?: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** The API groups paths are written with, and the groups to serve them under. */
export interface ApiGroups {
  readonly infra: string;
  readonly paas: string;
  readonly billing: string;
}

export const DEFAULT_GROUPS: ApiGroups = {
  infra: 'infra.k8smgmt.io',
  paas: 'paas.envmgmt.io',
  billing: 'billing.envmgmt.io',
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * Reads `api/openapi.yaml` and merges every `api/fragments/*.yaml` into it in file-name order.
 * Throws when two fragments define the same path+method or the same component name. Reads files
 * (each parsed by the build when it is the text the build saw: {@link readYaml}).
 */
export function loadDocument(apiDir: URL = new URL('api/', packageRoot())): OpenApiDocument {
  const root = readYaml(new URL('openapi.yaml', apiDir)) as OpenApiDocument;
  root.paths ??= {};
  root.components ??= {};
  const fragDir = new URL('fragments/', apiDir);
  const files = readdirSync(fragDir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort();
  for (const file of files) {
    const frag = readYaml(new URL(file, fragDir)) as Partial<OpenApiDocument>;
    mergeFragment(root, frag ?? {}, file);
  }
  return root;
}

/** Merges one fragment into `doc` in place; `source` names it in errors. */
export function mergeFragment(
  doc: OpenApiDocument,
  frag: Partial<OpenApiDocument>,
  source: string,
): void {
  for (const [path, item] of Object.entries(frag.paths ?? {})) {
    doc.paths[path] ??= {};
    const target = doc.paths[path];
    for (const [method, op] of Object.entries(item)) {
      if (method in target) throw new Error(`${source}: duplicate operation ${method} ${path}`);
      target[method] = op;
    }
  }
  for (const [section, entries] of Object.entries(frag.components ?? {})) {
    doc.components[section] ??= {};
    const target = doc.components[section];
    for (const [name, value] of Object.entries(entries)) {
      if (name in target) throw new Error(`${source}: duplicate component ${section}.${name}`);
      target[name] = value;
    }
  }
}

/**
 * A copy of `doc` whose paths, and the `apiVersion` of its request examples, use `groups` instead of
 * the default groups. Pure.
 */
export function rewriteGroups(doc: OpenApiDocument, groups: ApiGroups): OpenApiDocument {
  const replace = (path: string): string =>
    path
      .replace(`/apis/${DEFAULT_GROUPS.infra}/`, `/apis/${groups.infra}/`)
      .replace(`/apis/${DEFAULT_GROUPS.paas}/`, `/apis/${groups.paas}/`)
      .replace(`/apis/${DEFAULT_GROUPS.billing}/`, `/apis/${groups.billing}/`);
  const copy = structuredClone(doc);
  copy.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, v]) => [replace(p), v]));
  // The request examples /docs fills in name their group in apiVersion (`paas.envmgmt.io/v1`).
  const version = (v: string) => replace(`/apis/${v}`).slice('/apis/'.length);
  for (const item of Object.values(copy.paths)) {
    for (const method of METHODS) {
      const content = (item[method] as { requestBody?: { content?: object } } | undefined)
        ?.requestBody?.content;
      for (const media of Object.values(content ?? {}) as {
        example?: { apiVersion?: unknown };
      }[]) {
        const example = media.example;
        if (typeof example?.apiVersion === 'string')
          example.apiVersion = version(example.apiVersion);
      }
    }
  }
  return copy;
}

/** One operation of the document, flattened for routing. */
export interface OperationEntry {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  readonly op: Record<string, unknown>;
  /** Parameters of the path item and the operation, `$ref`s resolved. */
  readonly parameters: readonly ParameterObject[];
}

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
}

/** Every operation of `doc`; throws when one lacks an operationId or repeats one. Pure. */
export function listOperations(doc: OpenApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const operationId = op.operationId;
      if (typeof operationId !== 'string') throw new Error(`${method} ${path}: no operationId`);
      if (seen.has(operationId)) throw new Error(`duplicate operationId ${operationId}`);
      seen.add(operationId);
      const own = (op.parameters as unknown[] | undefined) ?? [];
      const parameters = [...shared, ...own].map((p) => resolveRef(doc, p) as ParameterObject);
      out.push({ method: method.toUpperCase(), path, operationId, op, parameters });
    }
  }
  return out;
}

/** Follows a local `$ref` (`#/components/...`) once; other values are returned as they are. */
export function resolveRef(doc: OpenApiDocument, value: unknown): unknown {
  const ref = (value as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return value;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[
      part.replace(/~1/g, '/').replace(/~0/g, '~')
    ];
  }
  if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  return node;
}
