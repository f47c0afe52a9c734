// parse_glog(value): a glog line (`I20210131 14:48:54.411655 15520 main.c++:9] message`), its time in UTC.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { GLOG_LINE, glogFields } from './support/glog.js';

export const parse_glog: JsFunction = ([value]) => {
  const m = GLOG_LINE.exec(stringArg(value!));
  if (!m) throw new Error('failed parsing glog message');
  return glogFields(GLOG_LINE.namedGroups(m) as Record<string, string>);
};
