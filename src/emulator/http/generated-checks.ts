import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { sha256Hex } from '../../core/hash.js';
import { packageRoot } from '../../core/package-root.js';

// The build's request checks (ajv's standalone code) are CommonJS modules: `require` loads each
// once per process, and their own `require`s of ajv's small runtime helpers resolve from them.
const require = createRequire(import.meta.url);

/**
 * Where `npm run build` writes the emulator's request checks as ajv standalone code
 * (`scripts/build-api-checks.mjs`): one CommonJS module per {@link checkSetKey}, exporting one
 * check per {@link checkKey}. Compiling them was ≈ 60 ms of CPU of every emulator's first
 * requests, and loading ajv's compiler ≈ 25 ms more.
 */
export function generatedChecksDir(root: URL = packageRoot()): URL {
  return new URL('dist/api/checks/', root);
}

/**
 * The key of checks compiled together: the compiler's options and every component schema they
 * may refer to. A document or option changed since the build has another key, so the build's
 * module of it is never used. Pure.
 */
export function checkSetKey(options: object, components: unknown): string {
  return sha256Hex(JSON.stringify([options, components])).slice(0, 32);
}

/** The key of one compiled schema within its set: an identifier (a module's export name). Pure. */
export function checkKey(schema: unknown): string {
  return `c${sha256Hex(JSON.stringify(schema)).slice(0, 40)}`;
}

type CheckSet = Readonly<Record<string, ValidateFunction>>;

const loaded = new Map<string, CheckSet>();

/**
 * The build's checks of the set `setKey` in `dir`, loaded once per process; none when the build
 * wrote no such set (running before a build, or a document or option edited since: every check
 * is then compiled as before). Reads a file.
 */
export function generatedChecks(setKey: string, dir: URL = generatedChecksDir()): CheckSet {
  const file = new URL(`${setKey}.cjs`, dir);
  let checks = loaded.get(file.href);
  if (!checks) {
    try {
      checks = require(fileURLToPath(file)) as CheckSet;
    } catch {
      checks = {};
    }
    loaded.set(file.href, checks);
  }
  return checks;
}
