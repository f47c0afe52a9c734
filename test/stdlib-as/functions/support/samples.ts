// One value of each remap kind, named as VRL names kinds in messages.

import { Regex, Timestamp, type RemapValue } from '../../../../abi/values.js';

export const SAMPLES: ReadonlyArray<readonly [string, RemapValue]> = [
  ['null', null],
  ['boolean', true],
  ['integer', 7n],
  ['float', 1.5],
  ['string', 'text'],
  ['timestamp', new Timestamp(1_600_000_000_000_000_000n)],
  ['regex', new Regex('^a')],
  ['array', [1n]],
  ['object', { a: 1n }],
];
