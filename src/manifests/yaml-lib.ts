import { createRequire } from 'node:module';

type YamlLib = typeof import('yaml');

const require = createRequire(import.meta.url);
let lib: YamlLib | undefined;

/**
 * The `yaml` library, loaded on first use rather than imported: a clean load takes the fast path
 * (js-yaml) and builds no positions, so it never needs it, and loading it was ≈ 35 ms of every
 * `platctl validate`. It is CommonJS for Node, so `require` returns the very module an `import`
 * of it would.
 */
export function yamlLib(): YamlLib {
  lib ??= require('yaml') as YamlLib;
  return lib;
}
