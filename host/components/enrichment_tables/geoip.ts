// `geoip`: a MaxMind GeoIP2/GeoLite2 database (City, ISP, ASN or Connection-Type) as an enrichment table,
// each lookup giving Vector's fields for an IP, place names in `locale`.

import { z } from 'zod';
import { checkGeoipDatabaseType, mmdbDatabaseType } from '../../enrichment/mmdb-table.js';
import { readDatabase } from '../../enrichment/mmdb-file.js';
import type { EnrichmentTableDefinition } from '../component.js';
import type { EnrichmentTableData } from '../../enrichment/tables.js';

const options = z.strictObject({ path: z.string().min(1), locale: z.string().default('en') });

type GeoipOptions = z.output<typeof options>;

const geoip: EnrichmentTableDefinition<GeoipOptions, EnrichmentTableData> = {
  kind: 'enrichment_table',
  type: 'geoip',
  description: 'Exposes a MaxMind GeoIP2 or GeoLite2 database as an enrichment table of locations, looked up by IP.',
  options,
  files: (config) => [config.path],
  async load(config, env) {
    const database = await readDatabase(config.path, (bytes) => {
      const type = mmdbDatabaseType(bytes);
      checkGeoipDatabaseType(type);
      return type;
    });
    return { id: env.id, type: 'geoip', database, locale: config.locale };
  },
};

export default geoip;
