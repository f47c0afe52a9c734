// The fuzzer behind `npm run fuzz` (scripts/fuzz.mjs) and the fuzz smoke test: programs that are either
// generated well-typed with extreme arguments (test/support/remap-gen.ts) or mutated from the example
// programs, each run on random events through the library API (a pool of worker processes, fuzz-child.ts)
// and, for some, through `svc vrl` (a process per program). Every outcome is classified; the bad classes
// are crash (a process died), hang (timeout), trap (a wasm RuntimeError or "a bug in svc") and exception
// (any other error escaping: a JS TypeError, a stack trace from the CLI).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNCTIONS } from '../../compiler/functions/index.js';
import { ProgramGenerator, Random, randomEvent, randomText } from './remap-gen.js';

export type OutcomeKind = 'ok' | 'diagnostic' | 'runtime-error' | 'crash' | 'hang' | 'trap' | 'exception';
export const BAD_OUTCOMES: readonly OutcomeKind[] = ['crash', 'hang', 'trap', 'exception'];

export interface Outcome {
  kind: OutcomeKind;
  detail?: string;
}

export interface FuzzJob {
  id: number;
  /** How the program was made: `generated` or `mutated:<source of the seed program>`. */
  origin: string;
  program: string;
  events: unknown[];
  /** Run through `svc vrl` in a process of its own instead of the library API. */
  cli: boolean;
}

export interface FuzzOptions {
  seed: number;
  /** Stop after this many programs... */
  programs?: number;
  /** ...or after this many seconds (whichever comes first). */
  seconds?: number;
  eventsPerProgram: number;
  /** Worker processes (library API) and concurrent `svc vrl` runs. */
  jobs: number;
  /** Every n-th program also runs through `svc vrl` (0: never). */
  cliEvery: number;
  /** Per program (compile and all its events). */
  timeoutMs: number;
  /** Called after each program with the running totals. */
  progress?: (summary: FuzzSummary) => void;
}

export interface Failure {
  kind: OutcomeKind;
  detail: string;
  origin: string;
  cli: boolean;
  program: string;
  event?: unknown;
}

export interface FuzzSummary {
  programs: number;
  /** (program, event) pairs run. */
  runs: number;
  counts: Record<OutcomeKind, number>;
  /** The first few failures of each distinct signature (kind + first line of detail, numbers blanked). */
  failures: Map<string, Failure[]>;
  /** Every program with a bad outcome, once per (program, kind), for grouping failures by what the program does. */
  badPrograms: Map<
    string,
    { kind: OutcomeKind; detail: string; origin: string; cli: boolean; program: string; count: number }
  >;
}

const root = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./fuzz-child.js', import.meta.url));
const CLI = path.join(root, 'dist/bin/svc.js');
const KEEP_PER_SIGNATURE = 3;

/** I/O and logging functions: slow, noisy or dependent on the network; nothing to find there. */
const NOT_FUZZED = new Set(['http_request', 'dns_lookup', 'reverse_dns', 'log', 'get_env_var', 'get_hostname']);

/** Example programs to mutate: the function definitions' examples, the upstream examples and examples/. */
export function seedPrograms(): { origin: string; program: string }[] {
  const seeds = FUNCTIONS.flatMap((def) =>
    def.examples.map((e) => ({ origin: `example:${def.name}`, program: e.source })),
  );
  const upstream = path.join(root, '../shared/conformance/functions.jsonl');
  try {
    for (const line of readFileSync(upstream, 'utf8').split('\n')) {
      if (line) seeds.push({ origin: `upstream:${JSON.parse(line).function}`, program: JSON.parse(line).source });
    }
  } catch {
    // Outside this repository's usual checkout the upstream examples are not there; the rest suffices.
  }
  for (const file of readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.vrl'))) {
    seeds.push({ origin: `examples/${file}`, program: readFileSync(path.join(root, 'examples', file), 'utf8') });
  }
  return seeds;
}

const EXTREME_LITERALS = [
  '9223372036854775807',
  '-9223372036854775808',
  '4294967296',
  '4294967297',
  '2147483648',
  '-1',
  '0',
  '1e308',
  '"x" * 4294967296',
  '"ab" * 2147483648',
  '"x" * 100000',
  '"🎉" * 1000',
  '""',
  '"\\u{0}"',
  'null',
  '[]',
  '{}',
  '.',
  '. = "line"',
  '[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]',
  "t'2262-04-12T00:00:00Z'",
  "t'1600-01-01T00:00:00Z'",
];
const TOKENS = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '!',
  '??',
  '.',
  ',',
  '|',
  '->',
  '"',
  "'",
  'if ',
  ' else ',
  'abort',
  '=',
  '+',
  '*',
  '\n',
  ';',
  '%',
  "r'",
  "t'",
];

