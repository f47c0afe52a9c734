// The log-format parsers called directly: VRL's error texts for bad input, Unicode, empty values, large input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { JsFunction } from '../../../runtime/imports.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { IntegralFloat } from '../../../abi/codec.js';
import { jsContext } from '../../support/js-context.js';
import { parse_common_log } from '../../../runtime/js-functions/parse_common_log.js';
import { parse_websrv1_log } from '../../../runtime/js-functions/parse_websrv1_log.js';
import { parse_websrv2_log } from '../../../runtime/js-functions/parse_websrv2_log.js';
import { parse_glog } from '../../../runtime/js-functions/parse_glog.js';
import { parse_klog } from '../../../runtime/js-functions/parse_klog.js';
import { parse_cloud_vpc_flow_log } from '../../../runtime/js-functions/parse_cloud_vpc_flow_log.js';
import { parse_cloud_alb_log } from '../../../runtime/js-functions/parse_cloud_alb_log.js';
import { parse_cloud_log_subscription_message } from '../../../runtime/js-functions/parse_cloud_log_subscription_message.js';
import { parse_cef } from '../../../runtime/js-functions/parse_cef.js';
import { parse_tsdb } from '../../../runtime/js-functions/parse_tsdb.js';
import { parse_grok } from '../../../runtime/js-functions/parse_grok.js';
import { parse_groks } from '../../../runtime/js-functions/parse_groks.js';
import { parse_user_agent } from '../../../runtime/js-functions/parse_user_agent.js';
import { match_ext_query } from '../../../runtime/js-functions/match_ext_query.js';

