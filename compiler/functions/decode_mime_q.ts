import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_mime_q',
  category: 'Codec',
  description:
    'Replaces the MIME encoded-words (RFC 2047, Q or B encoding) in a string by the text they encode; the word may appear inside other text and may lack a charset.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'iconv-lite' },
  examples: [
    {
      title: 'Decode single encoded-word',
      source: 'decode_mime_q!("=?utf-8?b?SGVsbG8sIFdvcmxkIQ==?=")',
      returns: '"Hello, World!"',
    },
    {
      title: 'Embedded',
      source: 'decode_mime_q!("From: =?utf-8?b?SGVsbG8sIFdvcmxkIQ==?= <=?utf-8?q?hello=5Fworld=40example=2ecom?=>")',
      returns: '"From: Hello, World! <hello_world@example.com>"',
    },
    { title: 'Without charset', source: 'decode_mime_q!("?b?SGVsbG8sIFdvcmxkIQ==")', returns: '"Hello, World!"' },
  ],
});
