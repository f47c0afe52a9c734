import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { SYSLOG } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_syslog',
  category: 'Parse',
  description:
    'Parses a syslog message in RFC 5424 or RFC 3164 form into its header fields and message; structured data elements become nested objects keyed by their id.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: SYSLOG,
  examples: [
    {
      title: 'Parse Syslog log (5424)',
      source:
        'parse_syslog!(s\'<13>1 2020-03-13T20:45:38.119Z dynamicwireless.name non 2426 ID931 [exampleSDID@32473 iut="3" eventSource= "Application" eventID="1011"] Try to override the THX port, maybe it will reboot the neural interface!\')',
      returns:
        '{ "appname": "non", "exampleSDID@32473": { "eventID": "1011", "eventSource": "Application", "iut": "3" }, "facility": "user", "hostname": "dynamicwireless.name", "message": "Try to override the THX port, maybe it will reboot the neural interface!", "msgid": "ID931", "procid": 2426, "severity": "notice", "timestamp": "2020-03-13T20:45:38.119Z", "version": 1 }',
    },
  ],
});
