// The components of the running topology (Vector's `components`, `sources`, `transforms`, `sinks` and
// `componentByComponentKey`): Relay connections with Vector's filters and sorts, and the Source, Transform
// and Sink types with their outputs, metrics and neighbours. Without a sort, components come by id (Vector's
// order is its hash map's); the neighbour lists are by id too.

import { on } from 'node:events';
import { GraphQLError } from 'graphql';
import type { ComponentKind } from '../../components/component.js';
import type { ApiComponent, ApiContext, ComponentChange } from '../context.js';
import type { FieldResolver, Resolvers } from '../schema.js';
import { DEFAULT_OUTPUT_TAG } from '../../telemetry/component.js';
import { compare, componentSamples, metric, metricValue, sumsBy, type MetricField } from './metrics.js';

const TYPENAMES = { source: 'Source', transform: 'Transform', sink: 'Sink' } as const;

/** A component as the value of the schema's Component interface. */
interface ComponentNode extends ApiComponent {
  __typename: (typeof TYPENAMES)[ComponentKind];
}

function componentNode(component: ApiComponent): ComponentNode {
  return { ...component, __typename: TYPENAMES[component.kind] };
}

function byId(a: ApiComponent, b: ApiComponent): number {
  return compare(a.id, b.id);
}

function components(context: ApiContext, kind?: ComponentKind): ComponentNode[] {
  return context
    .components()
    .filter((component) => kind === undefined || component.kind === kind)
    .map(componentNode)
    .sort(byId);
}

// ---- filters (Vector's api/schema/filter.rs) ---------------------------------------------------------

interface StringFilter {
  equals?: string | null;
  notEquals?: string | null;
  contains?: string | null;
  notContains?: string | null;
  startsWith?: string | null;
  endsWith?: string | null;
}

interface KindFilter {
  equals?: string | null;
  notEquals?: string | null;
}

interface OutputTypeFilter {
  equals?: string[] | null;
  notEquals?: string[] | null;
  contains?: string | null;
  notContains?: string | null;
}

/** ComponentsFilter, SourcesFilter, TransformsFilter and SinksFilter: each has some of these fields. */
interface ComponentFilter {
  componentId?: StringFilter[] | null;
  componentType?: StringFilter[] | null;
  componentKind?: KindFilter[] | null;
  outputType?: OutputTypeFilter[] | null;
  or?: ComponentFilter[] | null;
}

function stringMatches(filter: StringFilter, value: string): boolean {
  return (
    (filter.equals == null || value === filter.equals) &&
    (filter.notEquals == null || value !== filter.notEquals) &&
    (filter.contains == null || value.includes(filter.contains)) &&
    (filter.notContains == null || !value.includes(filter.notContains)) &&
    (filter.startsWith == null || value.startsWith(filter.startsWith)) &&
    (filter.endsWith == null || value.endsWith(filter.endsWith))
  );
}

/** The schema's names of a source's output types, in Vector's order. */
function outputTypes(component: ApiComponent): string[] {
  return (['log', 'metric', 'trace'] as const)
    .filter((kind) => component.outputTypes.includes(kind))
    .map((kind) => kind.toUpperCase());
}

/** Vector compares the sets of output types. */
function outputTypesMatch(filter: OutputTypeFilter, types: readonly string[]): boolean {
  const sameSet = (other: readonly string[]) =>
    new Set(other).size === types.length && other.every((type) => types.includes(type));
  return (
    (filter.equals == null || sameSet(filter.equals)) &&
    (filter.notEquals == null || !sameSet(filter.notEquals)) &&
    (filter.contains == null || types.includes(filter.contains)) &&
    (filter.notContains == null || !types.includes(filter.notContains))
  );
}

