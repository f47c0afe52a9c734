// `svc list`: the component types of this build, as Vector lists them (text, or JSON; `avro` prints the
// same JSON, as upstream does).

import type { CAC, Command } from 'cac';
import type { ComponentKind } from '../host/index.js';
import { stringOption, UsageError } from './usage.js';

const SECTIONS: ReadonlyArray<{ kind: ComponentKind; key: string; title: string }> = [
  { kind: 'source', key: 'sources', title: 'Sources' },
  { kind: 'transform', key: 'transforms', title: 'Transforms' },
  { kind: 'sink', key: 'sinks', title: 'Sinks' },
  { kind: 'enrichment_table', key: 'enrichment_tables', title: 'Enrichment tables' },
];

const FORMATS = ['text', 'json', 'avro'];

/** The listing in `format` (text, json or avro), ending with a newline. */
async function componentList(format: string): Promise<string> {
  // Loaded here, not at the top: the other commands (a one-shot `svc vrl`) need none of the pipeline.
  const { componentTypes } = await import('../host/index.js');
  if (format === 'text') {
    return SECTIONS.map(
      ({ kind, title }) =>
        `${title}:\n${componentTypes(kind)
          .map((type) => `- ${type}\n`)
          .join('')}`,
    ).join('\n');
  }
  return `${JSON.stringify(Object.fromEntries(SECTIONS.map(({ kind, key }) => [key, componentTypes(kind)])))}\n`;
}

export function registerList(cli: CAC): Command {
  return cli
    .command('list', 'List available components, then exit')
    .option('--format <format>', 'Format of the list: text, json or avro (default: text)')
    .action(async (parsed: Record<string, unknown>) => {
      const format = stringOption(parsed.format, '--format') ?? 'text';
      if (!FORMATS.includes(format))
        throw new UsageError(`invalid --format '${format}': expected one of ${FORMATS.join(', ')}`);
      process.stdout.write(await componentList(format));
    });
}
