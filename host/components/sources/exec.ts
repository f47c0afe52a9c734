// The `exec` source: runs a command on a schedule or keeps one running (respawned when it exits), and turns
// its stdout (and stderr) into events through the codec module. A command that cannot start is a counted,
// logged error, retried at the next run.

import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ComponentEnv, Source, SourceContext, SourceDefinition } from '../component.js';
import {
  decodeSettings,
  decodingSchema,
  framingSchema,
  logNamespaceOf,
  logNamespaceOption,
  NEWLINE_FRAMING,
  sourceStamp,
  stampSource,
  SourceDecoder,
  type StampOrigin,
} from '../support/decoding.js';

const uint = () => z.number().int().nonnegative();

const options = z.strictObject({
  mode: z.enum(['scheduled', 'streaming']),
  command: z.array(z.string()).min(1),
  scheduled: z.strictObject({ exec_interval_secs: uint().default(60) }).default({ exec_interval_secs: 60 }),
  streaming: z
    .strictObject({ respawn_on_exit: z.boolean().default(true), respawn_interval_secs: uint().default(5) })
    .default({ respawn_on_exit: true, respawn_interval_secs: 5 }),
  environment: z.record(z.string(), z.string()).optional(),
  clear_environment: z.boolean().default(false),
  working_directory: z.string().optional(),
  include_stderr: z.boolean().default(true),
  maximum_buffer_size_bytes: z.number().int().positive().default(1000000),
  decoding: decodingSchema,
  framing: framingSchema,
  log_namespace: logNamespaceOption,
});

type ExecSourceOptions = z.infer<typeof options>;

const SOURCE_TYPE = 'exec';

class ExecSource implements Source {
  private readonly decoder: SourceDecoder;
  private readonly origin: StampOrigin;

  constructor(
    private readonly options: ExecSourceOptions,
    private readonly env: ComponentEnv,
  ) {
    this.origin = { sourceType: SOURCE_TYPE, logNamespace: logNamespaceOf(env, options.log_namespace) };
    this.decoder = new SourceDecoder(
      env,
      decodeSettings(options.decoding, options.framing, NEWLINE_FRAMING, env, this.origin.logNamespace),
    );
  }

  async run(context: SourceContext): Promise<void> {
    const { shutdown } = context;
    while (!shutdown.aborted) {
      const started = Date.now();
      const ran = await this.runCommand(context);
      let waitMs: number;
      if (this.options.mode === 'scheduled')
        waitMs = this.options.scheduled.exec_interval_secs * 1000 - (Date.now() - started);
      else if (!this.options.streaming.respawn_on_exit && ran) return;
      else waitMs = this.options.streaming.respawn_interval_secs * 1000;
      if (waitMs > 0) await sleep(waitMs, undefined, { signal: shutdown }).catch(() => undefined);
    }
  }

  /** Runs the command once, to its end (or shutdown, which sends it SIGTERM). False when it did not start. */
  private runCommand(context: SourceContext): Promise<boolean> {
    const [program, ...args] = this.options.command as [string, ...string[]];
    const environment = this.options.clear_environment
      ? { ...this.options.environment }
      : { ...process.env, ...this.options.environment };
    return new Promise((resolve) => {
      const child = spawn(program, args, {
        cwd: this.options.working_directory,
        env: environment,
        stdio: ['ignore', 'pipe', this.options.include_stderr ? 'pipe' : 'ignore'],
      });
      const kill = () => child.kill('SIGTERM');
      context.shutdown.addEventListener('abort', kill, { once: true });
      let failed = false;
      child.once('error', (error) => {
        failed = true;
        this.env.telemetry.error('command_failed', 'receiving');
        this.env.log.error(`Unable to exec ${JSON.stringify(this.options.command.join(' '))}: ${error.message}`, {
          command: this.options.command.join(' '),
        });
      });
      const streams = [this.readStream(child.stdout!, 'stdout', child.pid, context)];
      if (child.stderr) streams.push(this.readStream(child.stderr, 'stderr', child.pid, context));
      const exited = new Promise<void>((done) => child.once('close', () => done()));
      void Promise.all([...streams, exited]).then(() => {
        context.shutdown.removeEventListener('abort', kill);
        resolve(!failed);
      });
    });
  }

  /** Decodes a stream as it comes; bytes after the last complete frame wait for more (up to
   * `maximum_buffer_size_bytes`, then they are a frame), and the rest is a frame at the end. */
  private async readStream(
    stream: Readable,
    name: 'stdout' | 'stderr',
    pid: number | undefined,
    context: SourceContext,
  ): Promise<void> {
    const frames = this.decoder.stream(this.options.maximum_buffer_size_bytes);
    const stamp = () => {
      const fields = sourceStamp(this.env, this.origin);
      stampSource(fields, this.origin, 'command', ['command'], this.options.command);
      stampSource(fields, this.origin, 'pid', ['pid'], pid ?? null);
      return stampSource(fields, this.origin, 'data_stream', ['data_stream'], name);
    };
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>)
        for (const batch of frames.push(chunk, stamp())) await context.send(batch);
    } catch (error) {
      this.env.telemetry.error('reading_failed', 'receiving');
      this.env.log.error(`Failed reading ${name} of ${this.options.command.join(' ')}: ${(error as Error).message}`);
    }
    for (const batch of frames.end(stamp())) await context.send(batch);
  }
}

const exec: SourceDefinition<ExecSourceOptions> = {
  kind: 'source',
  type: SOURCE_TYPE,
  description: 'Collect output from a process running on the host.',
  options,
  outputs: () => [{ name: undefined, kinds: ['log', 'metric', 'trace'] }],
  async build(options, env) {
    return new ExecSource(options, env);
  },
};

export default exec;
