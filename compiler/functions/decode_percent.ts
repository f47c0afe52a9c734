import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_percent',
  category: 'Codec',
  description: 'Decodes the percent-escapes (`%20`...) of a URL-encoded string.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: BYTES,
  examples: [{ title: 'Percent decode a value', source: 'decode_percent("foo%20bar%3F")', returns: '"foo bar?"' }],
});