/** One mutation of a program: literals swapped for extreme ones, spans cut or doubled, tokens inserted, bodies wrapped. */
export function mutate(random: Random, source: string): string {
  const r = random.next();
  const at = () => random.int(source.length + 1);
  if (r < 0.3) {
    // Replace a literal (number or string) with an extreme one.
    const literals = [...source.matchAll(/-?\d+(\.\d+)?|"(?:[^"\\]|\\.)*"/g)];
    if (literals.length > 0) {
      const m = random.pick(literals);
      return source.slice(0, m.index) + random.pick(EXTREME_LITERALS) + source.slice(m.index! + m[0].length);
    }
  }
  if (r < 0.45) {
    const a = at();
    const b = Math.min(source.length, a + random.int(12));
    return source.slice(0, a) + source.slice(b);
  }
  if (r < 0.55) {
    const a = at();
    const b = Math.min(source.length, a + random.int(40));
    return source.slice(0, b) + source.slice(a, b) + source.slice(b);
  }
  if (r < 0.7) {
    const a = at();
    return source.slice(0, a) + random.pick(TOKENS) + source.slice(a);
  }
  if (r < 0.8)
    return `${random.pick(['map_values', 'for_each', 'filter'])}(.) -> |${random.pick(['k, v', 'v'])}| {\n${source}\n}`;
  if (r < 0.87) {
    const depth = random.pick([10, 100, 300, 1000]);
    return '('.repeat(depth) + source + ')'.repeat(depth);
  }
  if (r < 0.93)
    return `${source}\n${random.pick(['.a[4294967297] = 1', '. = "bare string"', 'abort', '.x = "y" * 2147483647', `.s = ${JSON.stringify(randomText(random, 200))}`])}`;
  const a = at();
  return source.slice(0, a) + randomText(random, 8) + source.slice(a);
}

/** The jobs of a run, lazily: generated and mutated programs alternate. */
export function* jobs(options: Pick<FuzzOptions, 'seed' | 'eventsPerProgram' | 'cliEvery'>): Generator<FuzzJob> {
  const random = new Random(options.seed);
  const functions = FUNCTIONS.filter((def) => !NOT_FUZZED.has(def.name)).map((def) => ({ name: def.name, def }));
  const generator = new ProgramGenerator(random, { functions, extreme: true });
  const seeds = seedPrograms();
  for (let id = 0; ; id++) {
    let origin = 'generated';
    let program: string;
    if (id % 2 === 0) {
      program = generator.program();
    } else {
      const seed = random.pick(seeds);
      origin = `mutated:${seed.origin}`;
      program = seed.program;
      for (let n = 1 + random.int(3); n > 0; n--) program = mutate(random, program);
    }
    const events = Array.from({ length: options.eventsPerProgram }, () => randomEvent(random, true));
    yield { id, origin, program, events, cli: options.cliEvery > 0 && id % options.cliEvery === options.cliEvery - 1 };
  }
}

/** A worker process for library jobs; replaced when it dies or hangs. */
class Worker {
  private child: ChildProcess | undefined;

  run(job: FuzzJob, timeoutMs: number): Promise<Outcome[]> {
    const child = (this.child ??= fork(CHILD, [], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    }));
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    // The tail says why a worker died.
    const onData = (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    };
    child.stderr!.on('data', onData);
    return new Promise((resolve) => {
      const finish = (outcomes: Outcome[], replace: boolean) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.stderr!.off('data', onData);
        if (replace) {
          child.kill('SIGKILL');
          this.child = undefined;
        }
        resolve(outcomes);
      };
      const onMessage = (message: { id: number; outcomes: Outcome[] }) => {
        if (message.id === job.id) finish(message.outcomes, false);
      };
      const onExit = (code: number | null, signal: string | null) => {
        this.child = undefined;
        // A worker that exits on its own after a job (memory) has already answered; anything else is a crash.
        finish(
          job.events.map(() => ({
            kind: 'crash',
            detail: `worker exited (${signal ?? code}): ${stderr
              .trim()
              .split('\n')
              .filter((l) => !/^\s+at |^Node\.js v|^\s*$/.test(l))
              .slice(-4)
              .join(' | ')}`,
          })),
          false,
        );
      };
      const timer = setTimeout(
        () =>
          finish(
            job.events.map(() => ({ kind: 'hang', detail: `no answer in ${timeoutMs} ms` })),
            true,
          ),
        timeoutMs,
      );
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(job);
    });
  }

  close(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }
}

/**
 * `svc vrl -p program -i events` in a process of its own. Its exit status and stderr decide: 0 is ok (runtime
 * errors of single events are on stderr, one line each, and the run goes on); 1 with diagnostics is a compile
 * error; a stack trace, a trap text or a signal is bad.
 */
