import { defineFunction } from './define.js';
import { K, BYTES, BOOLEAN, exactObject } from '../types/kind.js';
import type { ArgumentError, CallInfo } from './define.js';
import { invalidArgument } from './support/arguments.js';
import { constantString } from './support/rules.js';
import { readPublicSuffixList } from '../../abi/public-suffix-list.js';

/** VRL reads the `psl` file when the call compiles: a missing, unreadable or invalid list is E403 there. */
function validateList(call: CallInfo): ArgumentError | undefined {
  const path = constantString(call.args.psl);
  if (path === undefined) return undefined;
  try {
    readPublicSuffixList(path);
  } catch (e) {
    return invalidArgument('psl', displayString(path), (e as Error).message);
  }
  return undefined;
}

/** A string as VRL displays a value. */
const displayString = (text: string): string =>
  `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

export default defineFunction({
  name: 'parse_etld',
  category: 'Parse',
  description:
    'Finds the effective top-level domain of a domain name using the public suffix list, plus `plus_parts` more labels to its left. `psl` names a file holding a custom list, read at compile time.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'plus_parts', kinds: K.Integer, required: false, default: '0' },
    { name: 'psl', kinds: K.Bytes, required: false, literal: true },
  ],
  fallible: true,
  returns: exactObject({ etld: BYTES, etld_plus: BYTES, known_suffix: BOOLEAN }),
  validate: validateList,
  backing: { kind: 'js', library: 'tldts' },
  examples: [
    {
      title: 'Parse eTLD',
      source: 'parse_etld!("sub.sussex.ac.uk")',
      returns: '{ "etld": "ac.uk", "etld_plus": "ac.uk", "known_suffix": true }',
    },
    {
      title: 'Parse eTLD+1',
      source: 'parse_etld!("sub.sussex.ac.uk", plus_parts: 1)',
      returns: '{ "etld": "ac.uk", "etld_plus": "sussex.ac.uk", "known_suffix": true }',
    },
    {
      title: 'Parse eTLD with unknown suffix',
      source: 'parse_etld!("vector.acmecorp")',
      returns: '{ "etld": "acmecorp", "etld_plus": "acmecorp", "known_suffix": false }',
    },
    {
      title: 'Parse eTLD with custom PSL',
      source: 'parse_etld!("vector.acmecorp", psl: "lib/tests/tests/functions/custom_public_suffix_list.dat")',
      returns: '{ "etld": "acmecorp", "etld_plus": "acmecorp", "known_suffix": false }',
    },
  ],
});
