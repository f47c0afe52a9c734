// What the `nats` source and sink share (Vector's src/nats.rs): `url` (one server or a comma-separated list),
// `connection_name`, `auth` (user and password, token, a credentials file or an nkey) and `tls`, turned into
// a connection of the official NATS client for Node. The client reconnects by itself; a first connection
// that fails fails the component's build, naming the servers.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ConnectionOptions as NatsConnectionOptions, NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../../log.js';
import { clientTlsOptions, tlsEnableableSchema, tlsFiles } from './tls.js';

const natsAuthSchema = z.discriminatedUnion('strategy', [
  z.strictObject({
    strategy: z.literal('user_password'),
    user_password: z.strictObject({ user: z.string(), password: z.string() }),
  }),
  z.strictObject({ strategy: z.literal('token'), token: z.strictObject({ value: z.string() }) }),
  z.strictObject({ strategy: z.literal('credentials_file'), credentials_file: z.strictObject({ path: z.string() }) }),
  z.strictObject({ strategy: z.literal('nkey'), nkey: z.strictObject({ nkey: z.string(), seed: z.string() }) }),
]);

/** The options of both components that say where and how to connect. */
export const natsConnectionFields = {
  url: z.string().min(1),
  auth: natsAuthSchema.optional(),
  tls: tlsEnableableSchema.optional(),
};

export interface NatsConnectionConfig {
  url: string;
  connection_name: string;
  auth?: z.output<typeof natsAuthSchema>;
  tls?: z.output<typeof tlsEnableableSchema>;
}

/** Files a connection reads when built: a reload rebuilds the component when one changed. */
export function natsFiles(config: Pick<NatsConnectionConfig, 'auth' | 'tls'>): string[] {
  return [
    ...tlsFiles(config.tls),
    ...(config.auth?.strategy === 'credentials_file' ? [config.auth.credentials_file.path] : []),
  ];
}

/** The servers of `url`: `nats://host:port`, several separated by commas. */
function servers(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}

async function authOptions(
  auth: NatsConnectionConfig['auth'],
  core: typeof import('@nats-io/transport-node'),
): Promise<Partial<NatsConnectionOptions>> {
  switch (auth?.strategy) {
    case undefined:
      return {};
    case 'user_password':
      return { user: auth.user_password.user, pass: auth.user_password.password };
    case 'token':
      return { token: auth.token.value };
    case 'credentials_file': {
      const path = auth.credentials_file.path;
      const creds = await readFile(path).catch((error: Error) => {
        throw new Error(`auth.credentials_file.path: cannot read "${path}": ${error.message}`);
      });
      return { authenticator: core.credsAuthenticator(creds) };
    }
    case 'nkey':
      return { authenticator: core.nkeyAuthenticator(new TextEncoder().encode(auth.nkey.seed)) };
  }
}

/** Connects as `config` says; rejects with a message naming the servers (or the option at fault). */
export async function natsConnect(config: NatsConnectionConfig, log: Logger): Promise<NatsConnection> {
  const core = await import('@nats-io/transport-node');
  const list = servers(config.url);
  const tls = config.tls?.enabled ? await clientTlsOptions(config.tls, log) : undefined;
  let connection: NatsConnection;
  try {
    connection = await core.connect({
      servers: list,
      name: config.connection_name,
      ...(await authOptions(config.auth, core)),
      // The Node transport hands these on to `tls.connect`: Node's options, as support/tls.ts makes them.
      ...(tls && { tls: tls as NatsConnectionOptions['tls'] }),
      // Reconnect for as long as the component runs, as Vector's client does.
      maxReconnectAttempts: -1,
      // Otherwise every request (a JetStream publish, a pull, an ack) builds two errors with stack traces up
      // front in case it fails: two thirds of a JetStream sink's CPU. Failures still carry their message.
      noAsyncTraces: true,
    });
  } catch (error) {
    throw new Error(`could not connect to NATS at ${list.join(', ')}: ${(error as Error).message}`);
  }
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') log.warn(`Disconnected from NATS server ${status.server}.`);
      else if (status.type === 'reconnect') log.info(`Reconnected to NATS server ${status.server}.`);
    }
  })();
  return connection;
}
