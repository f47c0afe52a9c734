// `file`: a CSV file as an enrichment table. Every field is a string unless `schema` gives its column a type;
// without headers, the columns are named by their index ("0", "1", ...). Read once at start-up (and again
// on a reload when the file or the options changed).

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { encode } from '../../../abi/codec.js';
import { csvRecords, type EnrichmentRow } from '../../../runtime/enrichment.js';
import { conversion, conversionProblem, type Conversion } from '../../enrichment/conversion.js';
import { shared } from '../../enrichment/tables.js';
import type { EnrichmentTableDefinition } from '../component.js';
import type { EnrichmentTableData } from '../../enrichment/tables.js';

const options = z.strictObject({
  file: z.strictObject({
    path: z.string().min(1),
    encoding: z.strictObject({
      type: z.literal('csv'),
      delimiter: z
        .string()
        .refine((value) => value.length === 1 && value.charCodeAt(0) < 0x80, 'expected a single ASCII character')
        .default(','),
      include_headers: z.boolean().default(true),
    }),
  }),
  schema: z
    .record(
      z.string(),
      z.string().refine((type) => conversion(type, 'UTC') !== undefined, {
        error: (issue) => conversionProblem(String(issue.input)),
      }),
    )
    .default({}),
});

type FileOptions = z.output<typeof options>;

const file: EnrichmentTableDefinition<FileOptions, EnrichmentTableData> = {
  kind: 'enrichment_table',
  type: 'file',
  description: 'Exposes the rows of a CSV file as an enrichment table.',
  options,
  files: (config) => [config.file.path],
  async load(config, env) {
    const { path, encoding } = config.file;
    const at = (message: string) => new Error(`option "file.path": "${path}": ${message}`);
    const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
      throw at(error.code === 'ENOENT' ? 'no such file' : `cannot read it: ${error.message}`);
    });
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw at('not valid UTF-8');
    }
    // Every record as long as the first, as Vector's reader (not flexible) requires.
    const records: string[][] = [];
    for (const { fields, line } of csvRecords(text, encoding.delimiter)) {
      const expected = records[0]?.length;
      if (expected !== undefined && fields.length !== expected)
        throw at(
          `invalid CSV: line ${line}: found a record with ${fields.length} fields, but the previous record has ${expected} fields`,
        );
      records.push(fields);
    }
    const headers = encoding.include_headers
      ? (records.shift() ?? [])
      : Array.from({ length: records[0]?.length ?? 0 }, (_, index) => String(index));
    const columns = headers.map((header): Conversion => {
      const type = config.schema[header];
      return (type === undefined ? undefined : conversion(type, env.globals.timezone)) ?? ((text) => text);
    });
    const rows = records.map((record, number) => {
      const row: EnrichmentRow = {};
      record.forEach((field, index) => {
        try {
          row[headers[index]!] = columns[index]!(field);
        } catch (error) {
          throw new Error(
            `option "schema.${headers[index]}": "${path}": row ${number + 1}: ${(error as Error).message}`,
          );
        }
      });
      return row;
    });
    return { id: env.id, type: 'file', rows: shared(encode(rows)) };
  },
};

export default file;
