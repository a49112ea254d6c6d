import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { PlatctlError } from '../core/errors.js';
import { type PriceFile, parsePrices } from '../model/prices.js';

/** Reads and checks a price file (I/O). */
export async function loadPrices(file: string): Promise<PriceFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new PlatctlError('config', `cannot read price file ${file}`, { cause: err });
  }
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 10 });
  } catch (err) {
    throw new PlatctlError('config', `${file}: not YAML: ${(err as Error).message}`);
  }
  return parsePrices(doc, file);
}
