// The hostMetrics query: the machine's memory, swap, CPU, load, network, filesystems and disks, read per query.

import { machineMetrics, machineRoots } from '../machine-metrics.js';
import type { Resolvers } from '../schema.js';

export const machineResolvers: Resolvers = {
  Query: {
    hostMetrics: () => machineMetrics(machineRoots(process.env)),
  },
};
