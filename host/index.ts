// The pipeline's entry, for the CLI (cli/ loads it only for the commands that need the pipeline: it is most
// of svc's code). What the CLI needs before it loads this is in ./early.ts.

export { componentRegistry } from './components/registry.js';
export { ConfigError } from './config/errors.js';
export { formatOfPath, type ConfigFormat, type ConfigLocations } from './config/load.js';
export type { ComponentKind } from './config/schema.js';
export { GENERATE_FORMATS, GenerateError, generateConfig } from './generate.js';
export { GRAPH_FORMATS, graphDot, graphMermaid, type GraphFormat } from './graph-dot.js';
export { EXIT, loadPipelineConfig, pipelineGraph } from './pipeline.js';
export { runService } from './service.js';
export { UnitTests } from './unit-tests.js';
export { validate } from './validate.js';
