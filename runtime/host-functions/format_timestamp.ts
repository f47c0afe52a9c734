// format_timestamp(value, format, timezone): strftime in `timezone`, or in UTC when it is absent (VRL does
// not use the compile option here).

import type { HostFunction } from '../host-imports.js';
import { strftimeFormatter } from '../strftime.js';
import { lossyText } from '../text.js';
import { namedTimeZone, UTC } from '../time-zones.js';
import type { Timestamp } from '../values.js';

export const format_timestamp: HostFunction = ([value, format, timezone]) => {
  const formatter = strftimeFormatter(lossyText(format!));
  const zone = timezone === null || timezone === undefined ? UTC : namedTimeZone(lossyText(timezone));
  return formatter((value as Timestamp).nanos, zone);
};
