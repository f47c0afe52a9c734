import { defineFunction } from './define.js';
import { K, BYTES, BOOLEAN, elementsOf, isSubset } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'contains_all',
  category: 'String',
  description: 'Tells whether a string contains every one of the given substrings, optionally ignoring case.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'substrings', kinds: K.Array, required: true },
    { name: 'case_sensitive', kinds: K.Boolean, required: false },
  ],
  // Items that may not be strings are checked at run time.
  fallible: (call) => !isSubset(elementsOf(argKind(call, 'substrings')), BYTES),
  returns: BOOLEAN,
  examples: [
    {
      title: 'String contains all with default parameters (case sensitive)',
      source: 'contains_all("The NEEDLE in the Haystack", ["NEEDLE", "Haystack"])',
      returns: 'true',
    },
    {
      title: "String doesn't contain all with default parameters (case sensitive)",
      source: 'contains_all("The NEEDLE in the Haystack", ["needle", "Haystack"])',
      returns: 'false',
    },
    {
      title: 'String contains all (case insensitive)',
      source: 'contains_all("The NEEDLE in the HaYsTaCk", ["nEeDlE", "haystack"], case_sensitive: false)',
      returns: 'true',
    },
  ],
});
