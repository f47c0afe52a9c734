import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  componentDefinition,
  componentDefinitions,
  componentRegistry,
  componentTypes,
} from '../../../host/components/registry.js';
import type { RawConfig } from '../../../host/config/load.js';

/** A RawConfig with one component per section given as [id, type]. */
function raw(types: Partial<Record<'sources' | 'transforms' | 'sinks', string>>): RawConfig {
  const section = (name: 'sources' | 'transforms' | 'sinks') =>
    new Map(types[name] ? [['c', { id: 'c', file: 'svc.yaml', table: { type: types[name] } }]] : []);
  return {
    global: {},
    globalOrigins: new Map(),
    sections: {
      sources: section('sources'),
      transforms: section('transforms'),
      sinks: section('sinks'),
      enrichment_tables: new Map(),
      secret: new Map(),
    },
    tests: [],
    files: ['svc.yaml'],
    secrets: [],
  };
}

test('a configuration loads the types it uses; the registry knows every type by name', async () => {
  const registry = await componentRegistry(raw({ sources: 'stdin', transforms: 'nope', sinks: 'console' }));
  assert.is(registry.get('source', 'stdin')?.type, 'stdin');
  assert.is(componentDefinition('sink', 'console')?.kind, 'sink');
  assert.is(componentDefinition('sink', 'http'), undefined);
  assert.throws(() => registry.get('sink', 'http'), /sink type "http" has no schema registered/);
  assert.is(registry.get('transform', 'nope'), undefined);
  assert.equal(registry.types('transform'), componentTypes('transform'));
  assert.equal(componentTypes('enrichment_table'), ['file', 'geoip', 'memory', 'mmdb']);
});

test("every type's module defines that type, of its kind", async () => {
  const definitions = await componentDefinitions();
  for (const kind of ['source', 'transform', 'sink', 'enrichment_table'] as const) {
    const types = definitions.filter((definition) => definition.kind === kind).map((definition) => definition.type);
    assert.equal(types.sort(), componentTypes(kind));
  }
});

test.run();
