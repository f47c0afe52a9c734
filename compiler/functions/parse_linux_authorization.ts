import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { SYSLOG } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_linux_authorization',
  category: 'Parse',
  description: 'Parses a line of a Linux authorization log (the syslog format that `/var/log/auth.log` uses).',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: SYSLOG,
  examples: [
    {
      title: 'Parse Linux authorization event',
      source: `parse_linux_authorization!(
    s'Mar 23 01:49:58 localhost sshd[1111]: Accepted publickey for eng from 10.1.1.1 port 8888 ssh2: RSA SHA256:foobar'
)
`,
      returns:
        '{ "appname": "sshd", "hostname": "localhost", "message": "Accepted publickey for eng from 10.1.1.1 port 8888 ssh2: RSA SHA256:foobar", "procid": 1111, "timestamp": "2026-03-23T01:49:58Z" }',
    },
  ],
});
