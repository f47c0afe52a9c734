import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import type { RawConfig } from '../../../host/config/load.js';
import { ComponentRegistry, validateConfig, type ComponentSchema } from '../../../host/config/schema.js';

const stdin: ComponentSchema = {
  kind: 'source',
  type: 'stdin',
  description: 'Reads stdin',
  options: z.strictObject({ max_length: z.number().int().positive().default(102400) }),
};
const remap: ComponentSchema = {
  kind: 'transform',
  type: 'remap',
  description: 'Runs a remap program',
  options: z.strictObject({ source: z.string(), drop_on_error: z.boolean().default(false) }),
};
const console_: ComponentSchema = {
  kind: 'sink',
  type: 'console',
  description: 'Writes to stdout',
  options: z.strictObject({
    encoding: z.strictObject({ codec: z.enum(['json', 'text', 'logfmt']) }),
    target: z.enum(['stdout', 'stderr']).default('stdout'),
  }),
};
const registry = new ComponentRegistry().register(stdin).register(remap).register(console_);

/** A RawConfig as the loader builds it, every piece from `file`. */
function raw(
  sections: Partial<
    Record<'sources' | 'transforms' | 'sinks' | 'enrichment_tables' | 'secret', Record<string, Record<string, unknown>>>
  >,
  global: Record<string, unknown> = {},
  file = 'svc.yaml',
): RawConfig {
  const section = (name: keyof typeof sections) =>
    new Map(Object.entries(sections[name] ?? {}).map(([id, table]) => [id, { id, file, table }]));
  return {
    global,
    globalOrigins: new Map(Object.keys(global).map((k) => [k, file])),
    sections: {
      sources: section('sources'),
      transforms: section('transforms'),
      sinks: section('sinks'),
      enrichment_tables: section('enrichment_tables'),
      secret: section('secret'),
    },
    tests: [],
    files: [file],
    secrets: [],
  };
}

const minimal = {
  sources: { in: { type: 'stdin' } },
  sinks: { out: { type: 'console', inputs: ['in'], encoding: { codec: 'json' } } },
};

test('a valid config gets every default, global and common', () => {
  const { config, errors } = validateConfig(raw(minimal), registry);
  assert.equal(errors, []);
  const g = config!.global;
  assert.is(g.data_dir, '/var/lib/svc/');
  assert.equal(g.api, { address: '127.0.0.1:8686', enabled: false, graphql: true, playground: true });
  assert.equal(g.healthchecks, { enabled: true, require_healthy: false });
  assert.equal(g.log_schema, {
    host_key: '.host',
    message_key: '.message',
    metadata_key: '.metadata',
    source_type_key: '.source_type',
    timestamp_key: '.timestamp',
  });
  assert.equal(g.acknowledgements, {});
  assert.equal(
    [g.buffer_utilization_ewma_alpha, g.expire_metrics_secs, g.timezone, g.wildcard_matching],
    [0.9, 300, 'local', 'strict'],
  );
  assert.equal(g.proxy, { enabled: true, no_proxy: [] });
  assert.equal(g.schema, { log_namespace: false });
  assert.equal(g.telemetry, { tags: { emit_service: false, emit_source: false } });
  const out = config!.sinks.get('out')!;
  assert.equal(out, {
    id: 'out',
    kind: 'sink',
    type: 'console',
    file: 'svc.yaml',
    options: { encoding: { codec: 'json' }, target: 'stdout' },
    inputs: ['in'],
    graph: { node_attributes: {} },
    buffer: { type: 'memory', max_events: 500, when_full: 'block' },
    healthcheck: { enabled: true, timeout: 10 },
  });
  assert.equal(config!.sources.get('in')!.options, { max_length: 102400 });
});

test('common sink options: buffers, healthcheck, acknowledgements, proxy, graph', () => {
  const { config, errors } = validateConfig(
    raw({
      sources: {
        in: { type: 'stdin', proxy: { http: 'http://proxy:3128' }, graph: { node_attributes: { color: 'red' } } },
      },
      sinks: {
        a: {
          type: 'console',
          inputs: ['in'],
          encoding: { codec: 'text' },
          buffer: { type: 'disk', max_size: 268435488, when_full: 'drop_newest' },
          acknowledgements: true,
        },
        b: {
          type: 'console',
          inputs: ['in'],
          encoding: { codec: 'text' },
          buffer: { max_size: 1000 },
          healthcheck: { enabled: false, uri: 'http://h:1/x' },
          acknowledgements: { enabled: false },
        },
      },
    }),
    registry,
  );
  assert.equal(errors, []);
  assert.equal(config!.sources.get('in')!.proxy, { enabled: true, http: 'http://proxy:3128', no_proxy: [] });
  assert.equal(config!.sources.get('in')!.graph, { node_attributes: { color: 'red' } });
  const a = config!.sinks.get('a')!;
  const b = config!.sinks.get('b')!;
  assert.equal(
    [a.buffer, a.acknowledgements],
    [{ type: 'disk', max_size: 268435488, when_full: 'drop_newest' }, { enabled: true }],
  );
  assert.equal(
    [b.buffer, b.healthcheck, b.acknowledgements],
    [
      { type: 'memory', max_size: 1000, when_full: 'block' },
      { enabled: false, timeout: 10, uri: 'http://h:1/x' },
      { enabled: false },
    ],
  );
});

