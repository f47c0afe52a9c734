import { defineFunction, type ArgInfo } from './define.js';
import { K, ANY, NEVER, objectOf, arrayOf, without, isSubset, type Kind } from '../types/kind.js';
import { argKind } from './support/rules.js';
import { assignAt, kindAt } from '../types/path.js';

/**
 * VRL's type rule (`invert_array_at_path`): an array whose items are the path's root with the array at the
 * path replaced by one of its items; never when the path cannot hold an array.
 */
function unnested(query: NonNullable<ArgInfo['query']>): Kind {
  const { root, path } = query;
  const items = kindAt(root, path).array;
  if (!items) return NEVER;
  const known = new Map([...items.known].map(([index, item]) => [index, assignAt(root, path, item)] as const));
  const unknown = items.unknown && without(items.unknown, K.Undefined);
  return arrayOf(unknown && unknown.bits !== 0 ? assignAt(root, path, unknown) : undefined, known);
}

export default defineFunction({
  name: 'unnest',
  category: 'Object',
  description:
    'Given the path of an array field, returns one copy of its object per array item, with the field replaced by that item. Assigning the result to `.` emits one event per item.',
  parameters: [{ name: 'path', kinds: K.Array, required: true, path: true }],
  fallible: (call) => !isSubset(argKind(call, 'path'), { bits: K.Array }),
  returns: (call) => {
    const query = call.args.path?.query;
    return query ? unnested(query) : arrayOf(objectOf(ANY));
  },
  backing: { kind: 'intrinsic' },
  examples: [
    {
      title: 'Unnest an array field',
      source: `. = {"hostname": "localhost", "messages": ["message 1", "message 2"]}
. = unnest(.messages)
`,
      returns:
        '[{ "hostname": "localhost", "messages": "message 1" }, { "hostname": "localhost", "messages": "message 2" }]',
    },
    {
      title: 'Unnest a nested array field',
      source: `. = {"hostname": "localhost", "event": {"messages": ["message 1", "message 2"]}}
. = unnest(.event.messages)
`,
      returns:
        '[{ "hostname": "localhost", "event": { "messages": "message 1" } }, { "hostname": "localhost", "event": { "messages": "message 2" } }]',
    },
  ],
});
