// health, meta, heartbeat and uptime.

import type { ApiContext } from '../context.js';
import type { Resolvers } from '../schema.js';
import { every } from '../streams.js';

/** The schema's `Uptime` now (also the `metrics` subscription's values). */
export function uptime(context: ApiContext): { timestamp: string; seconds: number } {
  return { timestamp: new Date(context.startedAt).toISOString(), seconds: (Date.now() - context.startedAt) / 1000 };
}

export const coreResolvers: Resolvers = {
  Query: {
    health: (_parent, _args, context) => context.running(),
    meta: (_parent, _args, context) => ({ versionString: context.version, hostname: context.hostname }),
  },
  Subscription: {
    heartbeat: {
      subscribe: (_parent, { interval }: { interval: number }) =>
        every(interval, () => ({ utc: new Date().toISOString() })),
    },
    uptime: {
      subscribe: (_parent, { interval }: { interval: number }, context) => every(interval, () => uptime(context)),
    },
  },
};
