// Which proxy a request takes: the settings in force (component over global over environment, merged field
// by field as Vector does; lowercase variables over uppercase) and the `no_proxy` patterns. The requests
// themselves going through a proxy are tested with each client (http sink, eventdb_metrics, secrets).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { effectiveProxy, environmentProxy, ProxyRoutes } from '../../../../host/components/support/proxy.js';
import { proxySchema } from '../../../../host/config/common.js';

const settings = (table: object) => proxySchema.parse(table);
const route = (table: object, target: string) => new ProxyRoutes(settings(table)).proxyFor(new URL(target));

test('environment: HTTP_PROXY, HTTPS_PROXY, NO_PROXY; the lowercase variable wins; empty is unset', () => {
  assert.equal(
    environmentProxy({ HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:1', HTTPS_PROXY: 'http://s:2' }),
    { enabled: true, http: 'http://lower:1', https: 'http://s:2', no_proxy: [] },
  );
  assert.equal(environmentProxy({ http_proxy: '', HTTP_PROXY: 'http://upper:1', NO_PROXY: ' a.com, .b.org ,,' }), {
    enabled: true,
    http: 'http://upper:1',
    https: undefined,
    no_proxy: ['a.com', '.b.org'],
  });
  assert.is(environmentProxy({ no_proxy: 'x', NO_PROXY: 'y' }).no_proxy[0], 'x');
  // `host:port` without a scheme, as curl takes it.
  assert.is(environmentProxy({ HTTPS_PROXY: 'proxy.local:3128' }).https, 'http://proxy.local:3128');
  assert.throws(
    () => environmentProxy({ https_proxy: 'socks5://p:1080' }),
    /^the environment variable https_proxy: expected an http:\/\/ or https:\/\/ proxy URI, got "socks5:\/\/p:1080"$/,
  );
});

test('precedence: component over global over environment, field by field; either `enabled: false` disables', () => {
  const env = { HTTP_PROXY: 'http://env:1', HTTPS_PROXY: 'http://env:2', NO_PROXY: 'env.local' };
  assert.equal(effectiveProxy(settings({}), undefined, env), {
    enabled: true,
    http: 'http://env:1',
    https: 'http://env:2',
    no_proxy: ['env.local'],
  });
  const global = settings({ http: 'http://global:1' });
  const component = settings({ https: 'http://component:2', no_proxy: ['c.local'] });
  assert.equal(effectiveProxy(global, component, env), {
    enabled: true,
    http: 'http://global:1',
    https: 'http://component:2',
    no_proxy: ['c.local'],
  });
  assert.is(effectiveProxy(global, settings({ enabled: false }), env).enabled, false);
  assert.is(effectiveProxy(settings({ enabled: false }), component, env).enabled, false);
  assert.is(route({ ...effectiveProxy(settings({ enabled: false }), undefined, env) }, 'http://x/'), undefined);
});

test('the proxy by the target scheme: http:// through `http`, https:// through `https`; none set is direct', () => {
  const both = { http: 'http://p:1', https: 'https://q:2' };
  assert.is(route(both, 'http://example.com/a'), 'http://p:1');
  assert.is(route(both, 'https://example.com/a'), 'https://q:2');
  assert.is(route({ http: 'http://p:1' }, 'https://example.com/'), undefined);
  assert.is(route({ https: 'http://q:2' }, 'http://example.com/'), undefined);
});

test('no_proxy: exact host, .domain with its subdomains, host:port, IP, CIDR (v4 and v6), *', () => {
  const direct = (patterns: string[], target: string) =>
    route({ http: 'http://p:1', https: 'http://p:1', no_proxy: patterns }, target) === undefined;
  assert.ok(direct(['example.com'], 'http://example.com/'));
  assert.ok(direct(['EXAMPLE.com'], 'http://Example.COM/'));
  assert.not.ok(direct(['example.com'], 'http://www.example.com/'));
  assert.ok(direct(['.example.com'], 'http://example.com/'));
  assert.ok(direct(['.example.com'], 'https://a.b.example.com/'));
  assert.not.ok(direct(['.example.com'], 'http://notexample.com/'));
  assert.ok(direct(['example.com:8080'], 'http://example.com:8080/'));
  assert.not.ok(direct(['example.com:8080'], 'http://example.com:8081/'));
  assert.ok(direct(['example.com:443'], 'https://example.com/'));
  assert.ok(direct(['127.0.0.1'], 'http://127.0.0.1:9000/'));
  assert.not.ok(direct(['127.0.0.1'], 'http://127.0.0.2/'));
  assert.ok(direct(['192.168.0.0/16'], 'http://192.168.40.7/'));
  assert.not.ok(direct(['192.168.0.0/16'], 'http://192.169.0.1/'));
  assert.ok(direct(['::1'], 'http://[::1]:80/'));
  assert.ok(direct(['fd00::/8'], 'http://[fd12::5]/'));
  assert.ok(direct(['*'], 'https://anything.example/'));
  assert.not.ok(direct([], 'http://example.com/'));
});

test('schema: a proxy must be an http:// or https:// URI; a malformed CIDR block is an error', () => {
  assert.not.ok(proxySchema.safeParse({ http: 'socks5://p:1080' }).success);
  assert.not.ok(proxySchema.safeParse({ https: 'not a uri' }).success);
  assert.not.ok(proxySchema.safeParse({ no_proxy: ['10.0.0.0/33'] }).success);
  assert.not.ok(proxySchema.safeParse({ no_proxy: ['a.com/8'] }).success);
  assert.ok(proxySchema.safeParse({ http: 'http://u:p@p:3128', no_proxy: ['*', '10.0.0.0/8', '.a.com'] }).success);
});

test.run();
