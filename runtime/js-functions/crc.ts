// crc(value, algorithm = "CRC_32_ISO_HDLC"): the CRC as a decimal string. The algorithm may be any string
// expression, so an unknown one fails at run time.

import type { JsFunction } from '../imports.js';
import { crc as compute, CRC_CATALOGUE } from './support/crc.js';
import { bytesArg, stringArg } from './support/args.js';

export const crc: JsFunction = ([value, algorithm]) => {
  const name = algorithm === null ? 'CRC_32_ISO_HDLC' : stringArg(algorithm!);
  if (!CRC_CATALOGUE.has(name)) throw new Error(`Invalid CRC algorithm: ${name}`);
  return compute(name, bytesArg(value!)).toString();
};
