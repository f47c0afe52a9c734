// `now()`: the current time from the host's clock.

import { Value, newTimestamp } from '../value';
import { hostNow } from '../clock';

export function fn_now(): Value {
  return newTimestamp(hostNow());
}
