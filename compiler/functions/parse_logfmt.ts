import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { KEY_VALUE_OBJECT } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_logfmt',
  category: 'Parse',
  description:
    'Parses logfmt text (`key=value` pairs separated by spaces) into an object; a standalone key becomes `true`.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: KEY_VALUE_OBJECT,
  examples: [
    {
      title: 'Parse simple logfmt log',
      source: 'parse_logfmt!("zork=zook zonk=nork")',
      returns: '{ "zork": "zook", "zonk": "nork" }',
    },
    {
      title: 'Parse logfmt log',
      source: `parse_logfmt!(
    "@timestamp=\\"Sun Jan 10 16:47:39 EST 2021\\" level=info msg=\\"Stopping all fetchers\\" tag#production=stopping_fetchers id=ConsumerFetcherManager-1382721708341 module=kafka.consumer.ConsumerFetcherManager"
)
`,
      returns:
        '{ "@timestamp": "Sun Jan 10 16:47:39 EST 2021", "level": "info", "msg": "Stopping all fetchers", "tag#production": "stopping_fetchers", "id": "ConsumerFetcherManager-1382721708341", "module": "kafka.consumer.ConsumerFetcherManager" }',
    },
    {
      title: 'Parse logfmt log with standalone key',
      source: 'parse_logfmt!("zork=zook plonk zonk=nork")',
      returns: '{ "plonk": true, "zork": "zook", "zonk": "nork" }',
    },
  ],
});
