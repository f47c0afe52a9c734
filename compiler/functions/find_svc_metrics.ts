import { defineFunction } from './define.js';
import { K, arrayOf } from '../types/kind.js';
import { SVC_METRIC } from './support/result-kinds.js';

export default defineFunction({
  name: 'find_svc_metrics',
  aliases: ['find_vector_metrics'],
  category: 'Metrics',
  description:
    'Returns every internal metric named `key` whose tags match `tags` (where `*` is a wildcard), each as an object with its name, tags, type, kind and value.',
  parameters: [
    { name: 'key', kinds: K.Bytes, required: true },
    { name: 'tags', kinds: K.Object, required: false, default: '{}' },
  ],
  returns: arrayOf(SVC_METRIC),
  pure: false,
  backing: { kind: 'js', library: 'svc:internal-metrics' },
  examples: [
    { title: 'All utilization metrics', source: 'find_svc_metrics("utilization")', mode: 'compile' },
    {
      title: 'Metrics of one component',
      source: 'find_svc_metrics("utilization", tags: {"component_id": "my_transform"})',
      mode: 'compile',
    },
  ],
});
