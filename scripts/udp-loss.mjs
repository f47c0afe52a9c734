// `npm run build && node scripts/udp-loss.mjs [--source syslog|socket] [--count N] [--rate PER_MS]`
// (SVC_ROOT=DIR: another build's checkout, to compare). How many UDP datagrams a pipeline delivers: svc runs
// a UDP source (syslog lines, or JSON lines for `socket`) → file sink on a loopback port, one peer sends
// `count` datagrams at `rate` per millisecond, and the file is counted once the pipeline has had time to
// drain. Prints the share delivered and the source's own drop warnings; UDP promises nothing, so this is a
// measurement, not a test (the kernel, the source's queue and the pipeline's speed all decide).
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    source: { type: 'string', default: 'syslog' },
    count: { type: 'string', default: '100000' },
    rate: { type: 'string', default: '50' },
  },
});
const root = process.env.SVC_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const count = Number(values.count);
const perMs = Number(values.rate);
const work = mkdtempSync(path.join(tmpdir(), 'svc-udp-'));
const out = path.join(work, 'out.ndjson');

const socket = createSocket('udp4');
await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
const port = socket.address().port;
socket.close();
const address = `127.0.0.1:${port}`;
const source =
  values.source === 'syslog'
    ? { type: 'syslog', mode: 'udp', address }
    : { type: 'socket', mode: 'udp', address, decoding: { codec: 'json' } };
const config = path.join(work, 'config.json');
writeFileSync(
  config,
  JSON.stringify({
    sources: { in: source },
    sinks: { out: { type: 'file', inputs: ['in'], path: out, encoding: { codec: 'json' } } },
  }),
);
const child = spawn(process.execPath, [path.join(root, 'dist/bin/svc.js'), '-q', '--config', config], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));
await new Promise((resolve) => setTimeout(resolve, 1500));

const datagrams = Array.from({ length: count }, (_, i) => {
  const event = JSON.stringify({ message: `request ${i}`, seq: i, host: `web-${i % 10}` });
  return Buffer.from(
    values.source === 'syslog' ? `<13>1 2020-03-13T20:45:38.119Z host${i % 10} app 1 ID - ${event}` : event,
  );
});
const sender = createSocket('udp4');
const started = Date.now();
for (let sent = 0; sent < count; ) {
  for (const end = Math.min(count, sent + perMs); sent < end; sent++) sender.send(datagrams[sent], port, '127.0.0.1');
  await new Promise((resolve) => setTimeout(resolve, 1));
}
const sendMs = Date.now() - started;
await new Promise((resolve) => setTimeout(resolve, 2500));
child.kill('SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));
sender.close();
const delivered = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean).length : 0;
const drops = (stderr.match(/Datagrams dropped/g) ?? []).length;
console.log(
  `${values.source}: ${count} datagrams in ${sendMs} ms (${Math.round(count / sendMs)}k/s), ` +
    `${delivered} delivered (${((100 * delivered) / count).toFixed(1)}%), source drop warnings: ${drops}`,
);
rmSync(work, { recursive: true, force: true });
