import { defineFunction } from './define.js';
import { K, ANY, objectOf } from '../types/kind.js';

export default defineFunction({
  name: 'parse_proto',
  category: 'Parse',
  description:
    'Decodes a protocol buffers payload as the message type `message_type` described in the descriptor set file `desc_file`. Both are read at compile time.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'desc_file', kinds: K.Bytes, required: true, literal: true },
    { name: 'message_type', kinds: K.Bytes, required: true, literal: true },
  ],
  fallible: true,
  returns: objectOf(ANY),
  backing: { kind: 'js', library: 'protobufjs' },
  examples: [
    {
      title: 'Parse proto',
      source:
        'parse_proto!(decode_base64!("Cgdzb21lb25lIggKBjEyMzQ1Ng=="), "tests/data/protobuf/test_protobuf/v1/test_protobuf.desc", "test_protobuf.v1.Person")',
      returns: '{ "name": "someone", "phones": [{ "number": "123456" }] }',
    },
  ],
});
