// match_ext_query (match_datadog_query)(value, query): whether an object matches a Datadog search query
// (abi/ext-query.ts), each query parsed once.

import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { parseExtQuery, type QueryPredicate } from '../../abi/ext-query.js';
import { stringArg, valueKind } from './support/args.js';

const cache = new Map<string, QueryPredicate>();

export const match_ext_query: JsFunction = ([value, query]) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new Error(`expected object, got ${valueKind(value!)}`);
  }
  const text = stringArg(query!);
  let predicate = cache.get(text);
  if (!predicate) {
    predicate = parseExtQuery(text);
    cache.set(text, predicate);
  }
  return predicate(value as Record<string, RemapValue>);
};
