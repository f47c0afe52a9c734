import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import type { JsFunction } from '../imports.js';
import { booleanArg, stringArg } from './support/args.js';
import { library } from './support/library.js';

const ajvLibrary = library<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
// ajv-formats is CommonJS: its function is the module itself, or its `default`.
const formatsLibrary = library<FormatsPlugin & { default?: FormatsPlugin }>('ajv-formats');

/** Validators by schema path and unknown-format handling, compiled on first use (the schema is a literal), or
 * why the schema could not be: VRL reads and compiles it once, with the program. */
const validators = new Map<string, ValidateFunction | Error>();

/**
 * `validate_json_schema(value, schema_definition, ignore_unknown_formats = false)`: true when the JSON text
 * is valid under the JSON Schema (draft 2020-12) in the file; otherwise the errors in the words of Rust's
 * `jsonschema` crate, which VRL uses.
 */
export const validate_json_schema: JsFunction = ([value, schemaDefinition, ignoreUnknownFormats]) => {
  const text = stringArg(value!);
  const validate = validator(stringArg(schemaDefinition!), booleanArg(ignoreUnknownFormats!, false));
  let instance: unknown;
  try {
    instance = JSON.parse(text);
  } catch (e) {
    throw new Error(`unable to parse JSON: ${(e as Error).message}`);
  }
  if (validate(instance)) return true;
  const errors = (validate.errors ?? []).map((error) => `${errorText(error)} at ${error.instancePath}`);
  throw new Error(`JSON schema validation failed: ${errors.join(', ')}`);
};

function validator(path: string, ignoreUnknownFormats: boolean): ValidateFunction {
  const key = `${ignoreUnknownFormats ? 1 : 0}${path}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    try {
      validate = compileSchema(path, ignoreUnknownFormats);
    } catch (error) {
      validate = error as Error;
    }
    validators.set(key, validate);
  }
  if (validate instanceof Error) throw validate;
  return validate;
}

function compileSchema(path: string, ignoreUnknownFormats: boolean): ValidateFunction {
  let schema: unknown;
  try {
    schema = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`Failed to read schema: ${(e as Error).message}`);
  }
  const addFormats = formatsLibrary().default ?? formatsLibrary();
  const ajv = new (ajvLibrary().Ajv2020)({
    allErrors: true,
    verbose: true,
    addUsedSchema: false,
    strict: !ignoreUnknownFormats,
    logger: false,
  });
  addFormats(ajv);
  try {
    return ajv.compile(schema as object);
  } catch (e) {
    const format = /unknown format "([^"]*)"/.exec((e as Error).message);
    throw new Error(
      format
        ? `Failed to compile schema: Unknown format: '${format[1]}'. Adjust configuration to ignore unrecognized formats`
        : `Failed to compile schema: ${(e as Error).message}`,
    );
  }
}

const json = (v: unknown): string => JSON.stringify(v);

/** The `jsonschema` crate's text of an ajv error, for the keywords it words differently; ajv's own otherwise. */
const ERROR_TEXTS: Readonly<Record<string, (data: unknown, params: Record<string, unknown>) => string>> = {
  type: (data, p) =>
    `${json(data)} is not of type ${String(p.type)
      .split(',')
      .map((t) => `"${t}"`)
      .join(', ')}`,
  format: (data, p) => `${json(data)} is not a "${String(p.format)}"`,
  required: (_, p) => `"${String(p.missingProperty)}" is a required property`,
  minimum: (data, p) => `${json(data)} is less than the minimum of ${String(p.limit)}`,
  maximum: (data, p) => `${json(data)} is greater than the maximum of ${String(p.limit)}`,
  exclusiveMinimum: (data, p) => `${json(data)} is less than or equal to the minimum of ${String(p.limit)}`,
  exclusiveMaximum: (data, p) => `${json(data)} is greater than or equal to the maximum of ${String(p.limit)}`,
  minLength: (data, p) => `${json(data)} is shorter than ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`,
  maxLength: (data, p) => `${json(data)} is longer than ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`,
  minItems: (data, p) => `${json(data)} has less than ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`,
  maxItems: (data, p) => `${json(data)} has more than ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`,
  pattern: (data, p) => `${json(data)} does not match ${json(p.pattern)}`,
  enum: (data, p) => `${json(data)} is not one of ${json(p.allowedValues)}`,
  const: (_, p) => `${json(p.allowedValue)} was expected`,
  multipleOf: (data, p) => `${json(data)} is not a multiple of ${String(p.multipleOf)}`,
  uniqueItems: (data) => `${json(data)} has non-unique elements`,
  additionalProperties: (_, p) =>
    `Additional properties are not allowed ('${String(p.additionalProperty)}' was unexpected)`,
  anyOf: (data) => `${json(data)} is not valid under any of the schemas listed in the 'anyOf' keyword`,
  oneOf: (data, p) =>
    p.passingSchemas
      ? `${json(data)} is valid under more than one of the schemas listed in the 'oneOf' keyword`
      : `${json(data)} is not valid under any of the schemas listed in the 'oneOf' keyword`,
  'false schema': (data) => `False schema does not allow ${json(data)}`,
};

function errorText(error: ErrorObject): string {
  const text = ERROR_TEXTS[error.keyword];
  return text ? text(error.data, error.params as Record<string, unknown>) : (error.message ?? error.keyword);
}
