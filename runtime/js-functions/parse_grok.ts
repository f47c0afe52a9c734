// parse_grok(value, pattern): the first match of a grok pattern (the logstash library), every named capture
// a string (empty when its group did not take part), as VRL's grok engine gives them.

import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';
import { compileGrok } from './support/grok.js';

export const parse_grok: JsFunction = ([value, pattern]) => {
  const grok = compileGrok(stringArg(pattern!), { datadog: false });
  const groups = grok.match(stringArg(value!));
  if (!groups) throw new Error('unable to parse input with grok pattern');
  const result: Record<string, RemapValue> = Object.create(null);
  for (const { group, name } of grok.fields) {
    const text = groups[group];
    if (text !== undefined || !(name in result)) result[name] = text ?? '';
  }
  return result;
};
