// sha1(value): the SHA-1 digest of the bytes as lowercase hex.

import { hash } from 'node:crypto';
import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';

export const sha1: JsFunction = ([value]) => hash('sha1', bytesArg(value!), 'hex');
