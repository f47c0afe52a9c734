import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';
import type { ArgumentError, CallInfo } from './define.js';
import { constantString } from './support/rules.js';
import { parseExtQuery } from '../../abi/ext-query.js';

/**
 * The literal query is parsed when the call compiles, as VRL does: a query that does not parse is VRL's
 * plain expression error (code 0, no labels) wrapped in E610.
 */
function validateQuery(call: CallInfo): ArgumentError | undefined {
  const query = constantString(call.args.query);
  if (query === undefined) return undefined;
  try {
    parseExtQuery(query);
  } catch (e) {
    return { code: 0, message: (e as Error).message, labels: [] };
  }
  return undefined;
}

export default defineFunction({
  name: 'match_ext_query',
  aliases: ['match_datadog_query'],
  category: 'Object',
  description:
    'Tells whether an object matches a query in an external log-search syntax: terms joined by OR and AND, `@attribute:` facets with `*` wildcards, and ranges such as `[a TO b]`.',
  parameters: [
    { name: 'value', kinds: K.Object, required: true },
    { name: 'query', kinds: K.Bytes, required: true, literal: true },
  ],
  returns: BOOLEAN,
  validate: validateQuery,
  backing: { kind: 'js', library: 'RegExp' },
  examples: [
    {
      title: 'OR query',
      source: 'match_datadog_query({"message": "contains this and that"}, "this OR that")',
      returns: 'true',
    },
    {
      title: 'AND query',
      source: 'match_datadog_query({"message": "contains only this"}, "this AND that")',
      returns: 'false',
    },
    { title: 'Attribute wildcard', source: 'match_datadog_query({"name": "foobar"}, "@name:foo*")', returns: 'true' },
    {
      title: 'Tag range',
      source: 'match_datadog_query({"tags": ["a:x", "b:y", "c:z"]}, s\'b:["x" TO "z"]\')',
      returns: 'true',
    },
  ],
});