function runCli(job: FuzzJob, dir: string, timeoutMs: number): Promise<Outcome> {
  const programFile = path.join(dir, `p${job.id}.vrl`);
  const eventsFile = path.join(dir, `e${job.id}.ndjson`);
  writeFileSync(programFile, job.program);
  writeFileSync(eventsFile, job.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'vrl', '-p', programFile, '-i', eventsFile, '--timezone', 'UTC'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, SVC_COLOR: 'never' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 20_000) stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      rmSync(programFile, { force: true });
      rmSync(eventsFile, { force: true });
      const firstLine = stderr.trim().split('\n')[0] ?? '';
      if (signal === 'SIGKILL') resolve({ kind: 'hang', detail: `svc vrl: no exit in ${timeoutMs} ms` });
      else if (signal) resolve({ kind: 'crash', detail: `svc vrl: killed by ${signal}` });
      else if (/RuntimeError|a bug in svc/.test(stderr))
        resolve({
          kind: 'trap',
          detail: `svc vrl: ${stderr.split('\n').find((l) => /RuntimeError|a bug in svc/.test(l))}`,
        });
      else if (/\n\s+at .+:\d+:\d+\)?\n/.test(stderr))
        resolve({ kind: 'exception', detail: `svc vrl (exit ${code}): ${firstLine}\n${stderr.slice(0, 2000)}` });
      else if (code === 0) resolve({ kind: stderr ? 'runtime-error' : 'ok', detail: firstLine });
      else if (/^(error|warning)\[E\d+\]|^VRL conditions/m.test(stderr))
        resolve({ kind: 'diagnostic', detail: firstLine });
      else if (/^svc: /.test(firstLine) && stderr.trim().split('\n').length === 1)
        resolve({ kind: 'runtime-error', detail: firstLine });
      else resolve({ kind: 'crash', detail: `svc vrl exited ${code}: ${stderr.slice(0, 2000)}` });
    });
  });
}

/** Kind plus the first line of the detail with numbers and quoted text blanked: one entry per distinct failure. */
function signature(kind: OutcomeKind, detail: string): string {
  const line = detail
    .split('\n')[0]!
    .replace(/"[^"]*"|'[^']*'/g, '"…"')
    .replace(/\d+/g, 'N');
  return `${kind}: ${line}`.slice(0, 300);
}

export async function fuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const summary: FuzzSummary = {
    programs: 0,
    runs: 0,
    counts: { ok: 0, diagnostic: 0, 'runtime-error': 0, crash: 0, hang: 0, trap: 0, exception: 0 },
    failures: new Map(),
    badPrograms: new Map(),
  };
  const deadline = options.seconds === undefined ? Infinity : Date.now() + options.seconds * 1000;
  const limit = options.programs ?? Infinity;
  const source = jobs(options);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'svc-fuzz-'));
  // A cache of its own: the fuzzer's programs must not fill the user's cache, and are removed after.
  const previousCache = process.env.SVC_CACHE_DIR;
  process.env.SVC_CACHE_DIR = path.join(scratch, 'cache');
  const record = (job: FuzzJob, outcome: Outcome, event: unknown) => {
    summary.counts[outcome.kind]++;
    if (!BAD_OUTCOMES.includes(outcome.kind)) return;
    const key = signature(outcome.kind, outcome.detail ?? '');
    const list = summary.failures.get(key) ?? [];
    if (list.length < KEEP_PER_SIGNATURE)
      list.push({
        kind: outcome.kind,
        detail: outcome.detail ?? '',
        origin: job.origin,
        cli: job.cli,
        program: job.program,
        event,
      });
    summary.failures.set(key, list);
    const programKey = `${outcome.kind}\0${job.cli}\0${job.program}`;
    const seen = summary.badPrograms.get(programKey);
    if (seen) seen.count++;
    else
      summary.badPrograms.set(programKey, {
        kind: outcome.kind,
        detail: (outcome.detail ?? '').split('\n')[0]!,
        origin: job.origin,
        cli: job.cli,
        program: job.program,
        count: 1,
      });
  };
  const worker = async () => {
    const process = new Worker();
    try {
      while (summary.programs < limit && Date.now() < deadline) {
        const job = source.next().value as FuzzJob;
        summary.programs++;
        if (job.cli) {
          const outcome = await runCli(job, scratch, options.timeoutMs);
          summary.runs += job.events.length;
          record(job, outcome, job.events[0]);
        } else {
          const outcomes = await process.run(job, options.timeoutMs);
          summary.runs += outcomes.length;
          outcomes.forEach((o, i) => record(job, o, job.events[i]));
        }
        options.progress?.(summary);
      }
    } finally {
      process.close();
    }
  };
  try {
    await Promise.all(Array.from({ length: options.jobs }, worker));
  } finally {
    if (previousCache === undefined) delete process.env.SVC_CACHE_DIR;
    else process.env.SVC_CACHE_DIR = previousCache;
    rmSync(scratch, { recursive: true, force: true });
  }
  return summary;
}
