import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PlatctlError } from '../../core/errors.js';
import { yamlLib } from '../../core/yaml-lib.js';
import { DEFAULT_SEED } from './default-seed.js';
import { SEED_SCHEMA, type SeedData } from './seed-types.js';

// ajv is loaded only to check a custom seed: an emulator's requests are checked by the build's
// standalone code (http/generated-checks.ts), so the built-in seed needs none of its compiler.
const require = createRequire(import.meta.url);

/**
 * The seed to use: the built-in default, or the YAML file `file` validated against
 * {@link SEED_SCHEMA}. Throws a `config` PlatctlError naming the file and every bad field.
 */
export function loadSeed(file?: string): SeedData {
  if (!file) return DEFAULT_SEED;
  let data: unknown;
  try {
    data = yamlLib().parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new PlatctlError('config', `seed ${file}: ${(err as Error).message}`, { cause: err });
  }
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(SEED_SCHEMA);
  if (!validate(data)) {
    const problems = (validate.errors ?? [])
      .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
      .join('; ');
    throw new PlatctlError('config', `seed ${file} is invalid: ${problems}`);
  }
  return { cloudcredentials: [], blueprints: [], ...(data as object) } as unknown as SeedData;
}
