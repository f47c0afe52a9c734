// format_timestamp(value, format, timezone): strftime in `timezone`, or in UTC when it is absent (VRL does
// not use the compile option here).

import type { JsFunction } from '../imports.js';
import { strftimeFormatter } from '../../abi/strftime.js';
import { namedTimeZone, UTC } from '../time-zones.js';
import { stringArg, timestampArg } from './support/args.js';

export const format_timestamp: JsFunction = ([value, format, timezone]) => {
  const { nanos } = timestampArg(value!);
  const formatter = strftimeFormatter(stringArg(format!));
  const zone = timezone === null || timezone === undefined ? UTC : namedTimeZone(stringArg(timezone));
  return formatter(nanos, zone);
};
