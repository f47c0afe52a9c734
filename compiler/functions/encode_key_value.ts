import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_key_value',
  category: 'Codec',
  description:
    'Writes an object as `key=value` pairs: nested keys are joined with dots, the keys of `fields_ordering` come first and the others follow sorted, values containing spaces are quoted, and with `flatten_boolean` a true value prints as its bare key and a false one is left out.',
  parameters: [
    { name: 'value', kinds: K.Object, required: true },
    { name: 'fields_ordering', kinds: K.Array, required: false, default: '[]' },
    { name: 'key_value_delimiter', kinds: K.Bytes, required: false, default: '=' },
    { name: 'field_delimiter', kinds: K.Bytes, required: false, default: ' ' },
    { name: 'flatten_boolean', kinds: K.Boolean, required: false, default: 'false' },
  ],
  // The ordering list may hold non-strings, which is only found out at run time.
  fallible: (call) => call.args.fields_ordering !== undefined,
  returns: BYTES,
  examples: [
    {
      title: 'Encode with default delimiters (no ordering)',
      source: `encode_key_value(
    {
        "ts": "2021-06-05T17:20:00Z",
        "msg": "This is a message",
        "lvl": "info"
    }
)
`,
      returns: '"lvl=info msg=\\"This is a message\\" ts=2021-06-05T17:20:00Z"',
    },
    {
      title: 'Encode with default delimiters (fields ordering)',
      source: `encode_key_value!(
    {
        "ts": "2021-06-05T17:20:00Z",
        "msg": "This is a message",
        "lvl": "info",
        "log_id": 12345
    },
    ["ts", "lvl", "msg"]
)
`,
      returns: '"ts=2021-06-05T17:20:00Z lvl=info msg=\\"This is a message\\" log_id=12345"',
    },
    {
      title: 'Encode with default delimiters (nested fields)',
      source: `encode_key_value(
    {
        "agent": {"name": "foo"},
        "log": {"file": {"path": "my.log"}},
        "event": "log"
    }
)
`,
      returns: '"agent.name=foo event=log log.file.path=my.log"',
    },
    {
      title: 'Encode with default delimiters (nested fields ordering)',
      source: `encode_key_value!(
    {
        "agent": {"name": "foo"},
        "log": {"file": {"path": "my.log"}},
        "event": "log"
    },
    ["event", "log.file.path", "agent.name"])
`,
      returns: '"event=log log.file.path=my.log agent.name=foo"',
    },
    {
      title: 'Encode with custom delimiters (no ordering)',
      source: `encode_key_value(
    {"ts": "2021-06-05T17:20:00Z", "msg": "This is a message", "lvl": "info"},
    field_delimiter: ",",
    key_value_delimiter: ":"
)
`,
      returns: '"lvl:info,msg:\\"This is a message\\",ts:2021-06-05T17:20:00Z"',
    },
    {
      title: 'Encode with custom delimiters and flatten boolean',
      source: `encode_key_value(
    {"ts": "2021-06-05T17:20:00Z", "msg": "This is a message", "lvl": "info", "beta": true, "dropped": false},
    field_delimiter: ",",
    key_value_delimiter: ":",
    flatten_boolean: true
)
`,
      returns: '"beta,lvl:info,msg:\\"This is a message\\",ts:2021-06-05T17:20:00Z"',
    },
  ],
});
