// parse_klog(value): a klog line (`I0505 17:59:40.692994   28133 klog.go:70] message`); the line has no year,
// so the current one (UTC) is assumed.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { KLOG_LINE, glogFields } from './support/glog.js';

export const parse_klog: JsFunction = ([value]) => {
  const m = KLOG_LINE.exec(stringArg(value!));
  if (!m) throw new Error('failed parsing klog message');
  return glogFields(KLOG_LINE.namedGroups(m) as Record<string, string>, String(new Date().getUTCFullYear()));
};
