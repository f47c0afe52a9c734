import { defineFunction } from './define.js';
import { K, BYTES, FLOAT, TIMESTAMP, UNDEFINED, objectOf, arrayOf, exactObject, union } from '../types/kind.js';

const METRIC = exactObject({
  gauge: exactObject({ value: FLOAT }),
  kind: BYTES,
  name: BYTES,
  tags: union(objectOf(BYTES), UNDEFINED),
  timestamp: union(TIMESTAMP, UNDEFINED),
});

export default defineFunction({
  name: 'parse_tsdb',
  aliases: ['parse_influxdb'],
  category: 'Parse',
  description:
    'Parses a time-series database line protocol record into gauge metrics, one per field, named `<measurement>_<field>`; booleans become 1 or 0.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  backing: { kind: 'js', library: 'RegExp' },
  returns: arrayOf(METRIC),
  examples: [
    {
      title: 'Parse InfluxDB line protocol',
      source:
        'parse_influxdb!("cpu,host=A,region=us-west usage_system=64i,usage_user=10u,temperature=50.5,on=true,sleep=false 1590488773254420000")',
      returns:
        '[{ "name": "cpu_usage_system", "tags": { "host": "A", "region": "us-west" }, "timestamp": "2020-05-26T10:26:13.254420Z", "kind": "absolute", "gauge": { "value": 64.0 } }, { "name": "cpu_usage_user", "tags": { "host": "A", "region": "us-west" }, "timestamp": "2020-05-26T10:26:13.254420Z", "kind": "absolute", "gauge": { "value": 10.0 } }, { "name": "cpu_temperature", "tags": { "host": "A", "region": "us-west" }, "timestamp": "2020-05-26T10:26:13.254420Z", "kind": "absolute", "gauge": { "value": 50.5 } }, { "name": "cpu_on", "tags": { "host": "A", "region": "us-west" }, "timestamp": "2020-05-26T10:26:13.254420Z", "kind": "absolute", "gauge": { "value": 1.0 } }, { "name": "cpu_sleep", "tags": { "host": "A", "region": "us-west" }, "timestamp": "2020-05-26T10:26:13.254420Z", "kind": "absolute", "gauge": { "value": 0.0 } }]',
    },
  ],
});