test('a type owning a common option (ownCommon) validates it and gets it among its options', () => {
  const hec: ComponentSchema = {
    kind: 'sink',
    type: 'hec',
    description: 'A sink with acknowledgement options of its own',
    options: z.strictObject({
      acknowledgements: z
        .strictObject({ enabled: z.boolean().optional(), query_interval: z.number().default(10) })
        .prefault({}),
    }),
    ownCommon: ['acknowledgements'],
  };
  const owning = new ComponentRegistry().register(stdin).register(hec);
  const { config, errors } = validateConfig(
    raw({
      sources: { in: { type: 'stdin' } },
      sinks: { out: { type: 'hec', inputs: ['in'], acknowledgements: { enabled: true, query_interval: 2 } } },
    }),
    owning,
  );
  assert.equal(errors, []);
  const out = config!.sinks.get('out')!;
  assert.equal(out.acknowledgements, { enabled: true, query_interval: 2 });
  assert.equal(out.options, { acknowledgements: { enabled: true, query_interval: 2 } });
  const refused = validateConfig(
    raw({
      sources: { in: { type: 'stdin' } },
      sinks: { out: { type: 'hec', inputs: ['in'], acknowledgements: { query: 1 } } },
    }),
    owning,
  );
  assert.equal(refused.errors, ['svc.yaml: sinks.out: unknown option "acknowledgements.query"']);
});

test('every problem is reported at once, naming file, component and option, with suggestions', () => {
  const { config, errors } = validateConfig(
    raw({
      sources: { in: { type: 'stdn' }, other: { type: 'stdin', max_lenght: 5 } },
      transforms: { t: { type: 'remap', inputs: [], source: 3 }, r: { type: 'reduce', inputs: ['in'] } },
      sinks: {
        out: { type: 'console', inputs: ['t'], encodng: { codec: 'json' } },
        o2: { type: 'console', inputs: ['t'], encoding: { codec: 'jsn' }, buffer: { type: 'dsk', max_evnts: 1 } },
        o3: {
          type: 'console',
          inputs: ['t'],
          encoding: { codec: 'json' },
          buffer: { type: 'disk', max_size: 10 },
          healthcheck: { timeout: '5s', uri: 'nohost' },
        },
        o4: { inputs: ['t'] },
      },
    }),
    registry,
  );
  assert.is(config, undefined);
  assert.equal(errors, [
    'svc.yaml: sources.in: unknown source type "stdn"; did you mean "stdin"?',
    'svc.yaml: sources.other: unknown option "max_lenght"; did you mean "max_length"?',
    'svc.yaml: transforms.t: option "source": expected string, got number',
    'svc.yaml: transforms.t: option "inputs": expected at least 1 item',
    'svc.yaml: transforms.r: unknown transform type "reduce"',
    'svc.yaml: sinks.out: missing required option "encoding"',
    'svc.yaml: sinks.out: unknown option "encodng"; did you mean "encoding"?',
    'svc.yaml: sinks.o2: option "encoding.codec": expected one of "json", "text", "logfmt", got "jsn"; did you mean "json"?',
    'svc.yaml: sinks.o2: option "buffer.type": expected one of "memory", "disk", got "dsk"; did you mean "disk"?',
    'svc.yaml: sinks.o3: option "buffer.max_size": expected a number >= 268435488, got 10',
    'svc.yaml: sinks.o3: option "healthcheck.timeout": expected number, got "5s"',
    'svc.yaml: sinks.o3: option "healthcheck.uri": expected a URI with a scheme and a host, got "nohost"',
    'svc.yaml: sinks.o4: missing required option "type"',
  ]);
});

test('nested unknown options suggest the full path; memory buffers take events or bytes, not both', () => {
  const { errors } = validateConfig(
    raw({
      sources: { in: { type: 'stdin' } },
      sinks: {
        out: {
          type: 'console',
          inputs: ['in'],
          encoding: { codec: 'json' },
          buffer: { max_events: 5, when_ful: 'block' },
        },
      },
    }),
    registry,
  );
  assert.equal(errors, ['svc.yaml: sinks.out: unknown option "buffer.when_ful"; did you mean "buffer.when_full"?']);
  const both = validateConfig(
    raw({
      sources: { in: { type: 'stdin' } },
      sinks: {
        out: { type: 'console', inputs: ['in'], encoding: { codec: 'json' }, buffer: { max_events: 5, max_size: 9 } },
      },
    }),
    registry,
  );
  assert.equal(both.errors, [
    'svc.yaml: sinks.out: option "buffer.max_size": cannot be set together with "buffer.max_events"',
  ]);
});

