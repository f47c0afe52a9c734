import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'validate_json_schema',
  category: 'Type',
  description:
    'Tells whether a JSON document conforms to the JSON Schema in the file `schema_definition`, which is loaded at compile time. Unknown custom formats fail unless `ignore_unknown_formats` is set.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'schema_definition', kinds: K.Bytes, required: true, literal: true },
    { name: 'ignore_unknown_formats', kinds: K.Boolean, required: false, literal: true },
  ],
  fallible: true,
  returns: BOOLEAN,
  backing: { kind: 'js', library: 'ajv' },
  examples: [
    {
      title: 'Payload contains a valid email',
      source:
        'validate_json_schema!(s\'{ "productUser": "valid@email.com" }\', "tests/data/jsonschema/validate_json_schema/schema_with_email_format.json", false)',
      returns: 'true',
    },
    {
      title: 'Payload contains an invalid email',
      source:
        'validate_json_schema!(s\'{ "productUser": "invalidEmail" }\', "tests/data/jsonschema/validate_json_schema/schema_with_email_format.json", false)',
      raises:
        'function call error for "validate_json_schema" at (0:142): JSON schema validation failed: "invalidEmail" is not a "email" at /productUser',
    },
    {
      title: 'Payload contains a custom format declaration',
      source:
        'validate_json_schema!(s\'{ "productUser": "a-custom-formatted-string" }\', "tests/data/jsonschema/validate_json_schema/schema_with_custom_format.json", false)',
      raises:
        'function call error for "validate_json_schema" at (0:156): Failed to compile schema: Unknown format: \'my-custom-format\'. Adjust configuration to ignore unrecognized formats',
    },
    {
      title: 'Payload contains a custom format declaration, with ignore_unknown_formats set to true',
      source:
        'validate_json_schema!(s\'{ "productUser": "a-custom-formatted-string" }\', "tests/data/jsonschema/validate_json_schema/schema_with_custom_format.json", true)',
      returns: 'true',
    },
  ],
});