function call(fn: JsFunction, ...args: RemapValue[]): RemapValue {
  try {
    return fn(args, jsContext());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** A plain copy (results are null-prototype objects), timestamps as RFC 3339, integral floats as numbers. */
const plain = (value: RemapValue): unknown =>
  JSON.parse(
    JSON.stringify(value, (_, v: unknown) =>
      typeof v === 'bigint'
        ? Number(v)
        : v instanceof Timestamp
          ? v.toString()
          : v instanceof IntegralFloat
            ? v.value
            : v,
    ),
  );

const COMMON = '127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326';

test('common log: typed fields, `-` left out, VRL errors', () => {
  const log = call(parse_common_log, COMMON) as Record<string, RemapValue>;
  assert.is(log.status, 200n);
  assert.is(String(log.timestamp), '2000-10-10T20:55:36Z');
  assert.equal(plain(call(parse_common_log, '- - - - "-" - -')), {});
  assert.is(call(parse_common_log, ''), 'error: failed parsing common log line');
  assert.is(call(parse_common_log, 'not a log'), 'error: failed parsing common log line');
  assert.is(
    call(parse_common_log, COMMON, '%Y'),
    'error: failed parsing timestamp 10/Oct/2000:13:55:36 -0700 using format %Y: trailing input',
  );
  assert.is(call(parse_common_log, 1n), 'error: expected string, got integer');
});

test('apache and nginx: formats, Unicode, errors', () => {
  const line = '127.0.0.1 bob jörg [10/Oct/2000:13:55:36 -0700] "GET /ünï HTTP/1.0" 200 2326 "-" "agent ✓"';
  const log = plain(call(parse_websrv1_log, line, 'combined')) as Record<string, unknown>;
  assert.is(log.user, 'jörg');
  assert.is(log.path, '/ünï');
  assert.is(log.agent, 'agent ✓');
  assert.not.ok('referrer' in log);
  assert.is(call(parse_websrv1_log, 'x', 'error'), 'error: failed parsing error log line');
  assert.is(call(parse_websrv2_log, 'x', 'main'), 'error: failed parsing main log line');
  const error = plain(call(parse_websrv2_log, '2021/04/01 13:02:31 [error] 31#31: *1 oops, client: 1.2.3.4', 'error'));
  assert.equal(error, {
    timestamp: '2021-04-01T13:02:31Z',
    severity: 'error',
    pid: 31,
    tid: 31,
    cid: 1,
    message: 'oops',
    client: '1.2.3.4',
  });
});

test('glog and klog', () => {
  assert.is(call(parse_glog, 'X20210131 14:48:54.411655 15520 main.c++:9] hi'), 'error: unrecognized log level "X"');
  assert.is(call(parse_glog, ''), 'error: failed parsing glog message');
  assert.is((call(parse_klog, 'I0505 17:59:40.692994 1 f.go:1] ✓') as Record<string, RemapValue>).message, '✓');
  assert.is(
    String(call(parse_klog, 'I1399 17:59:40.692994 1 f.go:1] x')).startsWith('error: failed parsing timestamp'),
    true,
  );
});

test('VPC flow logs: nulls, integers, errors', () => {
  assert.equal(plain(call(parse_cloud_vpc_flow_log, '- 5', 'instance_id srcport')), { instance_id: null, srcport: 5 });
  assert.is(call(parse_cloud_vpc_flow_log, 'a b', 'x'), 'error: too many values, not parsed: `b`');
  assert.is(call(parse_cloud_vpc_flow_log, 'a', 'x y'), 'error: key without value: `y`');
  assert.is(
    call(parse_cloud_vpc_flow_log, 'x', 'srcport'),
    'error: failed to parse value as i64 (key: `srcport`): `x`',
  );
  assert.is(call(parse_cloud_vpc_flow_log, ''), 'error: failed to parse value as i64 (key: `version`): ``');
});

test('ALB logs: errors name the field; strict mode wants every byte', () => {
  assert.ok(String(call(parse_cloud_alb_log, '', null)).startsWith('error: failed to get field `type`'));
  assert.ok(String(call(parse_cloud_alb_log, 'http x', null)).startsWith('error: failed to get field `timestamp`'));
});

test('CloudWatch subscription messages', () => {
  assert.is(call(parse_cloud_log_subscription_message, '{}'), 'error: unable to parse: missing field `messageType`');
  assert.ok(String(call(parse_cloud_log_subscription_message, '')).startsWith('error: unable to parse: '));
  const message = plain(
    call(
      parse_cloud_log_subscription_message,
      JSON.stringify({
        messageType: 'DATA_MESSAGE',
        owner: 'ö',
        logGroup: 'g',
        logStream: 's',
        subscriptionFilters: [],
        logEvents: [{ id: '1', timestamp: 0, message: '✓' }],
      }),
    ),
  );
  assert.equal(message, {
    owner: 'ö',
    message_type: 'DATA_MESSAGE',
    log_group: 'g',
    log_stream: 's',
    subscription_filters: [],
    log_events: [{ id: '1', timestamp: '1970-01-01T00:00:00Z', message: '✓' }],
  });
});

test('CEF: header, escapes, strictness, translation', () => {
  assert.is(call(parse_cef, 'no header', null, null), 'error: Could not parse whole line successfully');
  assert.is(call(parse_cef, 'CEF:0|a|b', null, null), 'error: Could not parse whole line successfully');
  assert.is(
    call(parse_cef, 'CEF:0|V|P|1|1|n|5|request=a?b=c', null, null),
    'error: Could not parse whole line successfully',
  );
  assert.equal(plain(call(parse_cef, 'CEF:0|V|P|1|1|n|5|request=a?b=c', false, false)), {
    cefVersion: '0',
    deviceVendor: 'V',
    deviceProduct: 'P',
    deviceVersion: '1',
    deviceEventClassId: '1',
    name: 'n',
    severity: '5',
    request: 'a?b=c',
  });
  const translated = plain(call(parse_cef, 'CEF:0|V|P|1|1|ñ|5|cs1=välue cs1Label=Läbel', true, null)) as Record<
    string,
    unknown
  >;
  assert.is(translated.Läbel, 'välue');
  assert.is(translated.name, 'ñ');
  // A key starts the extension or follows a space; `a=b` inside a value after another character is value.
  const extension = (text: string) => {
    const { cefVersion, deviceVendor, deviceProduct, deviceVersion, deviceEventClassId, name, severity, ...rest } =
      plain(call(parse_cef, `CEF:0|V|P|1|1|n|5|${text}`, false, false)) as Record<string, unknown>;
    return rest;
  };
  assert.equal(extension('a.b[0]=x y_z-1=two words  k=\\= \\n "q"  '), {
    'a.b[0]': 'x',
    'y_z-1': 'two words ',
    k: '= \n "q"',
  });
  assert.equal(extension('src=1 x:y=2 dst="q"'), { src: '1 x:y=2', dst: 'q' });
  for (const text of ['é=1 k=v', ' x']) {
    assert.is(
      call(parse_cef, `CEF:0|V|P|1|1|n|5|${text}`, false, false),
      'error: Could not parse whole line successfully',
    );
  }
});

test('InfluxDB line protocol', () => {
  assert.equal(call(parse_tsdb, ''), []);
  assert.equal(plain(call(parse_tsdb, 'm\\ ö,t=ü f=1.5')), [
    { name: 'm ö_f', tags: { t: 'ü' }, kind: 'absolute', gauge: { value: 1.5 } },
  ]);
  // Escapes, `=` in a tag value, comment and blank lines, a trailing field comma, spaces around the timestamp.
  assert.equal(
    plain(call(parse_tsdb, '# c\n\n  cp\\,u,a\\=b=c=d,e=f\\ g v=1e3,w=-2i,x=3u,y=T,z=false, -5 ')),
    [
      ['v', 1000],
      ['w', -2],
      ['x', 3],
      ['y', 1],
      ['z', 0],
    ].map(([field, value]) => ({
      name: `cp,u_${field}`,
      tags: { 'a=b': 'c=d', e: 'f g' },
      timestamp: '1969-12-31T23:59:59.999999995Z',
      kind: 'absolute',
      gauge: { value },
    })),
  );
  // Which input fails with which text: the reference engine's (the same parser in VRL 0.25 and 0.35).
  const errors: Array<[string, string]> = [
    ['cpu', 'A generic parsing error occurred: TakeWhile1'],
    ['cpu\tv=1', 'A generic parsing error occurred: TakeWhile1'],
    ['cpu,a=b, v=1', 'A generic parsing error occurred: TakeWhile1'],
    [',a=b v=1', 'Invalid measurement was provided'],
    ['cpu,a v=1', 'Tag Set Malformed'],
    ['cpu,a= v=1', 'Tag Set Malformed'],
    ['cpu ', 'No fields were provided'],
    ['cpu v=NaN', 'No fields were provided'],
    ['cpu v=+1', 'No fields were provided'],
    ['cpu v="open', 'No fields were provided'],
    ['cpu v=1 ', "Could not parse entire line. Found trailing content: ' '"],
    ['cpu v=1,x=abc', "Could not parse entire line. Found trailing content: 'x=abc'"],
    ['cpu v=-1u', "Could not parse entire line. Found trailing content: 'u'"],
    ['cpu v=1 1.5', "Could not parse entire line. Found trailing content: '.5'"],
    ['cpu v=1\r', "Could not parse entire line. Found trailing content: '\r'"],
    ['cpu v=9223372036854775808i', "Unable to parse integer value '9223372036854775808'"],
    ['cpu v=18446744073709551616u', "Unable to parse unsigned integer value '18446744073709551616'"],
    ['cpu v=1 12345678901234567890', "Unable to parse timestamp value '12345678901234567890'"],
    ['cpu,a=b\\\\ v=1', 'Measurements, tag keys and values, and field keys may not end with a backslash'],
    ['cpu v=1\ncpu,x y=2', 'Tag Set Malformed'],
  ];
  for (const [line, reason] of errors)
    assert.is(call(parse_tsdb, line), `error: InfluxDB line protocol parsing error: ${reason}`, line);
  // A string field parses (also across a newline) but is no gauge; lines fail in order.
  const conversion =
    "error: Error while converting InfluxDB line protocol metric to Vector's metric model: field set values of type string are not supported";
  assert.is(call(parse_tsdb, 'cpu v="a\nb" 5\ncpu'), conversion);
  assert.is(
    call(parse_tsdb, 'cpu\ncpu v="x"'),
    'error: InfluxDB line protocol parsing error: A generic parsing error occurred: TakeWhile1',
  );
});

test('grok: library patterns, unknown patterns, no match, large input', () => {
  assert.equal(plain(call(parse_grok, '55.3.244.1 GET', '%{IP:client} %{WORD:method}')), {
    client: '55.3.244.1',
    method: 'GET',
  });
  assert.equal(plain(call(parse_grok, 'a', '%{WORD:w}(?: %{INT:n})?')), { w: 'a', n: '' });
  assert.is(call(parse_grok, 'x', '%{INT:n}'), 'error: unable to parse input with grok pattern');
  assert.ok(String(call(parse_grok, 'x', '%{NOPE:n}')).includes('"NOPE" could not be found'));
  const big = 'ü'.repeat(200_000);
  assert.equal(plain(call(parse_grok, big, '%{GREEDYDATA:all}')), { all: big });
});

test("grok: logstash's other pattern files (haproxy, java, redis, linux-syslog, nagios)", () => {
  // Expected fields read off the pattern definitions in runtime/js-functions/support/logstash-patterns (the reference engine has no parse_grok).
  const haproxy = plain(
    call(
      parse_grok,
      'Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 "GET /index.html HTTP/1.1"',
      '%{HAPROXYHTTP}',
    ),
  ) as Record<string, string>;
  assert.equal(
    [
      haproxy.program,
      haproxy.pid,
      haproxy.client_ip,
      haproxy.accept_date,
      haproxy.haproxy_milliseconds,
      haproxy.backend_name,
      haproxy.server_name,
      haproxy.time_duration,
      haproxy.http_status_code,
      haproxy.termination_state,
      haproxy.http_verb,
      haproxy.http_request,
      haproxy.http_version,
      haproxy.captured_request_headers,
    ],
    [
      'haproxy',
      '14389',
      '10.0.1.2',
      '06/Feb/2009:12:14:14.655',
      '655',
      'static',
      'srv1',
      '109',
      '200',
      '----',
      'GET',
      '/index.html',
      '1.1',
      '',
    ],
  );
  assert.equal(plain(call(parse_grok, '\tat org.example.Foo.bar(Foo.java:42)', '%{JAVASTACKTRACEPART}')), {
    class: 'org.example.Foo',
    method: 'bar',
    file: 'Foo.java',
    line: '42',
  });
  assert.equal(
    plain(call(parse_grok, '[4018] 14 Nov 07:01:22.119 * Background saving terminated with success', '%{REDISLOG}')),
    { pid: '4018', timestamp: '14 Nov 07:01:22.119' },
  );
  assert.equal(
    plain(call(parse_grok, 'Dec 18 07:49:05 host sshd[123]: Accepted publickey for root', '%{SYSLOGLINE}')),
    {
      timestamp: 'Dec 18 07:49:05',
      timestamp8601: '',
      facility: '',
      priority: '',
      logsource: 'host',
      program: 'sshd',
      pid: '123',
      message: 'Accepted publickey for root',
    },
  );
  const nagios = plain(
    call(
      parse_grok,
      '[1427925600] CURRENT SERVICE STATE: host1;PING;OK;HARD;1;PING OK - Packet loss = 0%',
      '%{NAGIOSLOGLINE}',
    ),
  ) as Record<string, string>;
  assert.equal(
    [
      nagios.nagios_epoch,
      nagios.nagios_type,
      nagios.nagios_hostname,
      nagios.nagios_service,
      nagios.nagios_state,
      nagios.nagios_statetype,
      nagios.nagios_message,
    ],
    ['1427925600', 'CURRENT SERVICE STATE', 'host1', 'PING', 'OK', 'HARD', 'PING OK - Packet loss = 0%'],
  );
  // A library pattern used inside a user's pattern, and a name no file defines.
  assert.equal(plain(call(parse_grok, 'db Foo.java x', '%{WORD:w} %{JAVAFILE:f} x')), { w: 'db', f: 'Foo.java' });
  assert.ok(String(call(parse_grok, 'x', '%{BIND8}')).includes('"BIND8" could not be found'));
});

test("grok: the grok crate's later pattern files (bind, httpd, squid, maven, exim, aws, bacula)", () => {
  const fields = (text: string, pattern: string, names: string[]) => {
    const parsed = plain(call(parse_grok, text, pattern)) as Record<string, string>;
    return names.map((name) => parsed[name]);
  };
  assert.equal(
    fields(
      '17-Feb-2018 23:06:56.326 queries: info: client 172.26.0.1#12345 (test.example.com): query: test.example.com IN A + (172.26.0.3)',
      '%{BIND9}',
      ['timestamp', 'loglevel', 'clientip', 'clientport', 'querytype', 'dns'],
    ),
    ['17-Feb-2018 23:06:56.326', 'info', '172.26.0.1', '12345', 'A +', '172.26.0.3'],
  );
  assert.equal(
    fields(
      '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326 "-" "curl/8"',
      '%{HTTPD_COMBINEDLOG}',
      ['clientip', 'auth', 'timestamp', 'verb', 'request', 'httpversion', 'response', 'bytes', 'agent'],
    ),
    ['127.0.0.1', 'frank', '10/Oct/2000:13:55:36 -0700', 'GET', '/a.gif', '1.0', '200', '2326', '"curl/8"'],
  );
  assert.equal(
    fields(
      '1525344856.899  16867 10.170.72.111 TCP_TUNNEL/200 6256 CONNECT logs.example.com:443 - HIER_DIRECT/203.0.113.5 -',
      '%{SQUID3}',
      [
        'duration',
        'client_address',
        'cache_result',
        'status_code',
        'bytes',
        'request_method',
        'url',
        'hierarchy_code',
        'server',
      ],
    ),
    [
      '16867',
      '10.170.72.111',
      'TCP_TUNNEL',
      '200',
      '6256',
      'CONNECT',
      'logs.example.com:443',
      'HIER_DIRECT',
      '203.0.113.5',
    ],
  );
  assert.equal(plain(call(parse_grok, 'version 1.2.3-SNAPSHOT', 'version %{MAVEN_VERSION:v}')), {
    v: '1.2.3-SNAPSHOT',
  });
  assert.equal(fields('1abcDE-0abcDE-12', '%{EXIM_MSGID:id}', ['id']), ['1abcDE-0abcDE-12']);
  assert.equal(
    fields('10-Mar 12:30 backup-dir JobId 42: Using Device "FileStorage"', '%{BACULA_LOGLINE}', [
      'bts',
      'hostname',
      'jobid',
      'device',
    ]),
    ['10-Mar 12:30', 'backup-dir', '42', 'FileStorage'],
  );
  assert.equal(
    fields(
      '2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET http://www.example.com:80/ HTTP/1.1"',
      '%{ELB_ACCESS_LOG}',
      ['elb', 'clientip', 'clientport', 'backendip', 'response', 'verb', 'urihost', 'path'],
    ),
    ['my-loadbalancer', '192.168.131.39', '2817', '10.0.0.1', '200', 'GET', 'www.example.com:80', '/'],
  );
});

test('grok: look-around holds as Oniguruma reads it, on the regex VM', () => {
  assert.equal(plain(call(parse_grok, 'ip=10.1.2.3;', '%{IPV4:ip}')), { ip: '10.1.2.3' });
  // IPV4 is `(?<![0-9])…(?![0-9])`: no address inside a longer run of digits.
  assert.is(call(parse_grok, 'x1234.5.6.7', '%{IPV4:ip}'), 'error: unable to parse input with grok pattern');
  assert.is(call(parse_grok, '1.2.3.456', '%{IPV4:ip}'), 'error: unable to parse input with grok pattern');
  assert.equal(plain(call(parse_grok, 'v1.5.7 é 10:20:30x', '%{NUMBER:n}.* %{TIME:t}')), { n: '1.5', t: '10:20:30' });
  assert.equal(plain(call(parse_grok, 'q { find: x } ntoreturn:5', '%{MONGO_QUERY:q}')), { q: '{ find: x }' });
  assert.equal(
    plain(call(parse_grok, 'Started GET "/users/1?x=2" for 127.0.0.1 at 2024-03-13 20:45:10 +0100', '%{RAILS3HEAD}')),
    { verb: 'GET', request: '/users/1?x=2', clientip: '127.0.0.1', timestamp: '2024-03-13 20:45:10 +0100' },
  );
  assert.match(
    String(call(parse_grok, 'ab', '(?=a+)%{WORD:w}')),
    'look-around must match a fixed sequence of at most 64 characters: "a+"',
  );
});

test('groks: Datadog matchers, filters, nesting, no match', () => {
  assert.equal(plain(call(parse_groks, 'id=12 ok=true', ['id=%{integer:a.id} ok=%{boolean:a.ok}'])), {
    a: { id: 12, ok: true },
  });
  assert.equal(plain(call(parse_groks, 'X', ['%{word:w:lowercase}'])), { w: 'x' });
  assert.is(call(parse_groks, 'x y', ['%{word:w}']), 'error: unable to parse grok: value does not match any rule');
  assert.is(call(parse_groks, '', []), 'error: unable to parse grok: value does not match any rule');
});

test("groks: the date matcher gives epoch milliseconds (Datadog's documented examples)", () => {
  const date = (value: string, format: string) =>
    (call(parse_groks, value, [`%{date(${format}):d}`]) as Record<string, RemapValue>).d;
  const examples: Array<[value: string, format: string, millis: bigint]> = [
    ['14:20:15', '"HH:mm:ss"', 51615000n],
    ['02:20:15 PM', '"hh:mm:ss a"', 51615000n],
    ['11/10/2014', '"dd/MM/yyyy"', 1412985600000n],
    ['Thu Jun 16 08:29:03 2016', '"EEE MMM dd HH:mm:ss yyyy"', 1466065743000n],
    ['Tue Nov 1 08:29:03 2016', '"EEE MMM d HH:mm:ss yyyy"', 1477988943000n],
    ['06/Mar/2013:01:36:30 +0900', '"dd/MMM/yyyy:HH:mm:ss Z"', 1362501390000n],
    ['2016-11-29T16:21:36.431+0000', `"yyyy-MM-dd'T'HH:mm:ss.SSSZ"`, 1480436496431n],
    ['2016-11-29T16:21:36.431+00:00', `"yyyy-MM-dd'T'HH:mm:ss.SSSZZ"`, 1480436496431n],
    ['06/Feb/2009:12:14:14.655', '"dd/MMM/yyyy:HH:mm:ss.SSS"', 1233922454655n],
    ['Thu Jun 16 08:29:03 2016', '"EEE MMM dd HH:mm:ss yyyy","Europe/Paris"', 1466058543000n],
    ['Thu Jun 16 08:29:03 2016', '"EEE MMM dd HH:mm:ss yyyy","UTC+5"', 1466047743000n],
    ['Thu Jun 16 08:29:03 2016', '"EEE MMM dd HH:mm:ss yyyy","+3"', 1466054943000n],
    // A zone named in the text wins over the matcher's; two-digit years as chrono reads them.
    ['2016-11-29 16:21:36 Europe/Paris', '"yyyy-MM-dd HH:mm:ss ZZZ", "UTC"', 1480432896000n],
    ['1/2/16 4:05:06', '"M/d/yy H:m:s"', 1451707506000n],
  ];
  for (const [value, format, millis] of examples) assert.is(date(value, format), millis, `${value} ${format}`);
  // Text the pattern matches but that is no date leaves the field out; text it does not match is no match.
  assert.is(date('2016-13-29', '"yyyy-MM-dd"'), undefined);
  assert.is(
    call(parse_groks, '2016-11-29x', ['%{date("yyyy-MM-dd"):d}']),
    'error: unable to parse grok: value does not match any rule',
  );
  assert.equal(plain(call(parse_groks, '2016-11-29', ['%{date("yyyy-MM-dd")}'])), {});
  assert.is(
    call(parse_groks, 'x', ['%{date("yyyy-QQ"):d}']),
    'error: unable to parse grok: failed to compile grok pattern: unsupported letter "Q" in date format "yyyy-QQ"',
  );
  assert.is(
    call(parse_groks, 'x', ['%{date("yyyy", "Nowhere/Else"):d}']),
    'error: unable to parse grok: failed to compile grok pattern: invalid timezone "Nowhere/Else" in date matcher',
  );
});

test('user agents: unknown and empty agents give nulls', () => {
  assert.equal(plain(call(parse_user_agent, '')), {
    browser: { family: null, version: null },
    device: { category: null },
    os: { family: null, version: null },
  });
  const enriched = plain(call(parse_user_agent, '✓', 'enriched')) as Record<string, Record<string, unknown>>;
  assert.is(enriched.browser!.family, null);
  assert.is(enriched.device!.model, null);
});

test('Datadog queries', () => {
  const event = { message: 'Ünïcode error here', status: 'error', tags: ['env:prod'], a: { n: 5n } };
  const match = (query: string) => call(match_ext_query, event, query);
  assert.is(match('error'), true);
  assert.is(match('ünïcode'), true);
  assert.is(match('-error'), false);
  assert.is(match('env:prod AND @a.n:[1 TO 5]'), true);
  assert.is(match('@a.n:{1 TO 5}'), false);
  assert.is(match('@a.n:>4 OR nothing'), true);
  assert.is(match('env:pr*'), true);
  assert.is(match('_exists_:a.n NOT _missing_:a'), true);
  assert.is(match(''), true);
  assert.is(call(match_ext_query, 'x', 'a'), 'error: expected object, got string');
});

test.run();
