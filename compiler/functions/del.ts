import { defineFunction } from './define.js';
import { K, ANY_BITS, readable } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'del',
  category: 'Path',
  description:
    'Removes the field or array element at a path and returns the value it had (null when absent); with `compact`, containers left empty are removed too.',
  parameters: [
    { name: 'target', kinds: ANY_BITS, required: true, path: true },
    { name: 'compact', kinds: K.Boolean, required: false, default: 'false' },
  ],
  returns: (call) => readable(argKind(call, 'target')),
  pure: false,
  backing: { kind: 'intrinsic' },
  examples: [
    {
      title: 'Delete a field',
      source: `. = { "foo": "bar" }
del(.foo)
`,
      returns: '"bar"',
    },
    {
      title: 'Rename a field',
      source: `. = { "old": "foo" }
.new = del(.old)
.
`,
      returns: '{ "new": "foo" }',
    },
    { title: 'Returns null for unknown field', source: 'del({"foo": "bar"}.baz)', returns: 'null' },
    {
      title: 'External target',
      source: `. = { "foo": true, "bar": 10 }
del(.foo)
.
`,
      returns: '{ "bar": 10 }',
    },
    {
      title: 'Delete field from variable',
      source: `var = { "foo": true, "bar": 10 }
del(var.foo)
var
`,
      returns: '{ "bar": 10 }',
    },
    {
      title: 'Delete object field',
      source: `var = { "foo": {"nested": true}, "bar": 10 }
del(var.foo.nested, false)
var
`,
      returns: '{ "bar": 10, "foo": {} }',
    },
    {
      title: 'Compact object field',
      source: `var = { "foo": {"nested": true}, "bar": 10 }
del(var.foo.nested, true)
var
`,
      returns: '{ "bar": 10 }',
    },
  ],
});
