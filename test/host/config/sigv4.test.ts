import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { amzDate, sha256Hex, signV4 } from '../../../host/config/sigv4.js';

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

// The object storage's published examples (its signature version 4 documentation): the example bucket's
// keys, 24 May 2013; the path is signed encoded once, the payload's hash is the x-amz-content-sha256 header.
const storageCredentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const storagePrefix = 'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ';

test('object storage: GET Object with a Range header', () => {
  const request = {
    method: 'GET',
    url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
    headers: {
      Host: 'examplebucket.s3.amazonaws.com',
      Range: 'bytes=0-9',
      'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'x-amz-date': '20130524T000000Z',
    },
    body: '',
  };
  assert.is(
    signV4(request, storageCredentials, 'us-east-1', 's3'),
    `${storagePrefix}SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41`,
  );
});

test('object storage: PUT Object of a key with a reserved character, signed payload', () => {
  const body = new TextEncoder().encode('Welcome to Amazon S3.');
  const request = {
    method: 'PUT',
    url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
    headers: {
      Host: 'examplebucket.s3.amazonaws.com',
      Date: 'Fri, 24 May 2013 00:00:00 GMT',
      'x-amz-date': '20130524T000000Z',
      'x-amz-storage-class': 'REDUCED_REDUNDANCY',
      'x-amz-content-sha256': sha256Hex(body),
    },
    body,
  };
  assert.is(
    request.headers['x-amz-content-sha256'],
    '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
  );
  assert.is(
    signV4(request, storageCredentials, 'us-east-1', 's3'),
    `${storagePrefix}SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd`,
  );
});

test('x-amz-date is the basic ISO 8601 form without milliseconds', () => {
  assert.is(amzDate(new Date('2015-08-30T12:36:00.123Z')), '20150830T123600Z');
});

test.run();
