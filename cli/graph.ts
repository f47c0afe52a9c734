// `svc graph`: prints the configured topology in DOT (or Mermaid) without building any component.

import type { CAC, Command } from 'cac';
import { configLocations } from './root-options.js';
import type { GraphFormat } from '../host/index.js';
import { rootOptions, withRootOptions } from './service.js';
import { stringOption, UsageError } from './usage.js';

async function runGraph(parsed: Record<string, unknown>): Promise<number> {
  // Loaded here, not at the top: the other commands (a one-shot `svc vrl`) need none of the pipeline.
  const { ConfigError, EXIT, GRAPH_FORMATS, graphDot, graphMermaid, loadPipelineConfig, pipelineGraph, redactSecrets } =
    await import('../host/index.js');
  const format = (stringOption(parsed.format, '--format') ?? 'dot') as GraphFormat;
  if (!GRAPH_FORMATS.includes(format))
    throw new UsageError(`invalid --format '${format}': expected one of ${GRAPH_FORMATS.join(', ')}`);
  const options = rootOptions(parsed);
  try {
    const config = await loadPipelineConfig({
      locations: configLocations(options),
      interpolate: !options.disableEnvVarInterpolation,
      allowEmptyConfig: options.allowEmptyConfig,
    });
    const graph = pipelineGraph(config);
    // Node attributes and ids may come from secrets.
    process.stdout.write(redactSecrets(format === 'dot' ? graphDot(config, graph) : graphMermaid(config, graph)));
    return EXIT.OK;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.errors) process.stderr.write(`${problem}\n`);
    return EXIT.CONFIG;
  }
}

/** Registers `graph`: the root command's options (not its flags), as spec 1 lists them, and --format. */
export function registerGraph(cli: CAC): Command {
  const command = cli.command('graph', 'Print the topology in DOT format (renderable with a graph renderer)');
  withRootOptions(command, (spec) => spec.kind !== 'flag' && spec.kind !== 'count');
  return command
    .option('--format <format>', 'Output format: dot or mermaid (default: dot)')
    .action(async (parsed: Record<string, unknown>) => {
      process.exitCode = await runGraph(parsed);
    });
}
