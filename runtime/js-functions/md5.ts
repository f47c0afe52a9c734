// md5(value): the MD5 digest of the bytes as lowercase hex.

import { hash } from 'node:crypto';
import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';

// One-shot `hash`: a createHash object per call cost twice the digest of a short value.
export const md5: JsFunction = ([value]) => hash('md5', bytesArg(value!), 'hex');
