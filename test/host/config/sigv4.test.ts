import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { amzDate, signV4 } from '../../../host/config/sigv4.js';

// The cloud's published signature test suite: its example credentials, date, region and service.
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const headers = { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' };
const prefix =
  'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=';

function sign(method: string, url: string): string {
  return signV4({ method, url: new URL(url), headers, body: '' }, credentials, 'us-east-1', 'service');
}

test('get-vanilla', () => {
  assert.is(
    sign('GET', 'https://example.amazonaws.com/'),
    `${prefix}5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31`,
  );
});

test('get-vanilla-query-order-key-case: the query is sorted', () => {
  assert.is(
    sign('GET', 'https://example.amazonaws.com/?Param2=value2&Param1=value1'),
    `${prefix}b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500`,
  );
});

test('post-vanilla', () => {
  assert.is(
    sign('POST', 'https://example.amazonaws.com/'),
    `${prefix}5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b`,
  );
});

test('x-amz-date is the basic ISO 8601 form without milliseconds', () => {
  assert.is(amzDate(new Date('2015-08-30T12:36:00.123Z')), '20150830T123600Z');
});

test.run();
