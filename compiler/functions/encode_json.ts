import { defineFunction } from './define.js';
import { K, ANY_BITS, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_json',
  category: 'Codec',
  description: 'Serializes any value as JSON text, compact or pretty-printed.',
  parameters: [
    { name: 'value', kinds: ANY_BITS, required: true },
    { name: 'pretty', kinds: K.Boolean, required: false, default: 'false' },
  ],
  returns: BYTES,
  examples: [
    {
      title: 'Encode object to JSON',
      source: 'encode_json({"field": "value", "another": [1,2,3]})',
      returns: 's\'{"another":[1,2,3],"field":"value"}\'',
    },
    {
      title: 'Encode object to as pretty-printed JSON',
      source: 'encode_json({"field": "value", "another": [1,2,3]}, true)',
      returns: '"{\\n  \\"another\\": [\\n    1,\\n    2,\\n    3\\n  ],\\n  \\"field\\": \\"value\\"\\n}"',
    },
  ],
});
