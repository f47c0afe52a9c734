// Scale-out through a broker, as issue 25 asks: an agent svc (file source → the broker's sink) and two
// aggregator svcs sharing the broker's messages (its source → remap → file sink, with acknowledgements). The
// first aggregator is killed with SIGKILL at random moments and restarted; the lines of both outputs are then
// counted against the input: lost (in no output) and duplicated. Each broker (nats-scale-out.ts,
// redis-scale-out.ts) starts its server and says how the agent sends and the aggregators read.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSvc, tempDir, type SvcRun } from './svc.js';

export interface ScaleOutOptions {
  lines: number;
  /** SIGKILLs of the first aggregator, each once the outputs grew by a random share of the input. */
  kills: number;
  random?: () => number;
  log?: (line: string) => void;
  /** Gives up waiting for missing lines after this long (they then count as lost). */
  deadlineMs?: number;
}

export interface ScaleOutOutcome {
  lost: number[];
  duplicated: number;
  /** Lines each aggregator wrote (the first's over all its runs). */
  perAggregator: [number, number];
  kills: number;
  seconds: number;
}

/** How the agent sends to the broker and the aggregators read from it (YAML, indented as a component). */
export interface BrokerComponents {
  /** The agent's sink, its body below `broker:` (inputs: the file source `lines`). */
  sink: string;
  /** Aggregator `name`'s source, its body below `broker:`. */
  source(name: string): string;
  /** How long a killed aggregator's unacknowledged messages take to go to another (redelivery, a claim). */
  settleMs: number;
}

/** `line-<n>` of every output line, counted. */
function countLines(paths: string[]): { counts: Map<number, number>; per: number[] } {
  const counts = new Map<number, number>();
  const per = paths.map((path) => {
    if (!existsSync(path)) return 0;
    let lines = 0;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      const match = /^line-(\d+)$/.exec(line);
      if (!match) continue;
      lines++;
      const n = Number(match[1]);
      counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    return lines;
  });
  return { counts, per };
}

const indent = (yaml: string) =>
  yaml
    .trim()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

export async function runScaleOutThrough(broker: BrokerComponents, options: ScaleOutOptions): Promise<ScaleOutOutcome> {
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => {});
  const started = performance.now();
  const dir = tempDir();
  const runs: SvcRun[] = [];
  try {
    const input = join(dir, 'input.log');
    writeFileSync(input, Array.from({ length: options.lines }, (_, i) => `line-${i}\n`).join(''));
    const agentConfig = join(dir, 'agent.yaml');
    writeFileSync(
      agentConfig,
      `data_dir: ${join(dir, 'agent-data')}
acknowledgements: true
sources:
  lines: { type: file, include: [${input}], read_from: beginning }
sinks:
  broker:
    inputs: [lines]
${indent(broker.sink)}
`,
    );
    const outputs = ['a', 'b'].map((name) => join(dir, `out-${name}.log`));
    const aggregatorConfig = (name: string, output: string) => {
      const path = join(dir, `aggregator-${name}.yaml`);
      writeFileSync(
        path,
        `data_dir: ${join(dir, `data-${name}`)}
acknowledgements: true
sources:
  broker:
${indent(broker.source(name))}
transforms:
  tag: { type: remap, inputs: [broker], source: '.aggregator = "${name}"' }
sinks:
  out: { type: file, inputs: [tag], path: ${output}, encoding: { codec: text } }
`,
      );
      return path;
    };
    for (const data of ['data-a', 'data-b', 'agent-data']) mkdirSync(join(dir, data), { recursive: true });
    const configA = aggregatorConfig('a', outputs[0]!);
    const configB = aggregatorConfig('b', outputs[1]!);
    const start = (config: string) => {
      const run = startSvc(['--config', config]);
      runs.push(run);
      return run;
    };
    let aggregatorA = start(configA);
    start(configB);
    start(agentConfig);

    const delivered = () => countLines(outputs).counts.size;
    const wait = () => new Promise((resolve) => setTimeout(resolve, 50));
    let kills = 0;
    for (; kills < options.kills; kills++) {
      const target = Math.min(options.lines, delivered() + Math.ceil(random() * (options.lines / (options.kills + 1))));
      while (delivered() < target && aggregatorA.child.exitCode === null) await wait();
      if (aggregatorA.child.exitCode !== null) throw new Error(`aggregator a exited: ${aggregatorA.stderr()}`);
      aggregatorA.child.kill('SIGKILL');
      await aggregatorA.exited;
      log(`kill ${kills + 1}: ${delivered()} distinct lines out`);
      aggregatorA = start(configA);
    }
    const deadline = Date.now() + (options.deadlineMs ?? 120_000);
    while (delivered() < options.lines && Date.now() < deadline) await wait();
    // Late redeliveries (a killed run's unacknowledged messages) come within the broker's settling time.
    await new Promise((resolve) => setTimeout(resolve, broker.settleMs + 500));
    const { counts, per } = countLines(outputs);
    const lost: number[] = [];
    let duplicated = 0;
    for (let n = 0; n < options.lines; n++) {
      const times = counts.get(n) ?? 0;
      if (times === 0) lost.push(n);
      else duplicated += times - 1;
    }
    return {
      lost,
      duplicated,
      perAggregator: [per[0]!, per[1]!],
      kills,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGTERM');
    await Promise.all(runs.map((run) => run.exited));
  }
}
