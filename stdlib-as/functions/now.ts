// `now()`: the current time from the runtime's clock.

import { Value, timestampFromNanos } from '../value';
import { jsNow } from '../clock';

export function fn_now(): Value {
  return timestampFromNanos(jsNow());
}
