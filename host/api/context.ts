// What the management API reads from the running instance. The service builds one per run; resolvers get
// it as their GraphQL context.

import type { EventEmitter } from 'node:events';
import type { ComponentKind } from '../components/component.js';
import type { EventKind } from '../topology/batch.js';
import type { MetricsRegistry } from '../telemetry/metrics.js';
import type { TapHub } from '../topology/tap.js';

export interface ApiComponent {
  id: string;
  kind: ComponentKind;
  /** The component's type (`remap`, `stdin`…). */
  type: string;
  /** Named output ports; the default output is not listed. */
  outputs: readonly string[];
  /** Whether it has a default output (sources and transforms but `route`). */
  defaultOutput: boolean;
  /** Event kinds that can leave it, through any output. */
  outputTypes: readonly EventKind[];
  /** Ids of the components feeding this one (transforms and sinks). */
  inputs: readonly string[];
}

/** A component added to or removed from the running topology. */
export interface ComponentChange {
  change: 'added' | 'removed';
  component: ApiComponent;
}

export interface ApiContext {
  version: string;
  hostname: string;
  /** When the instance started, in ms since the epoch. */
  startedAt: number;
  /** The components of the running topology. */
  components(): readonly ApiComponent[];
  metrics: MetricsRegistry;
  /** Emits 'change' with a ComponentChange as the topology changes (`components()` already changed). */
  componentChanges: EventEmitter<{ change: [ComponentChange] }>;
  /** Where taps attach to the running topology. */
  tap: TapHub;
  /** False once the instance drains on shutdown. */
  running(): boolean;
}
