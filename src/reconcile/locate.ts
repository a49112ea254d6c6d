import { PlatctlError } from '../core/errors.js';
import { ApiError } from '../model/api-errors.js';
import type { LoadedManifest, SourcePosition } from '../model/manifest.js';

/**
 * The error of a failed action, prefixed with where in the manifests it comes from (pure):
 * the line of the field the platform names (`spec.computeProfile.name`) when the request body was
 * the manifest's own, else the document's first line. Keeps the error's code; `manifest`
 * undefined (a prune) returns the error unchanged.
 */
export function locateFailure(err: unknown, manifest: LoadedManifest | undefined): unknown {
  if (!manifest || !(err instanceof PlatctlError)) return err;
  const at = fieldPosition(err, manifest) ?? manifest.source;
  const located = new PlatctlError(err.code, `${where(at)}: ${err.message}`, { cause: err });
  return located;
}

function fieldPosition(err: PlatctlError, manifest: LoadedManifest): SourcePosition | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const field = err.details.find((d) => d.field && /^(spec|metadata)\b/.test(d.field))?.field;
  return field === undefined ? undefined : manifest.positionOf(jsonPath(field));
}

/** `spec.variables[2].value` → `['spec', 'variables', 2, 'value']`. */
function jsonPath(field: string): (string | number)[] {
  return field
    .split(/\.|\[(\d+)\]/)
    .filter((s) => s !== undefined && s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function where(at: SourcePosition): string {
  return `${at.file}:${at.line}:${at.col}`;
}
