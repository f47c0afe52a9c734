// The enrichment table types, by name, each with the loader of its module: a run loads only the types its
// configuration uses.

import type { EnrichmentTableDefinition } from '../component.js';

type Loader = () => Promise<EnrichmentTableDefinition>;

export const ENRICHMENT_TABLES: ReadonlyMap<string, Loader> = new Map<string, Loader>([
  ['file', async () => (await import('./file.js')).default as EnrichmentTableDefinition],
  ['geoip', async () => (await import('./geoip.js')).default as EnrichmentTableDefinition],
  ['memory', async () => (await import('./memory.js')).default as EnrichmentTableDefinition],
  ['mmdb', async () => (await import('./mmdb.js')).default as EnrichmentTableDefinition],
]);
