// `syslog`: RFC 5424 and RFC 3164 messages over TCP (octet counting, or newline delimited when a frame does
// not start with a length), UDP (one message per datagram) or a Unix stream socket, parsed by the syslog
// decoder into Vector's fields (appname, facility, hostname, message, msgid, procid, severity, timestamp,
// version, structured data by id), plus `source_ip` (the peer) and under `host_key` the message's hostname,
// else the peer. In Vector's log namespace the message is the event and the rest is in `%syslog` (structured
// data under `%syslog.structured_data`, the peer in `%syslog.host` and `%syslog.source_ip`). Over TCP, `tls`
// makes it a TLS server (support/tls.ts).

import { z } from 'zod';
import type { SourceDefinition } from '../component.js';
import {
  BYTES_FRAMING,
  logNamespaceOf,
  logNamespaceOption,
  SourceDecoder,
  sourceStamp,
  stampSource,
  type DecodeSettings,
} from '../support/decoding.js';
import type { LogNamespace } from '../../../runtime/engine.js';
import { datagramListener, streamListener, tcpListen, type Peer } from '../support/listeners.js';
import { tlsFiles, tlsSourceSchema } from '../support/tls.js';
import type { ComponentEnv } from '../component.js';

const common = {
  host_key: z.string().optional(),
  max_length: z.number().int().positive().default(102400),
  log_namespace: logNamespaceOption,
};
const ip = { address: z.string(), receive_buffer_bytes: z.number().int().positive().optional() };

const options = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('tcp'),
    ...common,
    ...ip,
    connection_limit: z.number().int().positive().optional(),
    keepalive: z.strictObject({ time_secs: z.number().int().positive().optional() }).optional(),
    max_connection_duration_secs: z.number().int().nonnegative().optional(),
    tls: tlsSourceSchema.optional(),
  }),
  z.strictObject({ mode: z.literal('udp'), ...common, ...ip }),
  z.strictObject({
    mode: z.literal('unix'),
    ...common,
    path: z.string().min(1),
    socket_file_mode: z.number().int().min(0).max(0o7777).optional(),
  }),
]);
type SyslogOptions = z.infer<typeof options>;

/** Vector's graceful shutdown window for syslog TCP connections (it has no option for it). */
const SHUTDOWN_TIMEOUT_SECS = 30;

/** `hostKey`: where the message's hostname goes (the peer's address when it has none, through the stamp), in
 * the legacy namespace. */
function settings(
  framing: DecodeSettings['framing'],
  env: ComponentEnv,
  hostKey: string,
  logNamespace: LogNamespace,
): DecodeSettings {
  return {
    framing,
    codec: 'syslog',
    lossy: true,
    messageKey: env.globals.log_schema.message_key || 'message',
    hostnameKey: (logNamespace === 'legacy' && hostKey) || undefined,
    logNamespace,
    syslogSource: true,
  };
}

const definition: SourceDefinition<SyslogOptions> = {
  kind: 'source',
  type: 'syslog',
  description: 'Collect logs sent via Syslog.',
  options,
  files: (options) => (options.mode === 'tcp' ? tlsFiles(options.tls) : []),
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  async build(options, env) {
    const origin = { sourceType: 'syslog', logNamespace: logNamespaceOf(env, options.log_namespace) };
    const stamp = (peer: Peer) =>
      stampSource(
        sourceStamp(env, origin, options.host_key, peer.address),
        origin,
        'source_ip',
        ['source_ip'],
        peer.address,
      );
    const hostKey = options.host_key ?? env.globals.log_schema.host_key;
    switch (options.mode) {
      case 'tcp': {
        const decoder = new SourceDecoder(
          env,
          settings({ method: 'octet_counting', max_length: options.max_length }, env, hostKey, origin.logNamespace),
        );
        return streamListener(await tcpListen(options, origin), decoder, env, stamp, SHUTDOWN_TIMEOUT_SECS);
      }
      case 'unix': {
        const decoder = new SourceDecoder(
          env,
          settings({ method: 'octet_counting', max_length: options.max_length }, env, hostKey, origin.logNamespace),
        );
        return streamListener(
          { kind: 'unix', path: options.path, socketFileMode: options.socket_file_mode },
          decoder,
          env,
          stamp,
          0,
        );
      }
      case 'udp': {
        const decoder = new SourceDecoder(env, settings(BYTES_FRAMING, env, hostKey, origin.logNamespace));
        return datagramListener(options.address, decoder, env, stamp, {
          maxLength: options.max_length,
          receiveBufferBytes: options.receive_buffer_bytes,
        });
      }
    }
  },
};

export default definition;
