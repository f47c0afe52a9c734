import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_punycode',
  category: 'Codec',
  description:
    'Converts an internationalized domain name into its ASCII (Punycode) form, lower-cased; the input is validated unless `validate` is false.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'validate', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'tr46' },
  examples: [
    {
      title: 'Encode an internationalized domain name',
      source: 'encode_punycode!("www.café.com")',
      returns: '"www.xn--caf-dma.com"',
    },
    {
      title: 'Encode an internationalized domain name with mixed case',
      source: 'encode_punycode!("www.CAFé.com")',
      returns: '"www.xn--caf-dma.com"',
    },
    { title: 'Encode an ASCII only string', source: 'encode_punycode!("www.cafe.com")', returns: '"www.cafe.com"' },
    {
      title: 'Ignore validation',
      source: 'encode_punycode!("xn--8hbb.xn--fiba.xn--8hbf.xn--eib.", validate: false)',
      returns: '"xn--8hbb.xn--fiba.xn--8hbf.xn--eib."',
    },
  ],
});
