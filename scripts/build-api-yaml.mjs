// Run by `npm run build` after tsc: writes every YAML file of api/ parsed, keyed by the hash of its
// text, to dist/api/parsed-yaml.json, so an emulator's start reads its OpenAPI document as JSON
// instead of parsing 74 KB of YAML (0.3-0.4 s of CPU). The emulator uses an entry only for the
// very text it was made from, from src/ or dist/; an edited file is parsed as before.
import { mkdirSync, writeFileSync } from 'node:fs';
import { parsedYamlFile, parsedYamlOf } from '../dist/src/emulator/openapi/parsed-yaml.js';

const root = new URL('../', import.meta.url);
const file = parsedYamlFile(root);
mkdirSync(new URL('./', file), { recursive: true });
writeFileSync(file, parsedYamlOf(new URL('api/', root)));
