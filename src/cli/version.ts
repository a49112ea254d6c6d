import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../core/package-root.js';

/** The version in package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(
    readFileSync(fileURLToPath(new URL('package.json', packageRoot())), 'utf8'),
  );
  return String(pkg.version);
}
