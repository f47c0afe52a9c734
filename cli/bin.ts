#!/usr/bin/env node
// The `svc` executable: a service run's first worker starts booting, then the CLI loads (cli/main.ts).

import { startEarlyWorker } from './early-worker.js';

startEarlyWorker(process.argv.slice(2));
await import('./main.js');
