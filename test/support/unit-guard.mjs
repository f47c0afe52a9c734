// Preloaded into every unit test file by test/run.mjs (`node --import`): starting a process or listening
// on a port or socket throws, so a file that does either cannot pass as a unit test without being listed
// as an integration test (INTEGRATION in test/run.mjs).
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const refuse = (what) => () => {
  throw new Error(`a unit test must not ${what}: list its file in INTEGRATION in test/run.mjs`);
};

const childProcess = require('node:child_process');
for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'])
  childProcess[name] = refuse('start a process');
require('node:net').Server.prototype.listen = refuse('listen on a port or socket');
require('node:dgram').Socket.prototype.bind = refuse('listen on a port or socket');
// ES module imports of node:child_process see the replaced functions.
syncBuiltinESMExports();
