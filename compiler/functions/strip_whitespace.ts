import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'strip_whitespace',
  category: 'String',
  description: 'Removes Unicode whitespace from both ends of a string.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: BYTES,
  examples: [
    { title: 'Strip whitespace', source: 'strip_whitespace("  A sentence.  ")', returns: '"A sentence."' },
    { title: 'Start whitespace', source: 'strip_whitespace("  foobar")', returns: '"foobar"' },
    { title: 'End whitespace', source: 'strip_whitespace("foo bar  ")', returns: '"foo bar"' },
    { title: 'Newlines', source: 'strip_whitespace("\\n\\nfoo bar\\n  ")', returns: '"foo bar"' },
  ],
});
