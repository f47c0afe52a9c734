// `svc validate`: loads the configuration, builds its graph and (unless --no-environment) every component,
// runs the sinks' healthchecks (unless skipped), and prints Vector's report: `√` for what passed, `~` for
// warnings, `x` for errors under a title, every problem at once, then `Validated` when all is well.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config/errors.js';
import { redactSecrets } from './config/redaction.js';
import type { Config } from './config/schema.js';
import {
  buildPipeline,
  EXIT,
  loadPipelineConfig,
  pipelineGraph,
  sinkHealthcheck,
  type PipelineOptions,
} from './pipeline.js';
import type { Graph } from './topology/graph.js';
import { serverTlsOptions } from './components/support/tls.js';

export interface ValidateOptions extends PipelineOptions {
  /** Warnings fail the validation. */
  denyWarnings: boolean;
  /** Only load, check the schema and build the graph. */
  noEnvironment: boolean;
  skipHealthchecks: boolean;
  color: boolean;
  /** Where the report goes. */
  write(text: string): void;
}

const COLORS = { red: 31, green: 32, yellow: 33 } as const;

/** Vector's validation report layout: lines, titled lists, and the width of the widest line for the rule. */
class Report {
  private width = 0;
  private spaceDue = false;
  private readonly intro: Record<'error' | 'warning' | 'success', string>;

  constructor(private readonly options: Pick<ValidateOptions, 'color' | 'write'>) {
    this.intro = {
      error: this.paint('x', 'red'),
      warning: this.paint('~', 'yellow'),
      success: this.paint('√', 'green'),
    };
  }

  success(message: string): void {
    this.print(`${this.intro.success} ${message}\n`);
  }
  warning(message: string): void {
    this.print(`${this.intro.warning} ${message}\n`);
  }
  error(message: string): void {
    this.print(`${this.intro.error} ${message}\n`);
  }

  /** A title underlined with dashes, followed by its items. */
  list(title: string, kind: 'error' | 'warning', items: readonly string[]): void {
    this.space();
    this.print(`${title}\n${'-'.repeat(title.length)}\n`);
    for (const item of items) this.print(`${this.intro[kind]} ${item}\n`);
    this.space();
  }

  validated(): void {
    this.options.write(
      `${'-'.repeat(this.width)}\n${' '.repeat(Math.max(0, this.width - 'Validated'.length))}${this.paint('Validated', 'green')}\n`,
    );
  }

  private paint(text: string, color: keyof typeof COLORS): string {
    return this.options.color ? `\x1b[${COLORS[color]}m${text}\x1b[0m` : text;
  }

  private space(): void {
    if (!this.spaceDue) return;
    this.spaceDue = false;
    this.options.write('\n');
  }

  private print(text: string): void {
    // A healthcheck's error may quote an option that came from a secret.
    text = redactSecrets(text);
    // Widths count characters without ANSI escapes, as Vector measures them.
    for (const line of text.split('\n')) this.width = Math.max(this.width, [...line.replace(/\x1b\[\d+m/g, '')].length);
    this.spaceDue = true;
    this.options.write(text);
  }
}

/** Rust's Debug form of a list of paths, as Vector's report shows them: `["a.yaml", "b.toml"]`. */
function pathList(options: ValidateOptions): string {
  const paths = [...options.locations.files.map((file) => file.path), ...options.locations.dirs];
  return `[${paths.map((path) => JSON.stringify(path)).join(', ')}]`;
}

/** Runs the validation and writes its report; resolves with the exit code (0, or 78). */
export async function validate(options: ValidateOptions): Promise<number> {
  const report = new Report(options);
  const loaded = await load(options, report);
  if (!loaded) return EXIT.CONFIG;
  let valid = true;
  if (!options.noEnvironment) valid = await checkEnvironment(options, loaded.config, loaded.graph, report);
  if (!valid) return EXIT.CONFIG;
  report.validated();
  return EXIT.OK;
}

/** Load, schema and graph: `√ Loaded [...]`, or the problems (with --deny-warnings, the warnings too). */
async function load(options: ValidateOptions, report: Report): Promise<{ config: Config; graph: Graph } | undefined> {
  const title = `Failed to load ${pathList(options)}`;
  let config: Config;
  let graph: Graph;
  try {
    config = await loadPipelineConfig(options);
    graph = pipelineGraph(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    report.list(title, 'error', error.errors);
    return undefined;
  }
  const warnings = graph.warnings;
  if (warnings.length === 0) {
    report.success(`Loaded ${pathList(options)}`);
  } else if (options.denyWarnings) {
    report.list(title, 'error', warnings);
    return undefined;
  } else {
    report.list(`Loaded with warnings ${pathList(options)}`, 'warning', warnings);
  }
  return { config, graph };
}

/**
 * Builds every component (with a temporary `data_dir`, so nothing is written where the service keeps its
 * state), then runs the healthchecks one after the other so each result is read next to its sink.
 */
async function checkEnvironment(
  options: ValidateOptions,
  config: Config,
  graph: Graph,
  report: Report,
): Promise<boolean> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-validate-'));
  try {
    let built;
    try {
      built = await buildPipeline(
        { ...config, global: { ...config.global, data_dir: dataDir } },
        { ...options, threads: 0 },
        graph,
      );
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      report.list('Component errors', 'error', error.errors);
      return false;
    }
    // The API is not started here: its certificate and key are read as at start-up.
    if (config.global.api.enabled) {
      const problem = await serverTlsOptions(config.global.api.tls).then(
        () => undefined,
        (error: Error) => `api.${error.message}`,
      );
      if (problem) {
        report.list('Component errors', 'error', [problem]);
        return false;
      }
    }
    report.success('Component configuration');
    if (options.skipHealthchecks) return true;
    if (!config.global.healthchecks.enabled) {
      report.warning('Health checks are disabled');
      return !options.denyWarnings;
    }
    let valid = true;
    for (const sink of config.sinks.values()) {
      const check = sinkHealthcheck(built, sink.id);
      if (!sink.healthcheck?.enabled) {
        report.warning(`Health check disabled for "${sink.id}"`);
        valid &&= !options.denyWarnings;
        continue;
      }
      try {
        await check?.();
        report.success(`Health check "${sink.id}"`);
      } catch (error) {
        report.error(`Health check for "${sink.id}" failed: ${error instanceof Error ? error.message : String(error)}`);
        valid = false;
      }
    }
    return valid;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
