// `svc top` as a person sees it: the dashboard in a real terminal (tmux) against a live instance whose
// pipeline keeps producing — components, moving counters, -H, --components, resizing, the quit keys,
// reconnection — and its exit statuses (64 bad URL, 74 no terminal, 69 API unreachable).

import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApiInstance, type ApiInstance } from '../host/api/support.js';
import { freePort, main, startSvc, tempDir, type SvcRun } from '../host/support/svc.js';
import { svc, svcEnv } from './support/svc.js';
import { hasTmux, TmuxSession } from './support/tmux.js';

const PIPELINE = `sources:
  demo:
    type: demo_logs
    format: json
    interval: 0.01
transforms:
  parse:
    type: remap
    inputs: [demo]
    source: . = parse_json!(.message)
  split:
    type: route
    inputs: [parse]
    route:
      get: .method == "GET"
sinks:
  out:
    type: blackhole
    inputs: [split.get, split._unmatched]
`;

/** Waits for a screen, long enough for a busy machine; they come every second when all is well. */
const SCREEN_TIMEOUT_MS = 45000;

/**
 * The environment of top in tmux: svc's, without the variables by which ink believes it runs in CI (it then
 * draws only the last frame, at exit); a person's terminal has none of them.
 */
function terminalEnv(): NodeJS.ProcessEnv {
  const { CI: _ci, CONTINUOUS_INTEGRATION: _continuous, ...env } = svcEnv();
  return env;
}

function startTop(args: string[], columns = 160, rows = 40): TmuxSession {
  return new TmuxSession([process.execPath, main, 'top', ...args], columns, rows, terminalEnv());
}

/** The cells of the table line of component `id` (columns are two or more spaces apart), or undefined. */
function cells(screen: string, id: string): string[] | undefined {
  const line = screen.split('\n').find((each) => each.startsWith(`│ ${id} `));
  return line
    ?.replace(/^│ /, '')
    .replace(/\s*│$/, '')
    .split(/\s{2,}/);
}

