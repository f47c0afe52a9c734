// `fast` uses woothee's rules; `reliable` falls back to, and `enriched` uses, the uap-core regexes.

import { defineFunction } from './define.js';
import { K, exactObject } from '../types/kind.js';
import { constantString } from './support/rules.js';
import { STRING_OR_NULL } from './support/result-kinds.js';

const BASIC = exactObject({
  browser: exactObject({ family: STRING_OR_NULL, version: STRING_OR_NULL }),
  device: exactObject({ category: STRING_OR_NULL }),
  os: exactObject({ family: STRING_OR_NULL, version: STRING_OR_NULL }),
});

const ENRICHED = exactObject({
  browser: exactObject({
    family: STRING_OR_NULL,
    major: STRING_OR_NULL,
    minor: STRING_OR_NULL,
    patch: STRING_OR_NULL,
    version: STRING_OR_NULL,
  }),
  device: exactObject({
    brand: STRING_OR_NULL,
    category: STRING_OR_NULL,
    family: STRING_OR_NULL,
    model: STRING_OR_NULL,
  }),
  os: exactObject({
    family: STRING_OR_NULL,
    major: STRING_OR_NULL,
    minor: STRING_OR_NULL,
    patch: STRING_OR_NULL,
    patch_minor: STRING_OR_NULL,
    version: STRING_OR_NULL,
  }),
});

export default defineFunction({
  name: 'parse_user_agent',
  category: 'Parse',
  description:
    'Extracts browser, operating system and device information from a user agent string. `fast` (the default) and `reliable` give family and version; `enriched` adds version parts, brand and model.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'mode', kinds: K.Bytes, required: false, default: 'fast', enum: ['fast', 'reliable', 'enriched'] },
  ],
  returns: (call) => (constantString(call.args.mode) === 'enriched' ? ENRICHED : BASIC),
  backing: { kind: 'js', library: 'woothee' },
  examples: [
    {
      title: 'Fast mode',
      source: `parse_user_agent(
    "Mozilla Firefox 1.0.1 Mozilla/5.0 (X11; U; Linux i686; de-DE; rv:1.7.6) Gecko/20050223 Firefox/1.0.1"
)
`,
      returns:
        '{ "browser": { "family": "Firefox", "version": "1.0.1" }, "device": { "category": "pc" }, "os": { "family": "Linux", "version": null } }',
    },
    {
      title: 'Reliable mode',
      source: `parse_user_agent(
    "Mozilla/4.0 (compatible; MSIE 7.66; Windows NT 5.1; SV1; .NET CLR 1.1.4322)",
    mode: "reliable")
`,
      returns:
        '{ "browser": { "family": "Internet Explorer", "version": "7.66" }, "device": { "category": "pc" }, "os": { "family": "Windows XP", "version": "NT 5.1" } }',
    },
    {
      title: 'Enriched mode',
      source: `parse_user_agent(
    "Opera/9.80 (J2ME/MIDP; Opera Mini/4.3.24214; iPhone; CPU iPhone OS 4_2_1 like Mac OS X; AppleWebKit/24.783; U; en) Presto/2.5.25 Version/10.54",
    mode: "enriched"
)
`,
      returns:
        '{ "browser": { "family": "Opera Mini", "major": "4", "minor": "3", "patch": "24214", "version": "10.54" }, "device": { "brand": "Apple", "category": "smartphone", "family": "iPhone", "model": "iPhone" }, "os": { "family": "iOS", "major": "4", "minor": "2", "patch": "1", "patch_minor": null, "version": "4.2.1" } }',
    },
  ],
});
