import { defineFunction } from './define.js';
import { K, BYTES, INTEGER, BOOLEAN, NULL, arrayOf, exactObject, union } from '../types/kind.js';

const RECORD = exactObject({
  class: BYTES,
  domainName: BYTES,
  rData: BYTES,
  recordType: BYTES,
  recordTypeId: INTEGER,
  ttl: INTEGER,
});
const RECORDS = arrayOf(RECORD);

const DNS_RESPONSE = exactObject({
  additional: RECORDS,
  answers: RECORDS,
  authority: RECORDS,
  fullRcode: INTEGER,
  header: exactObject({
    aa: BOOLEAN,
    ad: BOOLEAN,
    anCount: INTEGER,
    arCount: INTEGER,
    cd: BOOLEAN,
    nsCount: INTEGER,
    opcode: INTEGER,
    qdCount: INTEGER,
    qr: BOOLEAN,
    ra: BOOLEAN,
    rcode: INTEGER,
    rd: BOOLEAN,
    tc: BOOLEAN,
  }),
  question: arrayOf(exactObject({ class: BYTES, domainName: BYTES, questionType: BYTES, questionTypeId: INTEGER })),
  rcodeName: union(BYTES, NULL),
});

export default defineFunction({
  name: 'dns_lookup',
  category: 'System',
  description:
    'Sends a DNS query for a name (record type and class selectable, resolver options optional) and returns the parsed response: header, question, answers, authority and additional records.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'qtype', kinds: K.Bytes, required: false, default: 'A' },
    { name: 'class', kinds: K.Bytes, required: false, default: 'IN' },
    { name: 'options', kinds: K.Object, required: false, default: '{  }' },
  ],
  fallible: true,
  returns: DNS_RESPONSE,
  pure: false,
  backing: { kind: 'js', library: 'node:dns' },
  examples: [
    {
      title: 'Basic lookup',
      source: `res = dns_lookup!("dns.google")
# reset non-static ttl so result is static
res.answers = map_values(res.answers) -> |value| {
  value.ttl = 600
  value
}
# remove extra responses for example
res.answers = filter(res.answers) -> |_, value| {
    value.rData == "8.8.8.8"
}
# remove class since this is also dynamic
res.additional = map_values(res.additional) -> |value| {
    del(value.class)
    value
}
res
`,
      mode: 'compile',
      returns:
        '{ "additional": [{ "domainName": "", "rData": "OPT ...", "recordType": "OPT", "recordTypeId": 41, "ttl": 0 }], "answers": [{ "class": "IN", "domainName": "dns.google", "rData": "8.8.8.8", "recordType": "A", "recordTypeId": 1, "ttl": 600 }], "authority": [], "fullRcode": 0, "header": { "aa": false, "ad": false, "anCount": 2, "arCount": 1, "cd": false, "nsCount": 0, "opcode": 0, "qdCount": 1, "qr": true, "ra": true, "rcode": 0, "rd": true, "tc": false }, "question": [{ "class": "IN", "domainName": "dns.google", "questionType": "A", "questionTypeId": 1 }], "rcodeName": "NOERROR" }',
    },
    {
      title: 'Custom class and qtype',
      source: `res = dns_lookup!("dns.google", class: "IN", qtype: "A")
# reset non-static ttl so result is static
res.answers = map_values(res.answers) -> |value| {
  value.ttl = 600
  value
}
# remove extra responses for example
res.answers = filter(res.answers) -> |_, value| {
    value.rData == "8.8.8.8"
}
# remove class since this is also dynamic
res.additional = map_values(res.additional) -> |value| {
    del(value.class)
    value
}
res
`,
      mode: 'compile',
      returns:
        '{ "additional": [{ "domainName": "", "rData": "OPT ...", "recordType": "OPT", "recordTypeId": 41, "ttl": 0 }], "answers": [{ "class": "IN", "domainName": "dns.google", "rData": "8.8.8.8", "recordType": "A", "recordTypeId": 1, "ttl": 600 }], "authority": [], "fullRcode": 0, "header": { "aa": false, "ad": false, "anCount": 2, "arCount": 1, "cd": false, "nsCount": 0, "opcode": 0, "qdCount": 1, "qr": true, "ra": true, "rcode": 0, "rd": true, "tc": false }, "question": [{ "class": "IN", "domainName": "dns.google", "questionType": "A", "questionTypeId": 1 }], "rcodeName": "NOERROR" }',
    },
    {
      title: 'Custom options',
      source: `res = dns_lookup!("dns.google", options: {"timeout": 30, "attempts": 5})
res.answers = map_values(res.answers) -> |value| {
  value.ttl = 600
  value
}
# remove extra responses for example
res.answers = filter(res.answers) -> |_, value| {
    value.rData == "8.8.8.8"
}
# remove class since this is also dynamic
res.additional = map_values(res.additional) -> |value| {
    del(value.class)
    value
}
res
`,
      mode: 'compile',
      returns:
        '{ "additional": [{ "domainName": "", "rData": "OPT ...", "recordType": "OPT", "recordTypeId": 41, "ttl": 0 }], "answers": [{ "class": "IN", "domainName": "dns.google", "rData": "8.8.8.8", "recordType": "A", "recordTypeId": 1, "ttl": 600 }], "authority": [], "fullRcode": 0, "header": { "aa": false, "ad": false, "anCount": 2, "arCount": 1, "cd": false, "nsCount": 0, "opcode": 0, "qdCount": 1, "qr": true, "ra": true, "rcode": 0, "rd": true, "tc": false }, "question": [{ "class": "IN", "domainName": "dns.google", "questionType": "A", "questionTypeId": 1 }], "rcodeName": "NOERROR" }',
    },
    {
      title: 'Custom server',
      source: `res = dns_lookup!("dns.google", options: {"servers": ["dns.quad9.net"]})
res.answers = map_values(res.answers) -> |value| {
  value.ttl = 600
  value
}
# remove extra responses for example
res.answers = filter(res.answers) -> |_, value| {
    value.rData == "8.8.8.8"
}
# remove class since this is also dynamic
res.additional = map_values(res.additional) -> |value| {
    del(value.class)
    value
}
res
`,
      mode: 'compile',
      returns:
        '{ "additional": [{ "domainName": "", "rData": "OPT ...", "recordType": "OPT", "recordTypeId": 41, "ttl": 0 }], "answers": [{ "class": "IN", "domainName": "dns.google", "rData": "8.8.8.8", "recordType": "A", "recordTypeId": 1, "ttl": 600 }], "authority": [], "fullRcode": 0, "header": { "aa": false, "ad": false, "anCount": 2, "arCount": 1, "cd": false, "nsCount": 0, "opcode": 0, "qdCount": 1, "qr": true, "ra": true, "rcode": 0, "rd": true, "tc": false }, "question": [{ "class": "IN", "domainName": "dns.google", "questionType": "A", "questionTypeId": 1 }], "rcodeName": "NOERROR" }',
    },
  ],
});
