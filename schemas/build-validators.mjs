// Run by `npm run build` after tsc: writes each kind's validator as ajv standalone code into
// dist/src/manifests/validators/, so `platctl validate` neither compiles the schemas nor loads
// ajv's compiler (most of a small load's time). The loader uses a file only while its header's
// hash matches the schema here; from src/ (tsx, tests) there are none and it compiles as before.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import {
  GENERATED_VALIDATORS,
  generatedValidator,
  generatedValidatorFileOf,
  schemaFileOf,
} from '../dist/src/manifests/schemas.js';
import { KINDS } from '../dist/src/model/manifest.js';

mkdirSync(GENERATED_VALIDATORS, { recursive: true });
for (const kind of KINDS) {
  const text = readFileSync(new URL(schemaFileOf(kind), import.meta.url), 'utf8');
  writeFileSync(generatedValidatorFileOf(kind), generatedValidator(kind, text));
}
