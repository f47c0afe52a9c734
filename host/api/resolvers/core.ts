// health, meta, heartbeat and uptime.

import type { Resolvers } from '../schema.js';
import { every } from '../streams.js';

export const coreResolvers: Resolvers = {
  Query: {
    health: (_parent, _args, context) => context.running(),
    meta: (_parent, _args, context) => ({ versionString: context.version, hostname: context.hostname }),
  },
  Subscription: {
    heartbeat: { subscribe: (_parent, { interval }: { interval: number }) => every(interval, () => ({ utc: new Date().toISOString() })) },
    uptime: {
      subscribe: (_parent, { interval }: { interval: number }, context) =>
        every(interval, () => ({ timestamp: new Date(context.startedAt).toISOString(), seconds: (Date.now() - context.startedAt) / 1000 })),
    },
  },
};
