// md5(value): the MD5 digest of the bytes as lowercase hex.

import { createHash } from 'node:crypto';
import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';

export const md5: JsFunction = ([value]) => createHash('md5').update(bytesArg(value!)).digest('hex');
