// reverse_dns(value): the host name of an IP address, from the system's resolver (the hosts file, then
// DNS) through the instance's I/O service.

import { isIP } from 'node:net';
import type { JsFunction } from '../imports.js';
import { IO_TIMEOUT_MS } from '../blocking-io.js';
import { stringArg } from './support/args.js';

export const reverse_dns: JsFunction = ([value], context) => {
  const address = stringArg(value!);
  if (isIP(address) === 0) throw new Error('unable to parse IP address: invalid IP address syntax');
  const reply = context.io.run({ op: 'reverse_dns', address }, IO_TIMEOUT_MS);
  if (!reply.ok) throw new Error(`unable to perform a lookup: ${reply.error}`);
  return reply.value;
};
