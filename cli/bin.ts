#!/usr/bin/env node
// The `svc` executable: a service run's workers start booting, then the CLI loads (cli/main.ts).

import { startEarlyWorkers } from './early-worker.js';

startEarlyWorkers(process.argv.slice(2), process.env);
await import('./main.js');
