import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_charset',
  category: 'Codec',
  description: 'Converts a UTF-8 string into the named character set (such as euc-kr or gb2312).',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'to_charset', kinds: K.Bytes, required: true },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'iconv-lite' },
  examples: [
    {
      title: 'Encode UTF8 string to EUC-KR',
      source: 'encode_base64(encode_charset!("안녕하세요", "euc-kr"))',
      returns: '"vsiz58fPvLy/5A=="',
    },
    {
      title: 'Encode UTF8 string to EUC-JP',
      source: 'encode_base64(encode_charset!("こんにちは", "euc-jp"))',
      returns: '"pLOk86TLpMGkzw=="',
    },
    {
      title: 'Encode UTF8 string to GB2312',
      source: 'encode_base64(encode_charset!("你好", "gb2312"))',
      returns: '"xOO6ww=="',
    },
  ],
});