/** Every condition of the filter holds (each list: all its entries), or one of its `or` filters matches. */
function filterMatches(filter: ComponentFilter, component: ApiComponent): boolean {
  const all = <T>(filters: T[] | null | undefined, holds: (filter: T) => boolean) => (filters ?? []).every(holds);
  const own =
    all(filter.componentId, (f) => stringMatches(f, component.id)) &&
    all(filter.componentType, (f) => stringMatches(f, component.type)) &&
    all(
      filter.componentKind,
      (f) =>
        (f.equals == null || f.equals === component.kind.toUpperCase()) &&
        (f.notEquals == null || f.notEquals !== component.kind.toUpperCase()),
    ) &&
    all(filter.outputType, (f) => outputTypesMatch(f, outputTypes(component)));
  return own || (filter.or ?? []).some((alternative) => filterMatches(alternative, component));
}

// ---- sorts (Vector's api/schema/sort.rs) -------------------------------------------------------------

interface SortField {
  field: 'COMPONENT_KEY' | 'COMPONENT_KIND' | 'COMPONENT_TYPE' | 'OUTPUT_TYPE';
  direction: 'ASC' | 'DESC';
}

const KIND_ORDER: Record<ComponentKind, number> = { source: 0, transform: 1, sink: 2 };

/** What each sort field compares; output types compare as lists in Vector's order of types. */
const SORT_KEYS: Record<SortField['field'], (component: ApiComponent) => string | number> = {
  COMPONENT_KEY: (component) => component.id,
  COMPONENT_KIND: (component) => KIND_ORDER[component.kind],
  COMPONENT_TYPE: (component) => component.type,
  OUTPUT_TYPE: (component) =>
    outputTypes(component)
      .map((type) => 'LMT'.indexOf(type[0]!))
      .join(','),
};

/** Sorted by the first field, ties by the next ones; stable, so remaining ties keep the id order. */
function sortBy<T extends ApiComponent>(items: T[], fields: readonly SortField[] | null | undefined): T[] {
  if (!fields?.length) return items;
  return items.sort((a, b) => {
    for (const { field, direction } of fields) {
      const order = compare(SORT_KEYS[field](a), SORT_KEYS[field](b));
      if (order !== 0) return direction === 'DESC' ? -order : order;
    }
    return 0;
  });
}

// ---- Relay connections (Vector's api/schema/relay.rs) ------------------------------------------------

interface PageArgs {
  after?: string | null;
  before?: string | null;
  first?: number | null;
  last?: number | null;
}

/** Vector's cursors: `Cursor:<index>` in URL-safe base64 without padding. */
function cursor(index: number): string {
  return Buffer.from(`Cursor:${index}`).toString('base64url');
}

function cursorIndex(text: string, argument: string): number {
  const index = /^Cursor:(\d+)$/.exec(Buffer.from(text, 'base64url').toString())?.[1];
  if (index === undefined || cursor(Number(index)) !== text)
    throw new GraphQLError(`"${argument}" is not a cursor of this connection: "${text}"`);
  return Number(index);
}

function pageSize(value: number | null | undefined, argument: string): number | undefined {
  if (value == null) return undefined;
  if (value < 0) throw new GraphQLError(`The "${argument}" parameter must be a non-negative number`);
  return value;
}

