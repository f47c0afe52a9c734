import { defineFunction } from './define.js';
import { ENRICHMENT_LOOKUP_PARAMETERS, validateEnrichmentTable } from './support/enrichment.js';
import { ANY, objectOf, arrayOf } from '../types/kind.js';

export default defineFunction({
  name: 'find_enrichment_table_records',
  category: 'Enrichment',
  description:
    'Returns the rows of the enrichment table `table` that match every field of `condition`, as objects limited to the `select` fields when given. Matching can ignore case, use a `wildcard` value, or test a date field against a `from`/`to` range.',
  parameters: ENRICHMENT_LOOKUP_PARAMETERS,
  validate: validateEnrichmentTable,
  fallible: true,
  returns: arrayOf(objectOf(ANY)),
  pure: false,
  backing: { kind: 'js', library: 'svc:enrichment-tables' },
  examples: [
    { title: 'Exact match', source: 'find_enrichment_table_records!("users", {"surname": "Smith"})', mode: 'compile' },
    {
      title: 'Case-insensitive match with selected fields',
      source:
        'find_enrichment_table_records!("users", {"surname": "smith"}, select: ["firstname", "id"], case_sensitive: false)',
      mode: 'compile',
    },
  ],
});
