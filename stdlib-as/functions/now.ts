// `now()`: the current time from the host's clock.

import { Value, newTimestamp } from '../value';

// @ts-ignore: decorator
@external("svc_host", "now")
declare function hostNow(): i64;

export function fn_now(): Value {
  return newTimestamp(hostNow());
}
