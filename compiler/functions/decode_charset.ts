import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_charset',
  category: 'Codec',
  description: 'Converts a string encoded in the named character set (such as euc-kr or gb2312) into UTF-8.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'from_charset', kinds: K.Bytes, required: true },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'iconv-lite' },
  examples: [
    {
      title: 'Decode EUC-KR string',
      source: 'decode_charset!(decode_base64!("vsiz58fPvLy/5A=="), "euc-kr")',
      returns: '"안녕하세요"',
    },
    {
      title: 'Decode EUC-JP string',
      source: 'decode_charset!(decode_base64!("pLOk86TLpMGkzw=="), "euc-jp")',
      returns: '"こんにちは"',
    },
    {
      title: 'Decode GB2312 string',
      source: 'decode_charset!(decode_base64!("xOO6ww=="), "gb2312")',
      returns: '"你好"',
    },
  ],
});
