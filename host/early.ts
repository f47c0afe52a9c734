// The host's light entry, for what the CLI uses before it loads the pipeline (./index.ts): the service's log,
// and the transform worker threads, which boot while this thread loads the pipeline and its configuration.

export { LogHub } from './log.js';
export { WorkerThread } from './topology/executor.js';
