import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile, RemapRuntimeError } from '../../../runtime/index.js';
import {
  parseFieldPath,
  remapPath,
  templateOption,
  templateToRemap,
  type TemplateOptions,
} from '../../../host/config/template.js';

const defaults: TemplateOptions = { timestampKey: '.timestamp' };

/** Renders `template` against `event` by compiling and running the produced program. */
async function render(template: string, event: unknown, options = defaults): Promise<unknown> {
  const program = await compile(templateToRemap(template, options).source);
  assert.equal(program.warnings, [], 'the generated program compiles without warnings');
  return program.run(event).result;
}

async function renderError(template: string, event: unknown): Promise<string> {
  try {
    await render(template, event);
  } catch (e) {
    if (e instanceof RemapRuntimeError) return e.message;
    throw e;
  }
  assert.unreachable('the template rendered');
  return '';
}

test('field paths: bare, dotted, quoted, indexed, metadata', () => {
  assert.equal(remapPath(parseFieldPath('foo.bar')), '.foo.bar');
  assert.equal(remapPath(parseFieldPath('.foo[0].bar')), '.foo[0].bar');
  assert.equal(remapPath(parseFieldPath('"a.b"."c-d"')), '."a.b"."c-d"');
  assert.equal(remapPath(parseFieldPath('%meta.x')), '%meta.x');
  assert.equal(remapPath(parseFieldPath('.')), '.');
  assert.throws(() => parseFieldPath('foo..bar'), /invalid field path "foo..bar"/);
  assert.throws(() => parseFieldPath('foo bar'), /invalid field path/);
});

test('plain text is not dynamic and renders as itself, braces and quotes included', async () => {
  const compiled = templateToRemap('logs-{x}-"q"\\', defaults);
  assert.equal({ fields: compiled.fields, isDynamic: compiled.isDynamic }, { fields: [], isDynamic: false });
  assert.is(await render('logs-{x}-"q"\\', {}), 'logs-{x}-"q"\\');
  assert.is(await render('', {}), '');
});

test("fields render as Vector's lossy strings", async () => {
  const event = {
    app: 'web',
    n: 3,
    f: 1.5,
    ok: true,
    nil: null,
    o: { a: 1 },
    arr: [1, 'x'],
    'a.b': 'dot',
    nested: { k: ['v'] },
  };
  const template = '{{ app }}/{{n}}/{{ f }}/{{ ok }}/{{ nil }}/{{ o }}/{{ arr }}/{{ "a.b" }}/{{ .nested.k[0] }}';
  const compiled = templateToRemap(template, defaults);
  assert.equal(compiled.fields, ['app', 'n', 'f', 'ok', 'nil', 'o', 'arr', '"a.b"', '.nested.k[0]']);
  assert.ok(compiled.isDynamic);
  assert.is(await render(template, event), 'web/3/1.5/true/<null>/{"a":1}/[1,"x"]/dot/v');
});

test('missing fields fail with every missing name, as Vector says it', async () => {
  assert.is(await renderError('{{ a }}-{{ b.c }}-{{ d }}', { d: 1 }), 'Missing fields on event: ["a", "b.c"]');
});

test('strftime specifiers format the event timestamp, or now when there is none', async () => {
  const timestamp = new Date(Date.UTC(2024, 1, 3, 4, 5, 6));
  assert.is(await render('logs-%Y-%m-%d/{{ app }}-%H', { timestamp, app: 'x' }), 'logs-2024-02-03/x-04');
  assert.is(await render('%Y', { ts: timestamp }, { timestampKey: 'ts' }), '2024');
  assert.is(await render('%H:%M', { timestamp }, { timestampKey: '.timestamp', timezone: 'Asia/Kolkata' }), '09:35');
  const year = String(new Date().getUTCFullYear());
  assert.is(await render('%Y', { timestamp: 'not a timestamp' }), year);
  assert.is(await render('%Y', { timestamp }, { timestampKey: '' }), year);
  assert.ok(templateToRemap('a-%Y', defaults).isDynamic);
});

test('%% alone leaves the text literal, as Vector does; unknown specifiers are rejected', () => {
  assert.not.ok(templateToRemap('100%%', defaults).isDynamic);
  assert.throws(() => templateToRemap('%Q-{{ a }}', defaults), /invalid strftime specifier "%Q" in "%Q-"/);
  assert.throws(() => templateToRemap('a {{ }} b', defaults), /empty field/);
});

test('templateOption validates templates inside a schema', () => {
  assert.ok(templateOption().safeParse('{{ a }}-%F').success);
  const result = templateOption().safeParse('{{ a..b }}');
  assert.is(result.error?.issues[0]?.message, 'invalid field path "a..b"');
});

test.run();
