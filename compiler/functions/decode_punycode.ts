import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_punycode',
  category: 'Codec',
  description:
    'Converts a domain name written in Punycode (`xn--` labels) into Unicode; the result is validated unless `validate` is false.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'validate', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'tr46' },
  examples: [
    {
      title: 'Decode a punycode encoded internationalized domain name',
      source: 'decode_punycode!("www.xn--caf-dma.com")',
      returns: '"www.café.com"',
    },
    { title: 'Decode an ASCII only string', source: 'decode_punycode!("www.cafe.com")', returns: '"www.cafe.com"' },
    {
      title: 'Ignore validation',
      source: 'decode_punycode!("xn--8hbb.xn--fiba.xn--8hbf.xn--eib.", validate: false)',
      returns: '"١٠.٦٦.٣٠.٥."',
    },
  ],
});
