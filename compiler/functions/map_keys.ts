import { defineFunction } from './define.js';
import { K, ANY, BYTES, objectOf, only } from '../types/kind.js';
import { argKind, forgetKeys, mayBeTrue } from './support/rules.js';

export default defineFunction({
  name: 'map_keys',
  category: 'Enumerate',
  description:
    'Renames the keys of an object (and, with `recursive`, of nested objects) to what the closure returns for each key.',
  parameters: [
    { name: 'value', kinds: K.Object, required: true },
    { name: 'recursive', kinds: K.Boolean, required: false, default: 'false' },
  ],
  returns: (call) => {
    const value = argKind(call, 'value');
    return value.bits & K.Object ? forgetKeys(only(value, K.Object), mayBeTrue(call.args.recursive)) : objectOf(ANY);
  },
  closure: {
    variables: () => [BYTES],
    returns: BYTES,
    example: 'map_keys({ "one" : 1, "two": 2 }) -> |key| { upcase(key) }',
  },
  backing: { kind: 'intrinsic' },
  examples: [
    {
      title: 'Upcase keys',
      source: `. = {
    "foo": "foo",
    "bar": "bar",
    "baz": {"nested key": "val"}
}
map_keys(.) -> |key| { upcase(key) }
`,
      returns: '{ "BAR": "bar", "BAZ": { "nested key": "val" }, "FOO": "foo" }',
    },
    {
      title: 'De-dot keys',
      source: `. = {
    "labels": {
        "app.kubernetes.io/name": "mysql"
    }
}
map_keys(., recursive: true) -> |key| { replace(key, ".", "_") }
`,
      returns: '{ "labels": { "app_kubernetes_io/name": "mysql" } }',
    },
    {
      title: 'Recursively map object keys',
      source: `val = {
    "a": 1,
    "b": [{ "c": 2 }, { "d": 3 }],
    "e": { "f": 4 }
}
map_keys(val, recursive: true) -> |key| { upcase(key) }
`,
      returns: '{ "A": 1, "B": [{ "C": 2 }, { "D": 3 }], "E": { "F": 4 } }',
    },
  ],
});
