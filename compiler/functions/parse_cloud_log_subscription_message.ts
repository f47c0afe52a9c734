import { defineFunction } from './define.js';
import { K, BYTES, TIMESTAMP, arrayOf, exactObject } from '../types/kind.js';

export default defineFunction({
  name: 'parse_cloud_log_subscription_message',
  aliases: ['parse_aws_cloudwatch_log_subscription_message'],
  category: 'Parse',
  description:
    'Parses the JSON message that a cloud log subscription delivers: owner, log group and stream, subscription filters and the batch of log events.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  backing: { kind: 'js', library: 'JSON' },
  returns: exactObject({
    log_events: arrayOf(exactObject({ id: BYTES, message: BYTES, timestamp: TIMESTAMP })),
    log_group: BYTES,
    log_stream: BYTES,
    message_type: BYTES,
    owner: BYTES,
    subscription_filters: arrayOf(BYTES),
  }),
  examples: [
    {
      title: 'Parse AWS Cloudwatch Log subscription message',
      source: `parse_aws_cloudwatch_log_subscription_message!(s'{
    "messageType": "DATA_MESSAGE",
    "owner": "111111111111",
    "logGroup": "test",
    "logStream": "test",
    "subscriptionFilters": [
        "Destination"
    ],
    "logEvents": [
        {
            "id": "35683658089614582423604394983260738922885519999578275840",
            "timestamp": 1600110569039,
            "message": "{\\"bytes\\":26780,\\"datetime\\":\\"14/Sep/2020:11:45:41-0400\\",\\"host\\":\\"157.130.216.193\\",\\"method\\":\\"PUT\\",\\"protocol\\":\\"HTTP/1.0\\",\\"referer\\":\\"https://www.principalcross-platform.io/markets/ubiquitous\\",\\"request\\":\\"/expedite/convergence\\",\\"source_type\\":\\"stdin\\",\\"status\\":301,\\"user-identifier\\":\\"-\\"}"
        }
    ]
}')
`,
      returns:
        '{ "log_events": [{ "id": "35683658089614582423604394983260738922885519999578275840", "message": "{\\"bytes\\":26780,\\"datetime\\":\\"14/Sep/2020:11:45:41-0400\\",\\"host\\":\\"157.130.216.193\\",\\"method\\":\\"PUT\\",\\"protocol\\":\\"HTTP/1.0\\",\\"referer\\":\\"https://www.principalcross-platform.io/markets/ubiquitous\\",\\"request\\":\\"/expedite/convergence\\",\\"source_type\\":\\"stdin\\",\\"status\\":301,\\"user-identifier\\":\\"-\\"}", "timestamp": "2020-09-14T19:09:29.039Z" }], "log_group": "test", "log_stream": "test", "message_type": "DATA_MESSAGE", "owner": "111111111111", "subscription_filters": ["Destination"] }',
    },
  ],
});
