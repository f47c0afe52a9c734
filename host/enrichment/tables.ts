// The enrichment tables as every thread that runs remap programs holds them. The main thread loads each table
// once (host/components/enrichment_tables/) into `EnrichmentTableData`, whose bytes live in a SharedArrayBuffer:
// posting it to a transform worker shares them, and each thread opens its own view of them once (an index, an
// MMDB reader) rather than once per event.

import { decode } from '../../abi/codec.js';
import { RowTable, type EnrichmentRow, type EnrichmentTable, type EnrichmentTables } from '../../runtime/enrichment.js';
import { applyChanges, MemoryTableReader, type MemoryTableChanges, type MemoryTableData } from './memory-reader.js';

/** A loaded table, as posted to the threads. */
export type EnrichmentTableData =
  /** `rows`: the table's rows, an array of objects in the value codec (abi/codec.ts). */
  | { id: string; type: 'file'; rows: Uint8Array }
  /** `database`: the MMDB file's bytes; `locale`: geoip's. */
  | { id: string; type: 'geoip'; database: Uint8Array; locale: string }
  | { id: string; type: 'mmdb'; database: Uint8Array }
  | MemoryTableData;

/** `bytes` copied into shared memory, so that posting them to a worker does not copy them again. */
export function shared(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  copy.set(bytes);
  return copy;
}

/** This thread's view of a table. */
function openTable(data: EnrichmentTableData): EnrichmentTable {
  switch (data.type) {
    case 'file':
      return new RowTable(decode(data.rows) as EnrichmentRow[]);
    case 'geoip':
      return MmdbTable!.geoip(data.database, data.locale);
    case 'mmdb':
      return MmdbTable!.raw(data.database);
    case 'memory':
      return new MemoryTableReader(data);
  }
}

let published = new Map<string, EnrichmentTableData>();
/** The tables this thread looked up so far: a thread opens only those its programs use. */
let opened = new Map<string, EnrichmentTable>();

/** The MMDB reader (mmdb-lib), loaded in a thread only once a geoip or mmdb table is published to it: every
 * other pipeline would pay its loading at start-up. */
let MmdbTable: typeof import('./mmdb-table.js').MmdbTable | undefined;
let ready: Promise<void> = Promise.resolve();

/** Makes `tables` this thread's tables: at start-up, and again when a reload changed them. */
export function publishEnrichmentTables(tables: readonly EnrichmentTableData[]): void {
  published = new Map(tables.map((data) => [data.id, data]));
  opened = new Map();
  if (MmdbTable === undefined && tables.some((data) => data.type === 'geoip' || data.type === 'mmdb')) {
    ready = import('./mmdb-table.js').then((module) => {
      MmdbTable = module.MmdbTable;
    });
  }
}

/** Applies a memory table's flush to this thread's copy of it (a worker's; the main thread reads the table's own). */
export function applyMemoryTableChanges({ id, instance, changes }: MemoryTableChanges): void {
  const data = published.get(id);
  // Changes of a table a reload replaced are not this one's.
  if (data?.type === 'memory' && data.instance === instance) applyChanges(data.entries, changes);
}

/** Resolves once what the published tables need is loaded: programs run only after it. */
export function enrichmentTablesReady(): Promise<void> {
  return ready;
}

/** The tables of this thread, for the remap programs it runs (`InstanceServices.enrichmentTables`). */
export const threadEnrichmentTables: EnrichmentTables = {
  table(name) {
    let table = opened.get(name);
    const data = published.get(name);
    if (table === undefined && data !== undefined) opened.set(name, (table = openTable(data)));
    return table;
  },
};
