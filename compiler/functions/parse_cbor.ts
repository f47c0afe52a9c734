import { defineFunction } from './define.js';
import { K, JSON_KIND } from '../types/kind.js';

export default defineFunction({
  name: 'parse_cbor',
  category: 'Parse',
  description: 'Decodes a CBOR payload into the corresponding remap value.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: JSON_KIND,
  backing: { kind: 'js', library: 'cborg' },
  examples: [
    {
      title: 'Parse CBOR',
      source: 'parse_cbor!(decode_base64!("oWVmaWVsZGV2YWx1ZQ=="))',
      returns: '{ "field": "value" }',
    },
    { title: 'array', source: 'parse_cbor!(decode_base64!("gvUA"))', returns: '[true, 0]' },
    { title: 'string', source: 'parse_cbor!(decode_base64!("ZWhlbGxv"))', returns: '"hello"' },
    { title: 'integer', source: 'parse_cbor!(decode_base64!("GCo="))', returns: '42' },
    { title: 'float', source: 'parse_cbor!(decode_base64!("+0BFEKPXCj1x"))', returns: '42.13' },
    { title: 'boolean', source: 'parse_cbor!(decode_base64!("9A=="))', returns: 'false' },
  ],
});
