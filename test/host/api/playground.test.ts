// GET /playground: the bundled GraphiQL with its content types and caching, served only with both
// api.graphql and api.playground; and the page in a real headless Chromium (Debian's package, driven by
// playwright-core) running a query and a subscription against a live instance, loading nothing from
// elsewhere. Without Chromium the browser tests are skipped with a note, except under CI, where that fails.

import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { query, startApiInstance, type ApiInstance } from './support.js';

const CHROMIUM = '/usr/bin/chromium';
/** Generous: only catches a hang (a cold Chromium on a busy machine takes seconds). */
const BROWSER_TIMEOUT_MS = 60000;

const PIPELINE = `sources:
  in:
    type: stdin
transforms:
  shape:
    type: remap
    inputs: [in]
    source: .seen = true
sinks:
  out:
    type: blackhole
    inputs: [shape]
`;

const COMPONENTS = '{ components(first: 10) { edges { node { componentId } } } }';

let api: ApiInstance;
/** Launched by the first browser test. */
let browser: Browser | undefined;
test.before(async () => {
  api = await startApiInstance(PIPELINE);
});
test.after(async () => {
  await browser?.close();
  await api.stop();
});

/** The script and stylesheet the page loads. */
function assets(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/playground\/[^"]+)"/g)].map((match) => match[1]!);
}

test('GET /playground is the page, revalidated on each load; its assets are cached for good', async () => {
  const page = await fetch(`${api.base}/playground`);
  assert.is(page.status, 200);
  assert.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.is(page.headers.get('cache-control'), 'no-cache');
  const html = await page.text();
  const [stylesheet, script] = assets(html);
  assert.match(stylesheet!, /\.css$/);
  assert.match(script!, /\.js$/);
  const types = { [stylesheet!]: 'text/css; charset=utf-8', [script!]: 'text/javascript; charset=utf-8' };
  for (const [path, type] of Object.entries(types)) {
    const plain = await fetch(`${api.base}${path}`, { headers: { 'accept-encoding': 'identity' } });
    assert.is(plain.status, 200, path);
    assert.is(plain.headers.get('content-type'), type);
    assert.is(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.is(plain.headers.get('content-encoding'), null);
    const gzipped = await fetch(`${api.base}${path}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.is(gzipped.headers.get('content-encoding'), 'gzip');
    assert.is(await gzipped.text(), await plain.text());
  }
  const head = await fetch(`${api.base}/playground`, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(await head.text(), '');
  assert.is((await fetch(`${api.base}/playground/index.html`)).status, 404);
});

test('the start-up log names the playground URL', () => {
  assert.ok(api.run.stderr().includes(`playground=${api.base}/playground`), api.run.stderr());
});

test('with api.playground false, or api.graphql false, there is no /playground', async () => {
  for (const options of ['playground: false', 'graphql: false']) {
    const other = await startApiInstance(PIPELINE, options);
    try {
      assert.is((await fetch(`${other.base}/playground`)).status, 404, options);
      assert.ok(other.run.stderr().includes('playground=disabled'), other.run.stderr());
    } finally {
      await other.stop();
    }
  }
});

/**
 * Opens the playground with `operation` in its editor and runs it. Every request of the page goes to the
 * instance and succeeds, and the page raises no error (collected into `problems`).
 */
async function runInPlayground(operation: string, problems: string[]): Promise<Page> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM });
  const page = await browser.newPage();
  page.setDefaultTimeout(BROWSER_TIMEOUT_MS);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('request', (request) => {
    if (!request.url().startsWith(`${api.base}/`)) problems.push(`request outside the instance: ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('websocket', (socket) => {
    if (socket.url() !== api.ws) problems.push(`WebSocket outside /graphql: ${socket.url()}`);
  });
  await page.goto(`${api.base}/playground?query=${encodeURIComponent(operation)}`);
  await page.getByRole('button', { name: /Execute query/ }).click();
  return page;
}

/** The text of the result pane (CodeMirror indents with no-break spaces). */
async function shownText(result: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, line breaks included
  return (await result.innerText()).replaceAll('\u00a0', ' ');
}

const chromiumMissing = !existsSync(CHROMIUM);
if (chromiumMissing && process.env.CI === 'true') {
  test('Chromium is installed (CI)', () => {
    assert.unreachable(
      `${CHROMIUM} is missing: the playground's browser tests cannot run (.ci/run installs Debian's chromium)`,
    );
  });
} else if (chromiumMissing) {
  console.log(
    `playground.test: the browser tests did not run: ${CHROMIUM} is missing (Debian: apt-get install chromium)`,
  );
}
const browserTest = chromiumMissing ? test.skip : test;

browserTest('in Chromium, the playground runs a components query and shows the component ids', async () => {
  // The same query over HTTP, to compare with what the page shows.
  const expected = await query(api.base, COMPONENTS);
  assert.is(expected.body.errors, undefined);
  const problems: string[] = [];
  const page = await runInPlayground(COMPONENTS, problems);
  const result = page.locator('.result-window');
  await result.getByText('"componentId"').first().waitFor();
  const shown = JSON.parse(await shownText(result));
  assert.equal(shown, expected.body);
  const ids = shown.data.components.edges.map((edge: { node: { componentId: string } }) => edge.node.componentId);
  assert.equal(ids.sort(), ['in', 'out', 'shape']);
  assert.equal(problems, []);
  await page.close();
});

browserTest(
  'in Chromium, the playground runs a heartbeat subscription over the WebSocket and shows each beat',
  async () => {
    const problems: string[] = [];
    const page = await runInPlayground('subscription { heartbeat(interval: 200) { utc } }', problems);
    const result = page.locator('.result-window');
    // The pane shows the latest beat, redrawn as each arrives: read the time, not the whole document.
    const shownUtc = async () => /"utc": "([^"]+)"/.exec(await shownText(result))?.[1];
    await result.getByText('"utc"').waitFor();
    const first = await shownUtc();
    assert.ok(first !== undefined && !Number.isNaN(Date.parse(first)), first);
    await result.getByText(first!).first().waitFor({ state: 'detached' });
    const later = await result.getByText('"utc"').waitFor().then(shownUtc);
    assert.ok(later !== undefined && Date.parse(later) > Date.parse(first!), `${later} after ${first}`);
    assert.equal(problems, []);
    await page.close();
  },
);

test.run();
