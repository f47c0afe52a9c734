// `mmdb`: a MaxMind database as an enrichment table, each lookup giving the record of an IP as stored.

import { z } from 'zod';
import { mmdbDatabaseType } from '../../enrichment/mmdb-table.js';
import { readDatabase } from '../../enrichment/mmdb-file.js';
import type { EnrichmentTableDefinition } from '../component.js';
import type { EnrichmentTableData } from '../../enrichment/tables.js';

const options = z.strictObject({ path: z.string().min(1) });

type MmdbOptions = z.output<typeof options>;

const mmdb: EnrichmentTableDefinition<MmdbOptions, EnrichmentTableData> = {
  kind: 'enrichment_table',
  type: 'mmdb',
  description: 'Exposes the records of a MaxMind database (MMDB) as an enrichment table, looked up by IP.',
  options,
  files: (config) => [config.path],
  async load(config, env) {
    const database = await readDatabase(config.path, mmdbDatabaseType);
    return { id: env.id, type: 'mmdb', database };
  },
};

export default mmdb;
