import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { GLOG } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_glog',
  category: 'Parse',
  description:
    'Parses a line written by the glog logging library into its level, timestamp, thread id, source location and message.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  backing: { kind: 'js', library: 'RegExp' },
  returns: GLOG,
  examples: [
    {
      title: 'Parse using glog',
      source: 'parse_glog!("I20210131 14:48:54.411655 15520 main.c++:9] Hello world!")',
      returns:
        '{ "file": "main.c++", "id": 15520, "level": "info", "line": 9, "message": "Hello world!", "timestamp": "2021-01-31T14:48:54.411655Z" }',
    },
  ],
});
