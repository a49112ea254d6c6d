import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PlatctlError } from '../../core/errors.js';
import { yamlLib } from '../../core/yaml-lib.js';
import { DEFAULT_SEED } from './default-seed.js';
import { SEED_SCHEMA, type SeedData } from './seed-types.js';

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
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(SEED_SCHEMA);
  if (!validate(data)) {
    const problems = (validate.errors ?? [])
      .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
      .join('; ');
    throw new PlatctlError('config', `seed ${file} is invalid: ${problems}`);
  }
  return { cloudcredentials: [], blueprints: [], ...(data as object) } as unknown as SeedData;
}
