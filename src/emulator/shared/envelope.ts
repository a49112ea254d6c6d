import { badField } from './responses.js';

/** The common envelope of a cluster, service, workspace or compute instance body. */
export interface EnvelopeBody {
  readonly apiVersion?: unknown;
  readonly kind?: unknown;
  readonly metadata: object;
}

/** What a body posted to one path must carry. */
export interface ExpectedEnvelope {
  /** `<group>/<version>` of the configured group, e.g. `paas.envmgmt.io/v1`. */
  readonly apiVersion: string;
  readonly kind: string;
  /** `metadata.<field>` values the path fixes (`project`, and `workspace` for instances). */
  readonly scope: Readonly<Record<string, string>>;
}

/**
 * The one envelope rule of every resource body (docs/api-assumptions.md, "Resource bodies"):
 * `apiVersion` and `kind` are required and exact, and every `metadata` field the path fixes is
 * required and equal to the path's value. Throws a 400 naming the first field that breaks it.
 * The OpenAPI schemas require the same fields; this also checks the values, which depend on the
 * configured API group. Pure.
 */
export function checkEnvelope(body: EnvelopeBody, expected: ExpectedEnvelope): void {
  expectExact('apiVersion', body.apiVersion, expected.apiVersion);
  expectExact('kind', body.kind, expected.kind);
  const metadata = body.metadata as Record<string, unknown>;
  for (const [field, value] of Object.entries(expected.scope)) {
    const sent = metadata[field];
    if (sent === undefined) throw badField(`metadata.${field}`, 'is required');
    if (sent !== value) {
      throw badField(`metadata.${field}`, `must be ${JSON.stringify(value)} as in the path`);
    }
  }
}

function expectExact(field: string, sent: unknown, wanted: string): void {
  if (sent === undefined) throw badField(field, `is required (${wanted})`);
  if (sent !== wanted) throw badField(field, `must be ${wanted}, not ${JSON.stringify(sent)}`);
}
