// encode_punycode(value, validate = true): an internationalized domain name in its ASCII (punycode) form.

import type { JsFunction } from '../imports.js';
import { booleanArg, stringArg } from './support/args.js';
import { idna } from './support/idna.js';

export const encode_punycode: JsFunction = ([value, validate]) =>
  idna('ascii', stringArg(value!), booleanArg(validate!, true), 'unable to encode to punycode: ');
