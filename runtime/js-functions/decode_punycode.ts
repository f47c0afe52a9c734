// decode_punycode(value, validate = true): an internationalized domain name in its Unicode form.

import type { JsFunction } from '../imports.js';
import { booleanArg, stringArg } from './args.js';
import { idna } from './idna.js';

export const decode_punycode: JsFunction = ([value, validate]) =>
  idna('unicode', stringArg(value!), booleanArg(validate!, true), 'unable to decode punycode: ');
