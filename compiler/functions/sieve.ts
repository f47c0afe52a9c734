import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'sieve',
  category: 'String',
  description:
    'Keeps only the characters matched by a regular expression. Removed characters can be replaced by `replace_single`, and runs of them by `replace_repeated`.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'permitted_characters', kinds: K.Regex, required: true },
    { name: 'replace_single', kinds: K.Bytes, required: false, default: '' },
    { name: 'replace_repeated', kinds: K.Bytes, required: false, default: '' },
  ],
  returns: BYTES,
  examples: [
    {
      title: 'Keep only lowercase letters',
      source: 'sieve("vector.dev/lowerUPPER", permitted_characters: r\'[a-z]\')',
      returns: '"vectordevlower"',
    },
    {
      title: 'Sieve with regex',
      source: 'sieve("test123%456.فوائد.net.", r\'[a-z0-9.]\')',
      returns: '"test123456..net."',
    },
    {
      title: 'Custom replacements',
      source: 'sieve("test123%456.فوائد.net.", r\'[a-z.0-9]\', replace_single: "X", replace_repeated: "<REMOVED>")',
      returns: '"test123X456.<REMOVED>.net."',
    },
  ],
});
