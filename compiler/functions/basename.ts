import { defineFunction } from './define.js';
import { K, BYTES, NULL, union } from '../types/kind.js';

export default defineFunction({
  name: 'basename',
  category: 'String',
  description:
    'Returns the last component of a path, ignoring a trailing separator; null when the path has none (such as `/`).',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: union(BYTES, NULL),
  examples: [
    { title: 'Extract basename from file path', source: 'basename!("/usr/local/bin/vrl")', returns: '"vrl"' },
    {
      title: 'Extract basename from file path with extension',
      source: 'basename!("/home/user/file.txt")',
      returns: '"file.txt"',
    },
    { title: 'Extract basename from directory path', source: 'basename!("/home/user/")', returns: '"user"' },
    { title: 'Root directory has no basename', source: 'basename!("/")', returns: 'null' },
  ],
});
