import { defineFunction } from './define.js';
import { K, only } from '../types/kind.js';
import { argKind } from './support/rules.js';
import { invalidArgument } from './support/arguments.js';
import type { ArgumentError, CallInfo, Constant } from './define.js';

/** Named filters (as a string, or an object's `type` besides `pattern`). */
const FILTER_NAMES = ['us_social_security_number'];
/** Redactors named by a string; an object's `type` may also be `text`. */
const REDACTOR_NAMES = ['full', 'sha2', 'sha3'];

const stringOf = (c: Constant | undefined) =>
  c !== undefined && 'kind' in c && c.kind === 'string' ? c.value : undefined;

/** Why a literal filter is not one (as the run time reports it), or undefined. */
function filterProblem(filter: Constant): string | undefined {
  if (filter.kind === 'regex') return undefined;
  if (filter.kind === 'object') {
    const type = stringOf(filter.fields.get('type'));
    if (type === undefined) return 'filter must have a type';
    if (type === 'pattern') return filter.fields.has('patterns') ? undefined : 'pattern filter must have patterns';
    return FILTER_NAMES.includes(type) ? undefined : `unknown filter name: ${type}`;
  }
  const name = stringOf(filter);
  if (name === undefined) return 'expected string, regex or object';
  return FILTER_NAMES.includes(name) ? undefined : `unknown filter name: ${name}`;
}

/** Why a literal redactor is not one, or undefined. */
function redactorProblem(redactor: Constant): string | undefined {
  const type = redactor.kind === 'object' ? stringOf(redactor.fields.get('type')) : stringOf(redactor);
  if (type === undefined) return redactor.kind === 'object' ? 'redactor must have a type' : 'expected string or object';
  if (REDACTOR_NAMES.includes(type) || (type === 'text' && redactor.kind === 'object')) return undefined;
  return `unknown redactor: ${type}`;
}

/** Literal filters and redactors are checked here, as VRL checks them when it compiles the call. */
function validateRedact(call: CallInfo): ArgumentError | undefined {
  const filters = call.args.filters;
  if (filters?.constant?.kind === 'array') {
    for (const filter of filters.constant.items) {
      const problem = filterProblem(filter);
      if (problem !== undefined) return invalidArgument('filters', filters.text, problem);
    }
  }
  const redactor = call.args.redactor;
  const problem = redactor?.constant === undefined ? undefined : redactorProblem(redactor.constant);
  return problem === undefined ? undefined : invalidArgument('redactor', redactor!.text, problem);
}

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
  validate: validateRedact,
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
      source:
        'redact("my id is 123456", filters: [r\'\\d+\'], redactor: {"type": "sha2", "variant": "SHA-256", "encoding": "base16"})',
      returns: '"my id is 8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92"',
    },
  ],
});
