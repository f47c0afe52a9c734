// The influxdb_logs sink: v1 into a real InfluxDB 1.x (read back with /query), v2 against a local server
// checking the wire format (path, org, bucket, precision, `Authorization: Token`, the exact line: tags from
// `tags`, host, source type and metric_type, fields flattened and typed, the timestamp in nanoseconds).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import influxDbLogs, { buildInfluxDbLogsSink } from '../../../../host/components/sinks/influxdb_logs.js';
import { Timestamp } from '../../../../runtime/index.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { httpTarget, instantTimer } from '../../support/http-target.js';
import { startInfluxDbServer } from '../../support/influxdb-server.js';

const T = 1_542_182_950_000_000_011n;

async function build(options: object) {
  const env = componentEnv(influxDbLogs);
  const sink = await buildInfluxDbLogsSink(
    influxDbLogs.options.parse({ measurement: 'vector-logs', ...options }),
    env,
    instantTimer().timer,
  );
  return { env, sink };
}

/** A v2 write to `uri`. */
const v2 = (uri: string) => ({ endpoint: uri, org: 'o', bucket: 'b', token: 't' });

test('v2: /api/v2/write with org, bucket, precision and the token; tags, typed and flattened fields, escaping', async () => {
  const target = await httpTarget(() => ({ status: 204 }));
  const { sink } = await build({ ...v2(target.uri), tags: ['app', 'nested.k'] });
  await sink.write(
    logBatch([
      {
        message: 'say "hi", \\ ok',
        host: 'box 1',
        source_type: 'demo',
        app: 'web',
        timestamp: new Timestamp(T),
        count: 3n,
        ratio: 0.5,
        ok: true,
        nested: { k: 'v', 'odd key': 1n },
        list: ['x', 2n],
      },
    ]),
  );
  await sink.close();
  await target.close();
  const request = target.requests[0]!;
  assert.is(request.url, '/api/v2/write?org=o&bucket=b&precision=ns');
  assert.is(request.headers.authorization, 'Token t');
  assert.is(
    request.body.toString(),
    'vector-logs,app=web,host=box\\ 1,metric_type=logs,nested.k=v,source_type=demo ' +
      'count=3i,list[0]="x",list[1]=2i,message="say \\"hi\\", \\\\ ok",nested."odd\\ key"=1i,ok=true,ratio=0.5 ' +
      `${T}\n`,
  );
});

test('encoding: except_fields and only_fields leave fields out, timestamp_format writes other timestamps as numbers', async () => {
  const target = await httpTarget(() => ({ status: 204 }));
  const { sink } = await build({
    ...v2(target.uri),
    encoding: {
      only_fields: ['message', 'seen', 'nested'],
      except_fields: ['nested.drop'],
      timestamp_format: 'unix_ms',
    },
  });
  await sink.write(
    logBatch([
      {
        message: 'm',
        other: 'x',
        seen: new Timestamp(1_500_000_000n),
        nested: { keep: 1n, drop: 2n },
        timestamp: new Timestamp(T),
      },
    ]),
  );
  await sink.close();
  await target.close();
  assert.is(target.requests[0]!.body.toString(), `vector-logs message="m",nested.keep=1i,seen=1500i ${T}\n`);
});

test('message_key renames the message field; an object left empty by except_fields is a field of its own', async () => {
  const target = await httpTarget(() => ({ status: 204 }));
  const { sink } = await build({
    ...v2(target.uri),
    message_key: 'msg',
    encoding: { except_fields: ['nested.drop'] },
  });
  const event = { message: 'm', nested: { drop: 2n }, timestamp: new Timestamp(T) };
  await sink.write(logBatch([event, { ...event, message: 'n' }]));
  await sink.close();
  await target.close();
  assert.is(
    target.requests[0]!.body.toString(),
    `vector-logs,metric_type=logs msg="m",nested="{}" ${T}\nvector-logs,metric_type=logs msg="n",nested="{}" ${T}\n`,
  );
});

test('v1 into InfluxDB: each event a point of the measurement, read back with its tags and fields', async () => {
  const influx = await startInfluxDbServer();
  try {
    await influx.query('CREATE DATABASE logs');
    const { sink, env } = await build({
      endpoint: `${influx.url}/`,
      database: 'logs',
      tags: ['app'],
      encoding: { except_fields: ['secret'] },
    });
    await sink.write(
      logBatch([
        { message: 'one', host: 'h', app: 'a', secret: 's', timestamp: new Timestamp(T) },
        { message: 'two', host: 'h', app: 'b', level: 7n, timestamp: new Timestamp(T + 1000n) },
        // Nothing but tags: no fields, the line cannot be written.
        { timestamp: new Timestamp(T), host: 'h' },
      ]),
    );
    await sink.close();
    assert.equal(await influx.query('SELECT * FROM "vector-logs"', 'logs'), {
      results: [
        {
          statement_id: 0,
          series: [
            {
              name: 'vector-logs',
              columns: ['time', 'app', 'host', 'level', 'message', 'metric_type'],
              values: [
                [Number(T), 'a', 'h', null, 'one', 'logs'],
                [Number(T + 1000n), 'b', 'h', 7, 'two', 'logs'],
              ],
            },
          ],
        },
      ],
    });
    assert.is(env.metrics.total('component_errors_total', { error_type: 'encoder_failed' }), 1);
  } finally {
    await influx.stop();
  }
});

test.run();
