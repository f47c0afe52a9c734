import { defineFunction } from './define.js';
import { ENRICHMENT_LOOKUP_PARAMETERS, validateEnrichmentTable } from './support/enrichment.js';
import { ANY, objectOf } from '../types/kind.js';

export default defineFunction({
  name: 'get_enrichment_table_record',
  category: 'Enrichment',
  description:
    'Returns the single row of the enrichment table `table` that matches every field of `condition`, limited to the `select` fields when given; fails when no row or several rows match.',
  parameters: ENRICHMENT_LOOKUP_PARAMETERS,
  validate: validateEnrichmentTable,
  fallible: true,
  returns: objectOf(ANY),
  pure: false,
  backing: { kind: 'js', library: 'svc:enrichment-tables' },
  examples: [
    { title: 'Look up a row by id', source: 'get_enrichment_table_record!("users", {"id": 1})', mode: 'compile' },
    {
      title: 'Date range',
      source:
        'get_enrichment_table_record!("users", {"surname": "Smith", "date_of_birth": {"from": t\'1985-01-01T00:00:00Z\', "to": t\'1985-12-31T00:00:00Z\'}})',
      mode: 'compile',
    },
  ],
});
