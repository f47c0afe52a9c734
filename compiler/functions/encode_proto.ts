import { defineFunction } from './define.js';
import { K, ANY_BITS, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_proto',
  category: 'Codec',
  description: 'Serializes a value as a protobuf message of the named type, as described by a descriptor set file.',
  parameters: [
    { name: 'value', kinds: ANY_BITS, required: true },
    { name: 'desc_file', kinds: K.Bytes, required: true, literal: true },
    { name: 'message_type', kinds: K.Bytes, required: true, literal: true },
    { name: 'allow_lossy_string_coercion', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'protobufjs' },
  examples: [
    {
      title: 'Encode to proto',
      source:
        'encode_base64(encode_proto!({ "name": "someone", "phones": [{"number": "123456"}]}, "tests/data/protobuf/test_protobuf/v1/test_protobuf.desc", "test_protobuf.v1.Person"))',
      returns: '"Cgdzb21lb25lIggKBjEyMzQ1Ng=="',
    },
  ],
});
