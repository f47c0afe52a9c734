import { defineFunction } from './define.js';
import { ANY_BITS, ANY } from '../types/kind.js';

export default defineFunction({
  name: 'type_def',
  category: 'Type',
  description:
    'Returns, as a value, the type the checker inferred for its argument. A debugging aid whose output format is not stable.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: ANY,
  backing: { kind: 'intrinsic' },
  examples: [{ title: 'return type definition', source: 'type_def(42)', returns: '{ "integer": true }' }],
});