/** A page of `items` (all of them without `first` or `last`). */
function connection<T>(items: readonly T[], args: PageArgs) {
  const first = pageSize(args.first, 'first');
  const last = pageSize(args.last, 'last');
  if (first !== undefined && last !== undefined)
    throw new GraphQLError('The "first" and "last" parameters cannot exist at the same time');
  const after = args.after == null ? 0 : cursorIndex(args.after, 'after') + 1;
  const before = Math.min(args.before == null ? items.length : cursorIndex(args.before, 'before'), items.length);
  const start = last === undefined ? after : Math.max(before - last, after);
  const end = first === undefined ? before : Math.min(after + first, before);
  const edges = items.slice(start, Math.max(start, end)).map((node, i) => ({ cursor: cursor(start + i), node }));
  return {
    pageInfo: {
      hasPreviousPage: start > 0,
      hasNextPage: end < items.length,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    edges,
    nodes: edges.map((edge) => edge.node),
    totalCount: items.length,
  };
}

type ListArgs = PageArgs & { filter?: ComponentFilter | null; sort?: SortField[] | null };

function listed(kind?: ComponentKind): FieldResolver {
  return (_parent, args: ListArgs, context: ApiContext) => {
    const matching = components(context, kind).filter(
      (component) => args.filter == null || filterMatches(args.filter, component),
    );
    return connection(sortBy(matching, args.sort), args);
  };
}

// ---- the component types -----------------------------------------------------------------------------

/** The outputs as Vector names them: the default one `_default`, then the named ones. */
const outputs: FieldResolver = (component: ApiComponent, _args, context: ApiContext) => {
  const sent = sumsBy(componentSamples(context, component.id), 'sentEventsTotal', (sample) => sample.tags.output);
  return [...(component.defaultOutput ? [DEFAULT_OUTPUT_TAG] : []), ...component.outputs].map((outputId) => {
    const total = sent.get(outputId);
    return { outputId, sentEventsTotal: total === undefined ? null : metricValue('sentEventsTotal', total) };
  });
};

/** The component's metrics as the schema's `typename`: the sum of each of `fields` (null without a series). */
function componentMetrics(typename: string, fields: readonly MetricField[]): FieldResolver {
  return (component: ApiComponent, _args, context: ApiContext) => {
    const samples = componentSamples(context, component.id);
    return Object.fromEntries([['__typename', typename], ...fields.map((field) => [field, metric(samples, field)])]);
  };
}

/** Components of `kind` that `component` feeds. */
function consumers(kind: ComponentKind): FieldResolver {
  return (component: ApiComponent, _args, context: ApiContext) =>
    components(context, kind).filter((other) => other.inputs.includes(component.id));
}

/** Components of `kind` that feed `component`. */
function producers(kind: ComponentKind): FieldResolver {
  return (component: ApiComponent, _args, context: ApiContext) =>
    components(context, kind).filter((other) => component.inputs.includes(other.id));
}

/** The components of each `change` of the topology as it happens. Its `return` removes the listener at once
 * (an async generator's would wait for the next change). */
function componentChanges(context: ApiContext, change: ComponentChange['change']): AsyncIterable<ComponentNode> {
  return {
    [Symbol.asyncIterator]() {
      const changes = on(context.componentChanges, 'change') as AsyncIterator<[ComponentChange]>;
      return {
        async next(): Promise<IteratorResult<ComponentNode>> {
          for (;;) {
            const result = await changes.next();
            if (result.done) return { done: true, value: undefined };
            const [event] = result.value;
            if (event.change === change) return { done: false, value: componentNode(event.component) };
          }
        },
        async return(): Promise<IteratorResult<ComponentNode>> {
          await changes.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

const componentFields: Record<string, FieldResolver> = {
  componentId: (component: ApiComponent) => component.id,
  componentType: (component: ApiComponent) => component.type,
};

export const componentsResolvers: Resolvers = {
  Query: {
    components: listed(),
    sources: listed('source'),
    transforms: listed('transform'),
    sinks: listed('sink'),
    componentByComponentKey: (_parent, { componentId }: { componentId: string }, context: ApiContext) =>
      components(context).find((component) => component.id === componentId) ?? null,
  },
  Source: {
    ...componentFields,
    outputTypes: (component: ApiComponent) => outputTypes(component),
    outputs,
    transforms: consumers('transform'),
    sinks: consumers('sink'),
    // FileSourceMetrics would list per-file counters, which the file source does not keep.
    metrics: componentMetrics('GenericSourceMetrics', ['receivedBytesTotal', 'receivedEventsTotal', 'sentEventsTotal']),
  },
  Transform: {
    ...componentFields,
    outputs,
    sources: producers('source'),
    transforms: consumers('transform'),
    sinks: consumers('sink'),
    metrics: componentMetrics('GenericTransformMetrics', ['receivedEventsTotal', 'sentEventsTotal']),
  },
  Sink: {
    ...componentFields,
    sources: producers('source'),
    transforms: producers('transform'),
    metrics: componentMetrics('GenericSinkMetrics', ['receivedEventsTotal', 'sentBytesTotal', 'sentEventsTotal']),
  },
  Subscription: {
    componentAdded: { subscribe: (_parent, _args, context) => componentChanges(context, 'added') },
    componentRemoved: { subscribe: (_parent, _args, context) => componentChanges(context, 'removed') },
  },
};
