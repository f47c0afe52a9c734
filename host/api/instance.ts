// The API of a running service: its context read from the built pipeline, started when `api.enabled`.

import { EventEmitter } from 'node:events';
import type { BuiltPipeline } from '../pipeline.js';
import { hostName } from '../pipeline.js';
import type { Logger } from '../log.js';
import type { ApiComponent, ApiContext } from './context.js';
import { startApi, type ApiServer } from './server.js';
import { servesPlayground } from './playground.js';

export { ApiStartError } from './server.js';

function apiContext(built: BuiltPipeline, version: string): ApiContext {
  const { graph, topology, metrics } = built;
  const components: ApiComponent[] = [...graph.components.values()].map((spec) => {
    const ports = graph.ports.get(spec.id) ?? [];
    return {
      id: spec.id,
      kind: spec.kind,
      type: spec.type,
      outputs: ports.flatMap((port) => (port.name === undefined ? [] : [port.name])),
      defaultOutput: ports.some((port) => port.name === undefined),
      outputTypes: [...new Set(ports.flatMap((port) => port.kinds))],
      inputs: [...new Set(graph.edges.filter((edge) => edge.to === spec.id).map((edge) => edge.from))],
    };
  });
  return {
    version,
    hostname: hostName(),
    startedAt: Date.now(),
    components: () => components,
    metrics,
    // The service does not reload its configuration yet: the running topology never changes.
    componentChanges: new EventEmitter(),
    tap: topology.tap,
    running: () => !topology.stopping,
  };
}

/** Starts the API of `built` (its configuration enables it); logs where it listens. Rejects with
 * ApiStartError. */
export async function startInstanceApi(built: BuiltPipeline, version: string, log: Logger): Promise<ApiServer> {
  const options = built.config.global.api;
  const server = await startApi(options, apiContext(built, version), log.child('svc::api'));
  const { address, port, family } = server.address;
  const hostPort = `${family === 'IPv6' ? `[${address}]` : address}:${port}`;
  const base = `http://${hostPort}`;
  log.info('API server running.', {
    address: hostPort,
    graphql: options.graphql ? `${base}/graphql` : 'disabled',
    playground: servesPlayground(options) ? `${base}/playground` : 'disabled',
  });
  return server;
}
