// The API of a running service: its context read from the built pipeline, started when `api.enabled`.

import { EventEmitter } from 'node:events';
import type { BuiltPipeline, ReloadChanges } from '../pipeline.js';
import type { ComponentSpec, Graph } from '../topology/graph.js';
import { hostName } from '../pipeline.js';
import type { Logger } from '../log.js';
import type { ApiComponent, ApiContext } from './context.js';
import type { ApiOptions } from '../config/global.js';
import { startApi, type ApiServer } from './server.js';
import { servesPlayground } from './playground.js';

export { ApiStartError } from './server.js';

/** The API's view of a component of the graph. */
function apiComponent(graph: Graph, spec: ComponentSpec): ApiComponent {
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
}

/** The API's context of the running pipeline: its components follow the topology through reloads. */
export function instanceApiContext(built: BuiltPipeline, version: string): ApiContext {
  const { topology, metrics } = built;
  let seen: { graph: Graph; components: ApiComponent[] } | undefined;
  return {
    version,
    hostname: hostName(),
    startedAt: Date.now(),
    components: () => {
      const graph = topology.graph;
      if (seen?.graph !== graph)
        seen = { graph, components: [...graph.components.values()].map((spec) => apiComponent(graph, spec)) };
      return seen.components;
    },
    metrics,
    componentChanges: new EventEmitter(),
    tap: topology.tap,
    running: () => !topology.stopping,
  };
}

/** Tells the API's subscribers what a reload added and removed (`old`: the graph before it). */
export function announceReload(context: ApiContext, old: Graph, changes: ReloadChanges, graph: Graph): void {
  for (const spec of changes.removed)
    context.componentChanges.emit('change', { change: 'removed', component: apiComponent(old, spec) });
  for (const spec of changes.added)
    context.componentChanges.emit('change', { change: 'added', component: apiComponent(graph, spec) });
}

/** Starts the API on `context` with `options` (the configuration's `api`, enabled); logs where it listens.
 * Rejects with ApiStartError. */
export async function startInstanceApi(options: ApiOptions, context: ApiContext, log: Logger): Promise<ApiServer> {
  const server = await startApi(options, context, log.child('svc::api'));
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
