// The geoip and mmdb tables: lookups of one IP in a MaxMind database (mmdb-lib reads it). geoip gives
// Vector's fields for the database types it knows (City, ISP, ASN, Connection-Type), mmdb the record as stored.

import { isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';
import type { RemapValue } from '../../abi/values.js';
import {
  floatValue,
  type EnrichmentCondition,
  type EnrichmentRow,
  type EnrichmentTable,
} from '../../runtime/enrichment.js';
import { lossyText } from '../../runtime/engine.js';

/** The database types geoip reads (Vector's `DatabaseKind`), by the metadata's `database_type`. */
const GEOIP_KINDS: Readonly<Record<string, 'city' | 'isp' | 'connection_type'>> = {
  'GeoLite2-ASN': 'isp',
  'GeoIP2-ISP': 'isp',
  'GeoIP2-Connection-Type': 'connection_type',
  'GeoIP2-City': 'city',
  'GeoLite2-City': 'city',
};

/** The database type of an MMDB file, or why it is not one. */
export function mmdbDatabaseType(database: Uint8Array): string {
  return new Reader(asBuffer(database)).metadata.databaseType;
}

/** The geoip table refuses other database types, as Vector does. */
export function checkGeoipDatabaseType(type: string): void {
  if (!Object.hasOwn(GEOIP_KINDS, type))
    throw new Error(`unsupported MMDB database type "${type}": use the \`mmdb\` enrichment table for it`);
}

type Names = Readonly<Record<string, string>> | undefined;
type Record_ = Readonly<Record<string, unknown>>;

export class MmdbTable implements EnrichmentTable {
  private constructor(
    private readonly reader: Reader<Response>,
    private readonly record: (found: Record_) => EnrichmentRow,
  ) {}

  /** geoip: Vector's fields for the database's type, names in `locale` (null when the database lacks it). */
  static geoip(database: Uint8Array, locale: string): MmdbTable {
    const reader = new Reader<Response>(asBuffer(database));
    const kind = GEOIP_KINDS[reader.metadata.databaseType];
    checkGeoipDatabaseType(reader.metadata.databaseType);
    const name = (names: Names): RemapValue => names?.[locale] ?? null;
    const text = (value: unknown): RemapValue => (typeof value === 'string' ? value : null);
    const integer = (value: unknown): RemapValue => (typeof value === 'number' ? BigInt(value) : null);
    const float = (value: unknown): RemapValue => (typeof value === 'number' ? floatValue(value) : null);
    const record = (found: Record_): EnrichmentRow => {
      const at = (...path: string[]): unknown =>
        path.reduce<unknown>((value, key) => (value as Record_ | undefined)?.[key], found);
      if (kind === 'isp') {
        return {
          autonomous_system_number: integer(at('autonomous_system_number')),
          autonomous_system_organization: text(at('autonomous_system_organization')),
          isp: text(at('isp')),
          organization: text(at('organization')),
        };
      }
      if (kind === 'connection_type') return { connection_type: text(at('connection_type')) };
      // The last subdivision is the most specific one (MaxMind's).
      const subdivision = (at('subdivisions') as Record_[] | undefined)?.at(-1);
      return {
        city_name: name(at('city', 'names') as Names),
        continent_code: text(at('continent', 'code')),
        country_code: text(at('country', 'iso_code')),
        country_name: name(at('country', 'names') as Names),
        timezone: text(at('location', 'time_zone')),
        latitude: float(at('location', 'latitude')),
        longitude: float(at('location', 'longitude')),
        metro_code: integer(at('location', 'metro_code')),
        region_name: name(subdivision?.names as Names),
        region_code: text(subdivision?.iso_code),
        postal_code: text(at('postal', 'code')),
      };
    };
    return new MmdbTable(reader, record);
  }

  /** mmdb: the record as stored (MMDB integers as integers, doubles as floats unless whole: the reader does not
   * tell them apart). */
  static raw(database: Uint8Array): MmdbTable {
    return new MmdbTable(new Reader<Response>(asBuffer(database)), (found) => remapValue(found) as EnrichmentRow);
  }

  find(conditions: readonly EnrichmentCondition[], select: readonly string[] | undefined): EnrichmentRow[] {
    const found = this.lookup(conditions);
    return found === undefined ? [] : [selected(this.record(found), select)];
  }

  get(conditions: readonly EnrichmentCondition[], select: readonly string[] | undefined): EnrichmentRow {
    const found = this.lookup(conditions);
    if (found === undefined) throw new Error('IP not found');
    return selected(this.record(found), select);
  }

  /** Vector's checks of the condition (one equality on an IP), then the IP's record, if any. */
  private lookup(conditions: readonly EnrichmentCondition[]): Record_ | undefined {
    if (conditions.length === 0) throw new Error('IP condition must be specified');
    if (conditions.length > 1) throw new Error('Only one condition is allowed');
    const condition = conditions[0]!;
    if (condition.type !== 'equals') throw new Error('Only equality condition is allowed');
    const ip = lossyText(condition.value);
    if (isIP(ip) === 0 || ip.includes('%')) throw new Error('Invalid IP address');
    try {
      return (this.reader.get(ip) as Record_ | null) ?? undefined;
    } catch {
      // An IPv6 address in an IPv4 database: not found, as Vector's reader has it.
      return undefined;
    }
  }
}

function selected(row: EnrichmentRow, select: readonly string[] | undefined): EnrichmentRow {
  if (select === undefined) return row;
  return Object.fromEntries(Object.entries(row).filter(([field]) => select.includes(field)));
}

/** A decoded MMDB value as a remap value (the reader caches its objects: never edited, copied here). */
function remapValue(value: unknown): RemapValue {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'bigint' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (Array.isArray(value)) return value.map(remapValue);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, remapValue(inner)]));
  return null;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
