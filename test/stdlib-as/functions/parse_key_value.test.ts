import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
interface Options {
  kv?: string;
  field?: string;
  whitespace?: 'lenient' | 'strict';
  standalone?: boolean;
}
const kv = (text: unknown, o: Options = {}) =>
  stdlib.call('fn_parse_key_value', text, o.kv, o.field, o.whitespace, o.standalone);

test('upstream examples', () => {
  assert.equal(kv('zork=zook zonk=nork'), { value: { zork: 'zook', zonk: 'nork' } });
  assert.equal(
    kv(
      '@timestamp="Sun Jan 10 16:47:39 EST 2021" level=info msg="Stopping all fetchers" tag#production=stopping_fetchers id=ConsumerFetcherManager-1382721708341 module=kafka.consumer.ConsumerFetcherManager',
    ),
    {
      value: {
        '@timestamp': 'Sun Jan 10 16:47:39 EST 2021',
        level: 'info',
        msg: 'Stopping all fetchers',
        'tag#production': 'stopping_fetchers',
        id: 'ConsumerFetcherManager-1382721708341',
        module: 'kafka.consumer.ConsumerFetcherManager',
      },
    },
  );
  assert.equal(
    kv(
      'path:"/cart_link", host:store.app.com, fwd: "102.30.171.16", dyno: web.1, connect:0ms, service:87ms, status:304, bytes:632, protocol:https',
      { field: ',', kv: ':' },
    ),
    {
      value: {
        path: '/cart_link',
        host: 'store.app.com',
        fwd: '102.30.171.16',
        dyno: 'web.1',
        connect: '0ms',
        service: '87ms',
        status: '304',
        bytes: '632',
        protocol: 'https',
      },
    },
  );
  assert.equal(kv('env:prod,service:backend,region:eu-east1,beta', { field: ',', kv: ':' }), {
    value: { env: 'prod', service: 'backend', region: 'eu-east1', beta: true },
  });
  assert.equal(kv('at=info,method=GET,path="/index",status=200,tags=dev,tags=dummy', { field: ',', kv: '=' }), {
    value: { at: 'info', method: 'GET', path: '/index', status: '200', tags: ['dev', 'dummy'] },
  });
  assert.equal(kv('app=my-app ip=1.2.3.4 user= msg=hello-world', { whitespace: 'strict' }), {
    value: { app: 'my-app', ip: '1.2.3.4', user: '', msg: 'hello-world' },
  });
});

// The cases below were checked against the reference engine.

test('quoted keys and values: \\" \\\\ and \\n are unescaped, other escapes kept', () => {
  assert.equal(kv('a="x\\"y" b=2'), { value: { a: 'x"y', b: '2' } });
  assert.equal(kv('a="x\\\\y" b="x\\ny" c="x\\ty" d="x\\qy"'), {
    value: { a: 'x\\y', b: 'x\ny', c: 'x\\ty', d: 'x\\qy' },
  });
  assert.equal(kv('"my key"=v "a=b"=c "a\\"b"=1'), { value: { 'my key': 'v', 'a=b': 'c', 'a"b': '1' } });
  assert.equal(kv('a="" b=2'), { value: { a: '', b: '2' } });
  assert.equal(kv('a = "x y" b=1'), { value: { a: 'x y', b: '1' } });
});

test('a quote not followed by a delimiter or the end is plain text', () => {
  assert.equal(kv('a="unterminated b=2'), { value: { a: '"unterminated', b: '2' } });
  assert.equal(kv('a="quoted"tail b=2'), { value: { a: '"quoted"tail', b: '2' } });
  assert.equal(kv('a="b c"d'), { value: { a: '"b', 'c"d': true } });
  assert.equal(kv('a=x\\ny'), { value: { a: 'x\\ny' } });
});

