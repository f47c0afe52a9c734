// Scale-out through a Redis Stream (scale-out.ts): the agent adds entries with the redis sink (`data_type:
// stream`) and the two aggregators read them in one consumer group. Also says how many entries the group left
// unacknowledged. Used small by test/host/components/sources/redis-kill.test.ts.

import { createClient } from 'redis';
import { startRedisServer } from './redis-server.js';
import { runScaleOutThrough, type ScaleOutOptions, type ScaleOutOutcome } from './scale-out.js';

/** `claimIdleMs`: how long an entry stays pending before another consumer claims it (`stream.claim_idle_ms`). */
export async function runRedisScaleOut(
  options: ScaleOutOptions & { claimIdleMs?: number },
): Promise<ScaleOutOutcome & { pending: number }> {
  const claimIdleMs = options.claimIdleMs ?? 5000;
  const server = await startRedisServer();
  try {
    const outcome = await runScaleOutThrough(
      {
        sink: `type: redis
endpoint: ${server.url}
key: lines
data_type: stream
encoding: { codec: text }`,
        source: (name) => `type: redis
url: ${server.url}
key: lines
data_type: stream
stream: { group: aggregators, consumer: aggregator-${name}, claim_idle_ms: ${claimIdleMs} }`,
        settleMs: claimIdleMs,
      },
      options,
    );
    const client = createClient({ url: server.url });
    await client.connect();
    const pending = Number(((await client.sendCommand(['XPENDING', 'lines', 'aggregators'])) as unknown[])[0]);
    await client.close();
    return { ...outcome, pending };
  } finally {
    await server.stop();
  }
}
