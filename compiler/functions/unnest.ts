import { defineFunction } from './define.js';
import { K, ANY, objectOf, arrayOf, isSubset } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'unnest',
  category: 'Object',
  description:
    'Given the path of an array field, returns one copy of its object per array item, with the field replaced by that item. Assigning the result to `.` emits one event per item.',
  parameters: [
    { name: 'path', kinds: K.Array, required: true, path: true },
  ],
  fallible: (call) => !isSubset(argKind(call, 'path'), { bits: K.Array }),
  returns: arrayOf(objectOf(ANY)),
  examples: [
    {
      title: 'Unnest an array field',
      source: `. = {"hostname": "localhost", "messages": ["message 1", "message 2"]}
. = unnest(.messages)
`,
      returns: '[{ "hostname": "localhost", "messages": "message 1" }, { "hostname": "localhost", "messages": "message 2" }]',
    },
    {
      title: 'Unnest a nested array field',
      source: `. = {"hostname": "localhost", "event": {"messages": ["message 1", "message 2"]}}
. = unnest(.event.messages)
`,
      returns: '[{ "hostname": "localhost", "event": { "messages": "message 1" } }, { "hostname": "localhost", "event": { "messages": "message 2" } }]',
    },
  ],
});