test('lenient and strict whitespace around the key-value delimiter', () => {
  assert.equal(kv('a = b c = d'), { value: { a: 'b', c: 'd' } });
  assert.equal(kv('a = b c = d', { whitespace: 'strict' }), { value: { a: '', b: true, c: '', d: true } });
  assert.equal(kv('a= "x y" b=1', { whitespace: 'strict' }), { value: { a: '', b: '1', 'x y': true } });
  assert.equal(kv('a = 1 ;b= 2', { field: ';', whitespace: 'strict' }), { value: { a: '1', b: '2' } });
  assert.equal(kv('  a=1  b=2   '), { value: { a: '1', b: '2' } });
  assert.equal(kv('a=1\tb=2'), { value: { a: '1\tb=2' } });
});

test('field delimiters other than a space may have spaces before them', () => {
  assert.equal(kv('a=1 , b=2 ,c', { field: ',' }), { value: { a: '1', b: '2', c: true } });
  assert.equal(kv('a:=1 b:=2', { kv: ':=' }), { value: { a: '1', b: '2' } });
  assert.equal(kv('a=1,,b=2', { field: ',' }), { error: 'could not parse whole line successfully' });
  assert.equal(kv('a=1,', { field: ',' }), { error: 'could not parse whole line successfully' });
});

test('repeated keys collect arrays; standalone keys only fill keys not seen', () => {
  assert.equal(kv('a=1 a=2 a=3'), { value: { a: ['1', '2', '3'] } });
  assert.equal(kv('a a a'), { value: { a: true } });
  assert.equal(kv('a=1 a'), { value: { a: '1' } });
  assert.equal(kv('a a=1 a=2'), { value: { a: ['1', '2'] } });
  assert.equal(kv('a=1 a a=2'), { value: { a: ['1', '2'] } });
  assert.equal(kv('a==1 =1 a=1=2'), { value: { a: ['=1', '1=2'], '=1': true } });
});

test('plain elements and the ones next to them read alike (the one-scan path hands the rest to the grammar)', () => {
  assert.equal(kv('a=x\u00a0 b=2'), { value: { a: 'x', b: '2' } });
  assert.equal(kv('a=\u00e9 \u00fc=b'), { value: { a: '\u00e9', '\u00fc': 'b' } });
  assert.equal(kv('a=x y,b=2', { field: ',' }), { value: { a: 'x y', b: '2' } });
  assert.equal(kv('a=1 b='), { value: { a: '1', b: '' } });
  assert.equal(kv('k:v=1,x:2', { kv: ':', field: ',' }), { value: { k: 'v=1', x: '2' } });
  assert.equal(kv('a=x\u0001y b=2'), { value: { a: 'x\u0001y', b: '2' } });
  assert.equal(kv('a=x"y" b=\\'), { value: { a: 'x"y"', b: '\\' } });
  assert.equal(kv('b=2 a=1 b=3 c'), { value: { a: '1', b: ['2', '3'], c: true } });
});

test('without standalone keys every key needs its delimiter', () => {
  assert.equal(kv('a=1 b=2', { standalone: false }), { value: { a: '1', b: '2' } });
  assert.equal(kv('a=1 b', { standalone: false }), { error: 'could not parse whole line successfully' });
  assert.equal(kv('a b c', { standalone: false }), {
    error: '0: at line 1, in Tag:\na b c\n     ^\n\n1: at line 1, in ManyMN:\na b c\n     ^\n\n',
  });
});

test("a first element that cannot be read fails with nom's error trace", () => {
  assert.equal(kv(''), { error: '0: in Verify, got empty input\n\n' });
  assert.equal(kv('   '), { error: '0: at line 1, in Verify:\n\n   ^\n\n' });
  assert.equal(kv('""'), { error: '0: at line 1, in Verify:\n""\n^\n\n' });
  assert.equal(kv('=:', { standalone: false, field: ',' }), { error: '0: at line 1, in Verify:\n=:\n^\n\n' });
  assert.equal(kv('a\nb c  ', { standalone: false }), {
    error: '0: at line 2, in Tag:\nb c\n     ^\n\n1: at line 2, in ManyMN:\nb c\n     ^\n\n',
  });
});

test('other kinds fail', () => {
  assert.equal(kv(1n), { error: 'expected string, got integer' });
  assert.equal(stdlib.call('fn_parse_key_value', 'a=1', undefined, undefined, undefined, 'yes'), {
    error: 'expected boolean, got string',
  });
});

test.run();
