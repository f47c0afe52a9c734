// JS numbers that are integral cross into the module as integers; a JS function that returns a float says so.

import { IntegralFloat } from '../../../abi/codec.js';
import type { RemapValue } from '../../../abi/values.js';

/** `value` as a remap float, also when it is integral (`64.0`). */
export function floatValue(value: number): RemapValue {
  return (Number.isInteger(value) ? new IntegralFloat(value) : value) as unknown as RemapValue;
}
