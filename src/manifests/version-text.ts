import type { Manifest } from '../model/manifest.js';

/** Where a scalar's text as written can be read: the parsed document's positions. */
interface ScalarText {
  scalarTextOf(path: readonly (string | number)[]): string | undefined;
}

const VERSION = /^[0-9]+\.[0-9]+(\.[0-9]+)?$/;

/**
 * A cluster's versions as written: YAML reads an unquoted `1.30` as the number 1.3, so a version
 * written as a number is replaced by its text in the file (`"1.30"`); quoted ones are strings
 * already. Each is sent as the platform's dialect types it (a number for the spec's, a string
 * for rafay's: `providers/cluster-wire.ts`). Changes `manifest` in place; reads the document's
 * source only when a version is a number.
 */
export function keepVersionText(manifest: Manifest, doc: ScalarText): void {
  if (manifest.kind !== 'Cluster') return;
  const config = (manifest.spec as { config?: Record<string, unknown> }).config;
  if (!config) return;
  const asWritten = (value: unknown, path: (string | number)[]): unknown => {
    if (typeof value !== 'number') return value;
    const text = doc.scalarTextOf(path);
    return text !== undefined && VERSION.test(text) ? text : String(value);
  };
  const base = ['spec', 'config'];
  if (config.controlPlaneVersion !== undefined) {
    config.controlPlaneVersion = asWritten(config.controlPlaneVersion, [
      ...base,
      'controlPlaneVersion',
    ]);
  }
  const pools = Array.isArray(config.nodePools)
    ? (config.nodePools as Record<string, unknown>[])
    : [];
  pools.forEach((pool, i) => {
    if (pool.nodeVersion !== undefined) {
      pool.nodeVersion = asWritten(pool.nodeVersion, [...base, 'nodePools', i, 'nodeVersion']);
    }
  });
}