/** The total in a cell such as `1,234 (56/s)`; 0 for N/A or a missing line. */
function total(cell: string | undefined): number {
  const match = /^([\d,]+) \(/.exec(cell ?? '');
  return match ? Number(match[1]!.replace(/,/g, '')) : 0;
}

/** The Events Out total of component `id`. */
const eventsOut = (screen: string, id: string) => total(cells(screen, id)?.[6]);

if (!hasTmux()) {
  console.log('tmux is not installed: the tests of svc top in a terminal do not run');
} else {
  let api: ApiInstance;
  test.before(async () => {
    api = await startApiInstance(PIPELINE);
  });
  test.after(async () => {
    await api.stop();
  });

  test('top shows the components, sorted by id with their named outputs, and counters that move; it redraws to a new size; q quits', async () => {
    const url = `${api.base}/graphql`;
    const top = startTop(['--url', url]);
    try {
      const first = await top.waitForScreen(
        (screen) => screen.includes('Connected') && eventsOut(screen, 'demo') > 0,
        'the components with counts',
        SCREEN_TIMEOUT_MS,
      );
      assert.ok(first.includes(`svc top | ${url} | Sampling @ 1,000ms | Connected (since `), first);
      assert.match(first, /│ ID\s+Output\s+Kind\s+Type\s+Events In\s+Bytes In\s+Events Out\s+Bytes Out\s+Errors\s+│/);
      assert.equal(cells(first, 'demo')!.slice(0, 4), ['demo', '--', 'source', 'demo_logs']);
      // A source counts the events it received (component_received_events_total), as Vector's do.
      assert.match(cells(first, 'demo')![4]!, /^[\d,]+ \(([\d,]+|--)\/s\)$/);
      assert.match(cells(first, 'demo')![5]!, /^[\d,]+ \((--|[\d.]+ (B|KiB|MiB))\/s\)$/);
      assert.equal(cells(first, 'parse')!.slice(0, 4), ['parse', '--', 'transform', 'remap']);
      assert.equal(cells(first, 'split')!.slice(0, 3), ['split', 'transform', 'route']);
      assert.equal(cells(first, 'out')!.slice(0, 4), ['out', '--', 'sink', 'blackhole']);
      const lines = first.split('\n');
      const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
      assert.ok(
        at(/^│ demo /) < at(/^│ out /) && at(/^│ out /) < at(/^│ parse /) && at(/^│ parse /) < at(/^│ split /),
        first,
      );
      // The route's outputs, on the lines under it, with their own Events Out.
      assert.is(at(/^│\s+_unmatched\s{2,}(N\/A|[\d,]+ \()/), at(/^│ split /) + 1, first);
      assert.is(at(/^│\s+get\s{2,}(N\/A|[\d,]+ \()/), at(/^│ split /) + 2, first);

      const before = eventsOut(first, 'demo');
      const later = await top.waitForScreen(
        (screen) =>
          eventsOut(screen, 'demo') > before &&
          /^[\d,]+ \(([1-9]\d*|\d+\.\d\d k)\/s\)$/.test(cells(screen, 'out')?.[4] ?? ''),
        'the counters to grow, with a rate',
        SCREEN_TIMEOUT_MS,
      );
      assert.ok(total(cells(later, 'parse')![4]) > 0, later);

      top.resize(100, 30);
      const narrow = await top.waitForScreen(
        (screen) => screen.split('\n')[0] === `┌${'─'.repeat(98)}┐`,
        'a redraw 100 columns wide',
        SCREEN_TIMEOUT_MS,
      );
      assert.ok(
        narrow.split('\n').every((line) => line.length <= 100),
        narrow,
      );
      assert.ok(cells(narrow, 'demo') && cells(narrow, 'split'), narrow);

      top.sendKeys('q');
      await top.waitForScreen((screen) => screen.includes('[exit 0]'), 'top to quit on q', SCREEN_TIMEOUT_MS);
    } finally {
      top.kill();
    }
  });

  test('-H shows counts with SI suffixes and bytes in binary units; Esc quits', async () => {
    const top = startTop(['-H', '-u', `${api.base}/graphql`]);
    try {
      const screen = await top.waitForScreen(
        (text) =>
          /^\d+\.\d\d k \(/.test(cells(text, 'parse')?.[4] ?? '') &&
          /^\d+\.\d\d (KiB|MiB) \((\d+ B|\d+\.\d\d KiB)\/s\)$/.test(cells(text, 'demo')?.[5] ?? ''),
        'humanized metrics',
        SCREEN_TIMEOUT_MS,
      );
      assert.match(cells(screen, 'out')![4]!, /^\d+\.\d\d k \((\d+|--)\/s\)$/);
      top.sendKeys('Escape');
      await top.waitForScreen((text) => text.includes('[exit 0]'), 'top to quit on Esc', SCREEN_TIMEOUT_MS);
    } finally {
      top.kill();
    }
  });

  test('--components shows only the ids its globs match; Ctrl-C quits', async () => {
    const top = startTop(['--components', 'sp*,out', '--url', `${api.base}/graphql`, '--interval', '500']);
    try {
      const screen = await top.waitForScreen(
        (text) => cells(text, 'split') !== undefined && cells(text, 'out') !== undefined,
        'split and out',
        SCREEN_TIMEOUT_MS,
      );
      assert.ok(screen.includes('Sampling @ 500ms'), screen);
      assert.is(cells(screen, 'demo'), undefined, screen);
      assert.is(cells(screen, 'parse'), undefined, screen);
      top.sendKeys('C-c');
      await top.waitForScreen((text) => text.includes('[exit 0]'), 'top to quit on Ctrl-C', SCREEN_TIMEOUT_MS);
    } finally {
      top.kill();
    }
  });

  test('an error the API answers with (an interval it refuses) shows under the header; SIGTERM ends top as quitting does', async () => {
    const top = startTop(['--interval', '5', '--url', `${api.base}/graphql`]);
    try {
      await top.waitForScreen(
        (text) => /^Last error: .*\binterval\b/m.test(text) && cells(text, 'demo') !== undefined,
        'the error',
        SCREEN_TIMEOUT_MS,
      );
      top.signal('SIGTERM');
      // The shell's screen is back: it shows only what the shell printed.
      await top.waitForScreen((text) => text.trim() === '[exit 0]', 'top to end', SCREEN_TIMEOUT_MS);
    } finally {
      top.kill();
    }
  });

  test('when the instance goes away top says Disconnected and reconnects once it is back; with -n it exits 69', async () => {
    const port = await freePort();
    const dir = tempDir();
    const config = join(dir, 'svc.yaml');
    writeFileSync(config, `api:\n  enabled: true\n  address: 127.0.0.1:${port}\n${PIPELINE}`);
    const startInstance = async (): Promise<SvcRun> => {
      const run = startSvc(['--config', config]);
      await run.waitForStderr(/API server running/);
      return run;
    };
    const url = `http://127.0.0.1:${port}/graphql`;
    let instance = await startInstance();
    const top = startTop(['--url', url]);
    const once = startTop(['--no-reconnect', '--url', url]);
    try {
      for (const session of [top, once]) {
        await session.waitForScreen(
          (screen) => screen.includes('Connected') && cells(screen, 'demo') !== undefined,
          'the dashboard',
          SCREEN_TIMEOUT_MS,
        );
      }
      instance.child.kill('SIGTERM');
      await instance.exited;
      await top.waitForScreen(
        (screen) => screen.includes('Disconnected (reconnecting every 5 seconds)'),
        'Disconnected',
        SCREEN_TIMEOUT_MS,
      );
      const lost = await once.waitForScreen(
        (screen) => screen.includes('[exit 69]'),
        'top -n to exit',
        SCREEN_TIMEOUT_MS,
      );
      assert.ok(lost.includes(`svc: lost the connection to the API at ${url}: `), lost);

      instance = await startInstance();
      await top.waitForScreen(
        (screen) => screen.includes('Connected (since') && eventsOut(screen, 'demo') > 0,
        'the dashboard reconnected',
        SCREEN_TIMEOUT_MS,
      );
      top.sendKeys('q');
      await top.waitForScreen((screen) => screen.includes('[exit 0]'), 'top to quit', SCREEN_TIMEOUT_MS);
    } finally {
      top.kill();
      once.kill();
      instance.child.kill('SIGTERM');
      await instance.exited;
    }
  });

  test('an API that cannot be reached at start: one line and status 69, with or without -n', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/graphql`;
    for (const flags of [['-n'], []]) {
      const top = startTop([...flags, '--url', url]);
      try {
        const screen = await top.waitForScreen((text) => text.includes('[exit 69]'), 'exit 69', SCREEN_TIMEOUT_MS);
        assert.ok(
          screen.startsWith(
            `svc: the API at ${url} is not reachable: connect ECONNREFUSED 127.0.0.1:${port} (is api.enabled true in the instance's configuration?)\n[exit 69]`,
          ),
          screen,
        );
      } finally {
        top.kill();
      }
    }
  });
}

test('a bad --url or --interval is a usage error (64)', () => {
  for (const [args, message] of [
    [['--url', 'localhost:8686'], "svc: invalid --url 'localhost:8686': expected an http:// or https:// URL\n"],
    [['--url', 'not a url'], "svc: invalid --url 'not a url': not a URL\n"],
    [['--interval', '0'], "svc: invalid --interval '0': expected a positive whole number of milliseconds\n"],
  ] as const) {
    const { status, stderr } = svc(['top', ...args]);
    assert.is(stderr, message);
    assert.is(status, 64);
  }
});

test('without a terminal top exits 74', () => {
  const { status, stderr } = svc(['top']);
  assert.is(stderr, 'svc: top needs a terminal (a TTY on stdin and stdout) to display its dashboard\n');
  assert.is(status, 74);
});

test.run();
