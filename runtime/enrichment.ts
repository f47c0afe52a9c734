// The runtime's entry for the pipeline's enrichment tables (host/enrichment, host/components/enrichment_tables):
// the table interface remap's lookup functions call, and the readers the tables share with remap's functions
// (CSV, floats, strftime, time zones, a float's text), so a CSV file and its cells are read as the functions
// read the same text, and a memory table keys a float as VRL prints it. Apart from ./engine.ts, so that only a
// pipeline with tables loads them.

export {
  RowTable,
  type EnrichmentCondition,
  type EnrichmentRow,
  type EnrichmentTable,
  type EnrichmentTables,
} from './service-data.js';
export { csvRecords } from './js-functions/support/csv.js';
export { displayFloat } from './display.js';
export { floatValue } from './js-functions/support/float.js';
export { parseStrftime, TimestampParseError } from '../abi/strftime.js';
export { namedTimeZone, type TimeZone } from './time-zones.js';
