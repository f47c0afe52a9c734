import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'dirname',
  category: 'String',
  description:
    'Returns the directory part of a path: everything before its last component, `.` for a bare file name and `/` for the root.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [
    { title: 'Extract dirname from file path', source: 'dirname!("/usr/local/bin/vrl")', returns: '"/usr/local/bin"' },
    {
      title: 'Extract dirname from file path with extension',
      source: 'dirname!("/home/user/file.txt")',
      returns: '"/home/user"',
    },
    { title: 'Extract dirname from directory path', source: 'dirname!("/home/user/")', returns: '"/home"' },
    { title: 'Root directory dirname is itself', source: 'dirname!("/")', returns: '"/"' },
    { title: 'Relative files have current directory as dirname', source: 'dirname!("file.txt")', returns: '"."' },
  ],
});
