import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { GLOG } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_klog',
  category: 'Parse',
  description:
    'Parses a line written by the klog logging library; the year, absent from the line, is taken as the current one.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  backing: { kind: 'js', library: 'RegExp' },
  returns: GLOG,
  examples: [
    {
      title: 'Parse using klog',
      source: 'parse_klog!("I0505 17:59:40.692994   28133 klog.go:70] hello from klog")',
      returns:
        '{ "file": "klog.go", "id": 28133, "level": "info", "line": 70, "message": "hello from klog", "timestamp": "2026-05-05T17:59:40.692994Z" }',
    },
  ],
});
