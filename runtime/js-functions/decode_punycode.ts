// decode_punycode(value, validate = true): an internationalized domain name in its Unicode form.

import type { JsFunction } from '../imports.js';
import { booleanArg, stringArg } from './support/args.js';
import { idna } from './support/idna.js';

export const decode_punycode: JsFunction = ([value, validate]) =>
  idna('unicode', stringArg(value!), booleanArg(validate!, true), 'unable to decode punycode: ');