test('global options: unknown names, ranges, enums, zones, addresses; errors name the file that set them', () => {
  const config = raw(
    minimal,
    {
      data_dri: '/x',
      sourcs: {},
      buffer_utilization_ewma_alpha: 1,
      wildcard_matching: 'loose',
      timezone: 'Mars/Base',
      api: { address: 'localhost:8686', enabld: true },
      log_schema: { host_key: 'a..b' },
      healthchecks: { require_healthy: 'yes' },
    },
    'global.toml',
  );
  assert.equal(validateConfig(config, registry).errors, [
    'global.toml: unknown option "data_dri"; did you mean "data_dir"?',
    'global.toml: unknown option "sourcs"; did you mean "sources"?',
    'global.toml: option "api.address": expected an IP address and port such as "127.0.0.1:8686", got "localhost:8686"',
    'global.toml: unknown option "api.enabld"; did you mean "api.enabled"?',
    'global.toml: option "buffer_utilization_ewma_alpha": expected a number < 1, got 1',
    'global.toml: option "healthchecks.require_healthy": expected boolean, got "yes"',
    'global.toml: option "log_schema.host_key": invalid field path "a..b"',
    'global.toml: option "timezone": unknown time zone "Mars/Base"',
    'global.toml: option "wildcard_matching": expected one of "strict", "relaxed", got "loose"',
  ]);
});

test('expire_metrics (deprecated) gives expire_metrics_secs, but not together with it', () => {
  const { config } = validateConfig(
    raw(minimal, { expire_metrics: { secs: 60, nsecs: 500000000 }, acknowledgements: true }),
    registry,
  );
  assert.is(config!.global.expire_metrics_secs, 60.5);
  assert.equal(config!.global.acknowledgements, { enabled: true });
  assert.equal(validateConfig(raw(minimal, { expire_metrics: { secs: 1 }, expire_metrics_secs: 2 }), registry).errors, [
    'svc.yaml: option "expire_metrics": cannot be set together with "expire_metrics_secs"',
  ]);
});

test('secret backends are validated by type', () => {
  const { config, errors } = validateConfig(
    raw({
      ...minimal,
      secret: {
        f: { type: 'file', path: '/s.json' },
        e: { type: 'exec', command: ['/bin/get'], protocol: { version: 'v1_1', backend_type: 'x' } },
        bad: { type: 'vault' },
        e2: { type: 'exec', command: [] },
      },
    }),
    registry,
  );
  assert.equal(errors, [
    'svc.yaml: secret.bad: option "type": expected one of "file", "directory", "exec", "cloud_secrets_manager", got "vault"',
    'svc.yaml: secret.e2: option "command": expected at least 1 item',
  ]);
  assert.is(config, undefined);
  const ok = validateConfig(raw({ ...minimal, secret: { e: { type: 'exec', command: ['/bin/get'] } } }), registry);
  assert.equal(ok.config!.secret.get('e'), {
    file: 'svc.yaml',
    options: { type: 'exec', command: ['/bin/get'], timeout: 5, protocol: { version: 'v1' } },
  });
});

test('ids are unique across sections; empty configs need allowEmpty', () => {
  const { errors } = validateConfig(
    raw({ sources: { x: { type: 'stdin' } }, transforms: { x: { type: 'remap', inputs: ['x'], source: '.' } } }),
    registry,
  );
  assert.equal(errors, [
    'component id "x" is used twice: sources.x in svc.yaml and transforms.x in svc.yaml',
    'no sinks defined in the configuration',
  ]);
  assert.equal(validateConfig(raw({}), registry, { allowEmpty: true }).errors, []);
});

test('tests are validated; the registry refuses duplicate types and common option names', () => {
  const config = raw(minimal);
  config.tests.push({
    file: 't.yaml',
    table: {
      name: 'smoke',
      inputs: [{ insert_at: 'in', value: 'x' }],
      outputs: [{ extract_from: 'out', conditions: ['.a == 1'] }],
    },
  });
  config.tests.push({ file: 't.yaml', table: { name: 'bad', inputs: [{ insert_at: 'in', typ: 'log' }] } });
  assert.equal(validateConfig(config, registry).errors, [
    't.yaml: tests.bad: unknown option "inputs[0].typ"; did you mean "inputs[0].type"?',
  ]);
  assert.throws(
    () => new ComponentRegistry().register(stdin).register(stdin),
    /source type "stdin" is registered twice/,
  );
  assert.throws(
    () => new ComponentRegistry().register({ ...remap, options: z.strictObject({ inputs: z.string() }) }),
    /declares the common option "inputs"/,
  );
  assert.equal(registry.types('sink'), ['console']);
});

test.run();
