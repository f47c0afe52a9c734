// hostMetrics: the host's memory, swap, CPU, load, network, filesystems and disks, read per query.

import { hostMetrics, hostRoots } from '../host-metrics.js';
import type { Resolvers } from '../schema.js';

export const hostResolvers: Resolvers = {
  Query: {
    hostMetrics: () => hostMetrics(hostRoots(process.env)),
  },
};
