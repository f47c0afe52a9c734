import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'strip_ansi_escape_codes',
  category: 'String',
  description: 'Removes ANSI terminal escape sequences (colours, cursor movements) from a string.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
  ],
  returns: BYTES,
  examples: [

  ],
});
