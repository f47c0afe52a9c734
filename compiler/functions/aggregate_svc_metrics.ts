import { defineFunction } from './define.js';
import { K, FLOAT, NULL, union } from '../types/kind.js';

export default defineFunction({
  name: 'aggregate_svc_metrics',
  aliases: ['aggregate_vector_metrics'],
  category: 'Metrics',
  description:
    'Aggregates the current values of the internal metrics named `key` whose tags match `tags` (where `*` is a wildcard) with `sum`, `avg`, `max` or `min`; null when none match.',
  parameters: [
    { name: 'function', kinds: K.Bytes, required: true, enum: ['sum', 'avg', 'max', 'min'] },
    { name: 'key', kinds: K.Bytes, required: true },
    { name: 'tags', kinds: K.Object, required: false, default: '{}' },
  ],
  returns: union(FLOAT, NULL),
  pure: false,
  backing: { kind: 'js', library: 'svc:internal-metrics' },
  examples: [
    {
      title: 'Sum a metric over all components',
      source: 'aggregate_svc_metrics("sum", "utilization")',
      mode: 'compile',
    },
    {
      title: 'Maximum over matching components',
      source: 'aggregate_svc_metrics("max", "utilization", tags: {"component_id": "parse_*"})',
      mode: 'compile',
    },
  ],
});
