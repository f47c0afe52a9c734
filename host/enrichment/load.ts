// Loading a configuration's enrichment tables on the main thread: at start-up, and on a reload again for the
// tables whose options or files changed (the others keep what was loaded).

import { stat } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { enrichmentTableDefinition } from '../components/registry.js';
import { ConfigError } from '../config/errors.js';
import type { ComponentConfig, Config } from '../config/schema.js';
import type { MetricsRegistry } from '../telemetry/metrics.js';
import { MemoryTable } from './memory-table.js';
import type { EnrichmentTableData } from './tables.js';

/** A loaded table, with what it was loaded from. */
export interface LoadedTable {
  config: ComponentConfig;
  /** Its files' sizes and modification times when loaded. */
  stamp: string;
  /** What the threads are given (a memory table's entries as they are now). */
  data: EnrichmentTableData;
  /** A memory table: the table its sink writes. */
  memory?: MemoryTable;
}

/** The files each table reads (for --watch-config). */
export function enrichmentTableFiles(config: Config): string[] {
  return [...config.enrichment_tables.values()].flatMap(
    (table) => enrichmentTableDefinition(table.type).files?.(table.options) ?? [],
  );
}

/**
 * Loads the tables of `config`, reusing those of `previous` whose type, options and files are unchanged
 * (a memory table with its rows; a changed one starts empty unless `reload_behavior: preserve-state`);
 * throws ConfigError naming the file, the table and the option of each failure.
 */
export async function loadEnrichmentTables(
  config: Config,
  metrics: MetricsRegistry,
  previous: ReadonlyMap<string, LoadedTable> = new Map(),
): Promise<Map<string, LoadedTable>> {
  const errors: string[] = [];
  const loaded = new Map<string, LoadedTable>();
  await Promise.all(
    [...config.enrichment_tables.values()].map(async (table) => {
      const definition = enrichmentTableDefinition(table.type);
      const stamp = await filesStamp(definition.files?.(table.options) ?? []);
      const before = previous.get(table.id);
      if (
        before !== undefined &&
        before.stamp === stamp &&
        before.config.type === table.type &&
        isDeepStrictEqual(withoutInputs(before.config.options), withoutInputs(table.options))
      ) {
        loaded.set(table.id, { ...before, config: table });
        return;
      }
      try {
        const data = await definition.load(table.options, { id: table.id, globals: config.global, metrics });
        if (data instanceof MemoryTable && before?.memory && data.options.reload_behavior === 'preserve-state')
          data.takeOver(before.memory);
        loaded.set(
          table.id,
          data instanceof MemoryTable
            ? { config: table, stamp, data: data.data, memory: data }
            : { config: table, stamp, data },
        );
      } catch (error) {
        errors.push(`${table.file}: enrichment_tables.${table.id}: ${(error as Error).message}`);
      }
    }),
  );
  if (errors.length > 0) throw new ConfigError(errors.sort());
  return loaded;
}

/** A table's options but a memory table's `inputs`: what feeds a table is not what it holds. */
function withoutInputs(options: unknown): unknown {
  const { inputs: _, ...rest } = options as Record<string, unknown>;
  return rest;
}

async function filesStamp(files: readonly string[]): Promise<string> {
  const stamps = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (stats) => `${stats.size}:${stats.mtimeMs}`,
        (error: NodeJS.ErrnoException) => `unreadable: ${error.code}`,
      ),
    ),
  );
  return stamps.join('\0');
}
