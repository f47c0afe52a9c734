// seahash(value): the 64-bit SeaHash of the bytes as VRL's i64 (wrapping to negative past i64::MAX).

import type { JsFunction } from '../imports.js';
import { seahash as hash } from '../seahash.js';
import { bytesArg } from './support/args.js';

export const seahash: JsFunction = ([value]) => BigInt.asIntN(64, hash(bytesArg(value!)));
