import type { Dialect } from '../../core/dialect.js';
import { Router } from '../http/router.js';
import { compileValidators, type OperationValidator } from '../http/validation.js';
import { dialectDocument } from './dialect-document.js';
import {
  type ApiGroups,
  listOperations,
  loadDocument,
  type OpenApiDocument,
  type OperationEntry,
  rewriteGroups,
} from './load-document.js';

/** The document as served under some groups, with its operations, router and validators. */
export interface CompiledApi {
  readonly doc: OpenApiDocument;
  readonly operations: readonly OperationEntry[];
  readonly router: Router;
  readonly validators: ReadonlyMap<string, OperationValidator>;
}

const cache = new Map<string, CompiledApi>();

/**
 * Loads, merges, shapes for the dialect, group-rewrites and compiles the API once per set of
 * groups, dialect and process: the
 * result is immutable and stateless, so every emulator of a process (tests start many) shares it.
 * Reads `api/` on first use.
 */
export function compiledApi(groups: ApiGroups, dialect: Dialect): CompiledApi {
  const key = JSON.stringify([groups.infra, groups.paas, groups.billing, dialect.name]);
  let api = cache.get(key);
  if (!api) {
    const doc = rewriteGroups(dialectDocument(loadDocument(), dialect), groups);
    const operations = listOperations(doc);
    api = {
      doc,
      operations,
      router: new Router(operations),
      validators: compileValidators(doc, operations),
    };
    cache.set(key, api);
  }
  return api;
}
