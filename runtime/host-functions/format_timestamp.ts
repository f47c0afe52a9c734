// format_timestamp(value, format, timezone): strftime in `timezone`, or in UTC when it is absent (VRL does
// not use the compile option here).

import type { HostFunction } from '../host-imports.js';
import { expectText, expectTimestamp } from '../kinds.js';
import { strftimeFormatter } from '../strftime.js';
import { namedTimeZone, UTC } from '../time-zones.js';

export const format_timestamp: HostFunction = ([value, format, timezone]) => {
  const { nanos } = expectTimestamp(value!);
  const formatter = strftimeFormatter(expectText(format!));
  const zone = timezone === null || timezone === undefined ? UTC : namedTimeZone(expectText(timezone));
  return formatter(nanos, zone);
};
