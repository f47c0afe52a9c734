// What the `redis` source and sink share: a connection of node-redis (the `redis` package) to the server
// of a `redis://` URL. The client reconnects by itself; a first connection that fails fails the component's
// build, naming the server.

import type { Logger } from '../../log.js';

/** The client's type, without loading the library at start-up. */
export type RedisClient = ReturnType<typeof import('redis').createClient>;

/** Connects to `url`; rejects with a message naming it. */
export async function redisConnect(url: string, log: Logger): Promise<RedisClient> {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  let connected = false;
  client.on('error', (error: Error) => {
    if (connected) log.warn(`Redis connection error: ${error.message}`);
  });
  client.on('reconnecting', () => {
    if (connected) log.info('Reconnecting to Redis.');
  });
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        client.once('error', reject);
      }),
    ]);
  } catch (error) {
    client.destroy();
    throw new Error(`could not connect to Redis at ${url}: ${(error as Error).message}`);
  }
  connected = true;
  return client;
}

/** Closes a client: its pending commands answered first, destroyed if that fails. */
export async function redisClose(client: RedisClient): Promise<void> {
  if (!client.isOpen) return;
  await client.close().catch(() => client.destroy());
}

/** The field of a stream entry that holds the encoded event. */
export const STREAM_FIELD = 'message';
