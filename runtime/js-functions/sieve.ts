// sieve(value, permitted_characters, replace_single = "", replace_repeated = ""): keeps the characters the
// regex matches (tested on each character alone); a run of one removed character becomes
// `replace_single`, a longer run `replace_repeated`.

import type { JsFunction } from '../imports.js';
import { regexArg, stringArg } from './args.js';

export const sieve: JsFunction = ([value, permitted, single, repeated], context) => {
  const re = context.regex(regexArg(permitted!).pattern);
  const text = stringArg(value!);
  const replaceSingle = single === null ? '' : stringArg(single!);
  const replaceRepeated = repeated === null ? '' : stringArg(repeated!);
  const verdicts = new Map<string, boolean>();
  let out = '';
  let removed = 0;
  const flush = () => {
    if (removed === 1) out += replaceSingle;
    else if (removed > 1) out += replaceRepeated;
    removed = 0;
  };
  for (const c of text) {
    let keep = verdicts.get(c);
    if (keep === undefined) verdicts.set(c, (keep = re.test(c)));
    if (keep) {
      flush();
      out += c;
    } else {
      removed++;
    }
  }
  flush();
  return out;
};
