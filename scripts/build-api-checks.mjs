// Run by `npm run build` after tsc: writes the emulator's request checks (every operation's path,
// query and body schemas of each dialect's document) as ajv standalone code to dist/api/checks/,
// so an emulator neither loads ajv's compiler nor compiles them (with yaml loaded lazily, ≈ 70 ms
// of CPU of every start and first answer: bench/emulator-start.ts). The emulator uses a module
// only for the very components and options it was made from, from src/ or dist/; a check of a
// document edited since is compiled as before.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { DIALECTS } from '../dist/src/core/dialect.js';
import { generatedChecksDir } from '../dist/src/emulator/http/generated-checks.js';
import { checkModules } from '../dist/src/emulator/http/validation.js';
import { compiledApi } from '../dist/src/emulator/openapi/compiled-api.js';
import { DEFAULT_GROUPS } from '../dist/src/emulator/openapi/load-document.js';

const dir = generatedChecksDir(new URL('../', import.meta.url));
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
for (const dialect of Object.values(DIALECTS)) {
  const { doc, operations } = compiledApi(DEFAULT_GROUPS, dialect);
  for (const { file, source } of checkModules(doc, operations)) {
    writeFileSync(new URL(file, dir), source);
  }
}
