import { defineFunction } from './define.js';
import { K, FLOAT } from '../types/kind.js';

export default defineFunction({
  name: 'shannon_entropy',
  category: 'String',
  description: 'Computes the Shannon entropy of a string over its bytes, code points or grapheme clusters.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'segmentation', kinds: K.Bytes, required: false, default: 'byte', enum: ['byte', 'codepoint', 'grapheme'] },
  ],
  returns: FLOAT,
  backing: { kind: 'js', library: 'Intl' },
  examples: [
    {
      title: 'Simple byte segmentation example',
      source: 'floor(shannon_entropy("vector.dev"), precision: 4)',
      returns: '2.9219',
    },
    {
      title: 'UTF-8 string with bytes segmentation',
      source: 'floor(shannon_entropy("test123%456.فوائد.net."), precision: 4)',
      returns: '4.0784',
    },
    {
      title: 'UTF-8 string with grapheme segmentation',
      source: 'floor(shannon_entropy("test123%456.فوائد.net.", segmentation: "grapheme"), precision: 4)',
      returns: '3.9362',
    },
    {
      title: 'UTF-8 emoji (7 Unicode scalar values) with grapheme segmentation',
      source: 'shannon_entropy("👨‍👩‍👧‍👦", segmentation: "grapheme")',
      returns: '0.0',
    },
  ],
});
