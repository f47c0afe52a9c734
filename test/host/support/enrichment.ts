// A loaded enrichment table as a thread's remap programs see it once published to the thread.

import {
  enrichmentTablesReady,
  publishEnrichmentTables,
  threadEnrichmentTables,
  type EnrichmentTableData,
} from '../../../host/enrichment/tables.js';

export async function opened(data: EnrichmentTableData) {
  publishEnrichmentTables([data]);
  await enrichmentTablesReady();
  return threadEnrichmentTables.table(data.id)!;
}
