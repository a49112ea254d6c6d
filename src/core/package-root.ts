import { existsSync } from 'node:fs';

/**
 * The URL (with trailing slash) of the directory holding package.json, whether running from
 * `src/` through tsx/vitest or from `dist/src/` after the build. Files shipped beside the code
 * (`api/`, `schemas/`, `examples/`) are found from here.
 */
export function packageRoot(): URL {
  let dir = new URL('./', import.meta.url);
  for (let i = 0; i < 6; i++) {
    if (existsSync(new URL('package.json', dir))) return dir;
    dir = new URL('../', dir);
  }
  throw new Error('platctl: cannot find package.json above the installed code');
}
