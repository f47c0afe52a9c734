import { defineFunction } from './define.js';
import { K, only } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'redact',
  category: 'String',
  description:
    'Hides sensitive parts of a string, or of every string nested in an object or array. Filters are regular expressions or named patterns; the redactor replaces matches with a text or with a hash of them.',
  parameters: [
    { name: 'value', kinds: K.Bytes | K.Object | K.Array, required: true },
    { name: 'filters', kinds: K.Array, required: true, literal: true },
    { name: 'redactor', kinds: K.Bytes | K.Object, required: false, literal: true },
  ],
  returns: (call) => only(argKind(call, 'value'), K.Bytes | K.Object | K.Array),
  backing: { kind: 'js', library: 'RegExp' },
  examples: [
    {
      title: 'Replace text using a regex',
      source: 'redact("my id is 123456", filters: [r\'\\d+\'])',
      returns: '"my id is [REDACTED]"',
    },
    {
      title: 'Replace us social security numbers in any field',
      source: 'redact({ "name": "John Doe", "ssn": "123-12-1234"}, filters: ["us_social_security_number"])',
      returns: '{ "name": "John Doe", "ssn": "[REDACTED]" }',
    },
    {
      title: 'Replace with custom text',
      source: 'redact("my id is 123456", filters: [r\'\\d+\'], redactor: {"type": "text", "replacement": "***"})',
      returns: '"my id is ***"',
    },
    {
      title: 'Replace with SHA-2 hash',
      source: 'redact("my id is 123456", filters: [r\'\\d+\'], redactor: "sha2")',
      returns: '"my id is GEtTedW1p6tC094dDKH+3B8P+xSnZz69AmpjaXRd63I="',
    },
    {
      title: 'Replace with SHA-3 hash',
      source: 'redact("my id is 123456", filters: [r\'\\d+\'], redactor: "sha3")',
      returns: '"my id is ZNCdmTDI7PeeUTFnpYjLdUObdizo+bIupZdl8yqnTKGdLx6X3JIqPUlUWUoFBikX+yTR+OcvLtAqWO11NPlNJw=="',
    },
    {
      title: 'Replace with SHA-256 hash using hex encoding',
      source: 'redact("my id is 123456", filters: [r\'\\d+\'], redactor: {"type": "sha2", "variant": "SHA-256", "encoding": "base16"})',
      returns: '"my id is 8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92"',
    },
  ],
});
