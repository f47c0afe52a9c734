import { defineFunction } from './define.js';
import { K, NULL, union } from '../types/kind.js';
import { SVC_METRIC } from './support/result-kinds.js';

export default defineFunction({
  name: 'get_svc_metric',
  aliases: ['get_vector_metric'],
  category: 'Metrics',
  description:
    'Returns the first internal metric named `key` whose tags match `tags` (where `*` is a wildcard), or null when there is none.',
  parameters: [
    { name: 'key', kinds: K.Bytes, required: true },
    { name: 'tags', kinds: K.Object, required: false, default: '{}' },
  ],
  returns: union(SVC_METRIC, NULL),
  pure: false,
  backing: { kind: 'js', library: 'svc:internal-metrics' },
  examples: [
    {
      title: 'Utilization of one component',
      source: 'get_svc_metric("utilization", tags: {"component_id": "my_transform"})',
      mode: 'compile',
    },
  ],
});
