import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { KEY_VALUE_OBJECT } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_key_value',
  category: 'Parse',
  description:
    'Splits text of `key=value` pairs into an object. Delimiters are configurable, quoted keys and values are supported, a key repeated several times collects an array, and a standalone key becomes `true`.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'key_value_delimiter', kinds: K.Bytes, required: false, default: '=' },
    { name: 'field_delimiter', kinds: K.Bytes, required: false, default: ' ' },
    { name: 'whitespace', kinds: K.Bytes, required: false, default: 'lenient', enum: ['lenient', 'strict'] },
    { name: 'accept_standalone_key', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  returns: KEY_VALUE_OBJECT,
  examples: [
    {
      title: 'Parse simple key value pairs',
      source: 'parse_key_value!("zork=zook zonk=nork")',
      returns: '{ "zork": "zook", "zonk": "nork" }',
    },
    {
      title: 'Parse logfmt log',
      source: `parse_key_value!(
    "@timestamp=\\"Sun Jan 10 16:47:39 EST 2021\\" level=info msg=\\"Stopping all fetchers\\" tag#production=stopping_fetchers id=ConsumerFetcherManager-1382721708341 module=kafka.consumer.ConsumerFetcherManager"
)
`,
      returns:
        '{ "@timestamp": "Sun Jan 10 16:47:39 EST 2021", "level": "info", "msg": "Stopping all fetchers", "tag#production": "stopping_fetchers", "id": "ConsumerFetcherManager-1382721708341", "module": "kafka.consumer.ConsumerFetcherManager" }',
    },
    {
      title: 'Parse comma delimited log',
      source: `parse_key_value!(
    "path:\\"/cart_link\\", host:store.app.com, fwd: \\"102.30.171.16\\", dyno: web.1, connect:0ms, service:87ms, status:304, bytes:632, protocol:https",
    field_delimiter: ",",
    key_value_delimiter: ":"
)
`,
      returns:
        '{ "path": "/cart_link", "host": "store.app.com", "fwd": "102.30.171.16", "dyno": "web.1", "connect": "0ms", "service": "87ms", "status": "304", "bytes": "632", "protocol": "https" }',
    },
    {
      title: 'Parse comma delimited log with standalone keys',
      source: `parse_key_value!(
    "env:prod,service:backend,region:eu-east1,beta",
    field_delimiter: ",",
    key_value_delimiter: ":",
)
`,
      returns: '{ "env": "prod", "service": "backend", "region": "eu-east1", "beta": true }',
    },
    {
      title: 'Parse duplicate keys',
      source: `parse_key_value!(
    "at=info,method=GET,path=\\"/index\\",status=200,tags=dev,tags=dummy",
    field_delimiter: ",",
    key_value_delimiter: "=",
)
`,
      returns: '{ "at": "info", "method": "GET", "path": "/index", "status": "200", "tags": ["dev", "dummy"] }',
    },
    {
      title: 'Parse with strict whitespace',
      source: 'parse_key_value!(s\'app=my-app ip=1.2.3.4 user= msg=hello-world\', whitespace: "strict")',
      returns: '{ "app": "my-app", "ip": "1.2.3.4", "user": "", "msg": "hello-world" }',
    },
  ],
});
