#!/usr/bin/env node
// The `svc` executable: a service run's workers (or those of `svc vrl` on a large file) start booting, then
// the CLI loads (cli/main.ts).

import { startEarlyWorkers } from './early-worker.js';
import { startEarlyVrlWorkers } from './vrl-threads.js';

startEarlyWorkers(process.argv.slice(2), process.env);
startEarlyVrlWorkers(process.argv.slice(2));
await import('./main.js');
