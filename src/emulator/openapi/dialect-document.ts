import { existsSync } from 'node:fs';
import { API_FAMILIES, type ApiFamily, type Dialect } from '../../core/dialect.js';
import { packageRoot } from '../../core/package-root.js';
import { DEFAULT_GROUPS, type OpenApiDocument } from './load-document.js';
import { applyOverlay, type OverlayDocument } from './overlay.js';
import { readYaml } from './parsed-yaml.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The API family of a path written with the default groups. Pure. */
function familyOf(path: string): ApiFamily {
  if (path.startsWith('/auth/')) return 'identity';
  if (path.startsWith('/v2/')) return 'scheduler';
  if (path.startsWith(`/apis/${DEFAULT_GROUPS.infra}/`)) return 'infra';
  if (path.startsWith(`/apis/${DEFAULT_GROUPS.billing}/`)) return 'billing';
  return 'paas';
}

/**
 * The document as a platform of `dialect` serves it. The merged document is the `spec` dialect
 * as it stands; another dialect gets its overlay (`api/dialects/<name>.yaml`: the paths, fields
 * and responses it adds or drops), then what the dialect table says (the header each family's
 * key goes in, the cluster enums, version types and compute types). Changes `doc` in place;
 * reads the overlay file.
 */
export function dialectDocument(
  doc: OpenApiDocument,
  dialect: Dialect,
  apiDir: URL = new URL('api/', packageRoot()),
): OpenApiDocument {
  if (dialect.name === 'spec') return doc;
  const file = new URL(`dialects/${dialect.name}.yaml`, apiDir);
  if (existsSync(file)) {
    const overlay = readYaml(file) as OverlayDocument;
    try {
      applyOverlay(doc as unknown as Record<string, unknown>, overlay);
    } catch (err) {
      throw new Error(`api/dialects/${dialect.name}.yaml: ${(err as Error).message}`);
    }
  }
  applySecurity(doc, dialect);
  applyValueRules(doc, dialect);
  return doc;
}

/** One security scheme per header of the dialect; each operation accepts its family's only. */
function applySecurity(doc: OpenApiDocument, dialect: Dialect): void {
  const schemeOf = (family: ApiFamily) => `key-${dialect.authHeader[family].toLowerCase()}`;
  doc.components.securitySchemes = Object.fromEntries(
    API_FAMILIES.map((f) => [
      schemeOf(f),
      {
        type: 'apiKey',
        in: 'header',
        name: dialect.authHeader[f],
        description: `The API key, on the ${API_FAMILIES.filter((g) => schemeOf(g) === schemeOf(f)).join(', ')} calls.`,
      },
    ]),
  );
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as { security?: unknown } | undefined;
      if (op) op.security = [{ [schemeOf(familyOf(path))]: [] }];
    }
  }
}

type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };

/** Enums, version types and compute types from the table. */
function applyValueRules(doc: OpenApiDocument, dialect: Dialect): void {
  const schemas = doc.components.schemas as Record<string, Schema>;
  const prop = (s: Schema | undefined, ...path: string[]): Schema | undefined =>
    path.reduce<Schema | undefined>((at, p) => at?.properties?.[p], s);
  const setEnum = (s: Schema | undefined, values: readonly string[]) => {
    if (s) s.enum = [...values];
  };
  const e = dialect.clusterEnums;
  setEnum(prop(schemas.ClusterSpec, 'type'), e.type);
  setEnum(prop(schemas.GkeConfig, 'location', 'type'), e.locationType);
  setEnum(prop(schemas.GkeConfig, 'network', 'networkAccess', 'privacy'), e.privacy);
  setEnum(prop(schemas.GkeNodePool, 'upgradeSettings', 'strategy'), e.upgradeStrategy);
  setEnum(schemas.ComputeType, dialect.computeTypes);
  if (dialect.versionType === 'string') {
    const version = {
      type: 'string',
      pattern: '^[0-9]+\\.[0-9]+(\\.[0-9]+)?$',
      description: 'A string such as "1.30", as the vendor types versions.',
    };
    const config = schemas.GkeConfig?.properties;
    if (config) config.controlPlaneVersion = { ...version };
    const pool = schemas.GkeNodePool?.properties;
    if (pool) pool.nodeVersion = { ...version };
    // the request examples too: "Try it out" on /docs sends them as they stand
    for (const item of Object.values(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method] as { requestBody?: { content?: Record<string, Schema> } };
        for (const media of Object.values(op?.requestBody?.content ?? {})) {
          versionsAsStrings(media.example);
        }
      }
    }
  }
}

const VERSION_FIELDS = new Set(['controlPlaneVersion', 'nodeVersion']);

/** Writes every version field under `value` that is a number as a string (`1.29` → `"1.29"`), in place. */
function versionsAsStrings(value: unknown): void {
  if (Array.isArray(value)) {
    for (const v of value) versionsAsStrings(v);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const [key, v] of Object.entries(record)) {
      if (VERSION_FIELDS.has(key) && typeof v === 'number') record[key] = String(v);
      else versionsAsStrings(v);
    }
  }
}
