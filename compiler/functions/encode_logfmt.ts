import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_logfmt',
  category: 'Codec',
  description:
    'Writes an object as logfmt (`key=value` pairs separated by spaces), with the keys of `fields_ordering` first and the others sorted.',
  parameters: [
    { name: 'value', kinds: K.Object, required: true },
    { name: 'fields_ordering', kinds: K.Array, required: false, default: '[]' },
  ],
  fallible: (call) => call.args.fields_ordering !== undefined,
  returns: BYTES,
  examples: [
    {
      title: 'Encode to logfmt (no ordering)',
      source: 'encode_logfmt({"ts": "2021-06-05T17:20:00Z", "msg": "This is a message", "lvl": "info"})',
      returns: '"lvl=info msg=\\"This is a message\\" ts=2021-06-05T17:20:00Z"',
    },
    {
      title: 'Encode to logfmt (fields ordering)',
      source:
        'encode_logfmt!({"ts": "2021-06-05T17:20:00Z", "msg": "This is a message", "lvl": "info", "log_id": 12345}, ["ts", "lvl", "msg"])',
      returns: '"ts=2021-06-05T17:20:00Z lvl=info msg=\\"This is a message\\" log_id=12345"',
    },
    {
      title: 'Encode to logfmt (nested fields)',
      source: 'encode_logfmt({"agent": {"name": "foo"}, "log": {"file": {"path": "my.log"}}, "event": "log"})',
      returns: '"agent.name=foo event=log log.file.path=my.log"',
    },
    {
      title: 'Encode to logfmt (nested fields ordering)',
      source:
        'encode_logfmt!({"agent": {"name": "foo"}, "log": {"file": {"path": "my.log"}}, "event": "log"}, ["event", "log.file.path", "agent.name"])',
      returns: '"event=log log.file.path=my.log agent.name=foo"',
    },
  ],
});
