import { defineFunction } from './define.js';
import { K, REGEX } from '../types/kind.js';

export default defineFunction({
  name: 'to_regex',
  category: 'Coerce',
  description:
    'Compiles a string into a regular expression. Compiling at run time is costly, so prefer regex literals.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: REGEX,
  examples: [{ title: 'Coerce to a regex', source: 'to_regex!("^foo$")', returns: "r'^foo$'" }],
});
