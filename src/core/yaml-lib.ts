import { createRequire } from 'node:module';

type YamlLib = typeof import('yaml');

const require = createRequire(import.meta.url);
let lib: YamlLib | undefined;

/**
 * The `yaml` library, loaded on first use rather than imported: a clean manifest load takes the
 * fast path (js-yaml) and builds no positions, and an emulator reads the API document as the
 * build parsed it and needs YAML only for a custom seed or an edited `api/` file, so neither
 * usually needs it; loading it was ≈ 35–45 ms of every `platctl validate` and every emulator's
 * start. It is CommonJS for Node, so `require` returns the very module an `import` of it would.
 */
export function yamlLib(): YamlLib {
  lib ??= require('yaml') as YamlLib;
  return lib;
}
