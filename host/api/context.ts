// What the management API reads from the running instance. The service builds one per run; resolvers get
// it as their GraphQL context.

import type { ComponentKind } from '../components/component.js';
import type { MetricsRegistry } from '../telemetry/metrics.js';

export interface ApiComponent {
  id: string;
  kind: ComponentKind;
  /** The component's type (`remap`, `stdin`…). */
  type: string;
  /** Named output ports; the default output is not listed. */
  outputs: readonly string[];
  /** Ids of the components feeding this one (transforms and sinks). */
  inputs: readonly string[];
}

export interface ApiContext {
  version: string;
  hostname: string;
  /** When the instance started, in ms since the epoch. */
  startedAt: number;
  /** The components of the running topology. */
  components(): readonly ApiComponent[];
  metrics: MetricsRegistry;
  /** False once the instance drains on shutdown. */
  running(): boolean;
}
