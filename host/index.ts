// The pipeline's entry for the CLI's commands other than the service (cli/ loads it only for the commands
// that need the pipeline: it is most of svc's code). The service loads ./service.ts alone, without what
// only these commands use; what the CLI needs before either is in ./early.ts.

export { componentTypes } from './components/registry.js';
export { ConfigError } from './config/errors.js';
export { formatOfPath, type ConfigFormat, type ConfigLocations } from './config/load.js';
export { redactSecrets } from './config/redaction.js';
export type { ComponentKind } from './config/schema.js';
export { GENERATE_FORMATS, GenerateError, generateConfig } from './generate.js';
export { GRAPH_FORMATS, graphDot, graphMermaid, type GraphFormat } from './graph-dot.js';
export { EXIT, loadPipelineConfig, pipelineGraph } from './pipeline.js';
export { UnitTests } from './unit-tests.js';
export { validate } from './validate.js';
