// TLS between svc's components over loopback, with certificates openssl makes for the run: the http sink to
// an http_server with mutual TLS, the socket sink to a socket source, syslog over TLS, the http sink's ALPN;
// what a client checks of a server (authority, host name, `server_name`); the forms a certificate or key may
// take; and the errors naming the option when one cannot be used.

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createSecureServer } from 'node:http2';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect, type ConnectionOptions } from 'node:tls';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SinkDefinition, SourceDefinition } from '../../../../host/components/component.js';
import http from '../../../../host/components/sinks/http.js';
import socketSink from '../../../../host/components/sinks/socket.js';
import httpServer from '../../../../host/components/sources/http_server.js';
import socketSource from '../../../../host/components/sources/socket.js';
import syslog from '../../../../host/components/sources/syslog.js';
import { clientTlsOptions, serverTlsOptions, tlsEnableableSchema } from '../../../../host/components/support/tls.js';
import { makeCertificates } from '../../support/certificates.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { buildSource, runSource, sourceMetadata, testEnv, type Collected } from '../../support/sources.js';
import { freePort } from '../../support/svc.js';

const certs = makeCertificates();
const serverIdentity = { crt_file: certs.serverCrt, key_file: certs.serverKey };
const clientIdentity = { crt_file: certs.clientCrt, key_file: certs.clientKey };
/** Server TLS requiring a client certificate issued by the test CA. */
const mutualTls = { enabled: true, ...serverIdentity, ca_file: certs.ca, verify_certificate: true };

/** Runs a source listening on a free loopback port; `body` gets the port. */
async function withSource(
  definition: SourceDefinition,
  options: Record<string, unknown>,
  body: (port: number, run: Collected, env: ReturnType<typeof testEnv>) => Promise<void>,
) {
  const port = await freePort();
  const env = testEnv(definition.type);
  const run = runSource(await buildSource(definition, { address: `127.0.0.1:${port}`, ...options }, env));
  try {
    await body(port, run, env);
  } finally {
    run.shutdown.abort();
    await run.done;
  }
}

async function buildSink(definition: SinkDefinition, options: Record<string, unknown>) {
  const env = componentEnv(definition);
  return { env, sink: await definition.build(definition.options.parse(options), env) };
}

/** A POST over HTTPS with `tls`: its status, or the error that ended it. */
function post(url: string, tls: ConnectionOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', ...tls }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    sent.on('error', reject);
    sent.end('{"message":"hi"}\n');
  });
}

const ca = readFileSync(certs.ca);

/** The message `promise` rejects with. */
const rejection = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error.message,
  );

test('http sink → http_server with mutual TLS: events arrive; a client without a certificate or with another CA’s is refused', async () => {
  await withSource(httpServer, { tls: mutualTls, decoding: { codec: 'json' } }, async (port, run, env) => {
    const { sink } = await buildSink(http, {
      uri: `https://localhost:${port}/`,
      encoding: { codec: 'json' },
      tls: { ca_file: certs.ca, ...clientIdentity },
    });
    await sink.write(logBatch([{ message: 'one' }, { message: 'two' }]));
    await sink.close();
    assert.equal(
      run.events.map((event) => event.message),
      ['one', 'two'],
    );
    await rejection(post(`https://localhost:${port}/`, { ca }));
    const stranger = { ca, cert: readFileSync(certs.strangerCrt), key: readFileSync(certs.strangerKey) };
    await rejection(post(`https://localhost:${port}/`, stranger));
    assert.is(run.events.length, 2);
    assert.ok(
      env.logs.some((record) => record.message.startsWith('TLS handshake with 127.0.0.1 failed')),
      env.logLines.join('\n'),
    );
    // A plain HTTP client gets no answer from a TLS server.
    await rejection(fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'x' }));
  });
});

test('http_server with TLS but verify_certificate left off (a server’s default) takes clients without a certificate', async () => {
  await withSource(httpServer, { tls: { enabled: true, ...serverIdentity } }, async (port, run) => {
    assert.is(await post(`https://localhost:${port}/`, { ca }), 200);
    assert.is(run.events.length, 1);
  });
});

test('tls without enabled: true leaves a server plain, as in Vector', async () => {
  await withSource(httpServer, { tls: serverIdentity }, async (port, run) => {
    assert.is((await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'plain' })).status, 200);
    assert.is(run.events[0]!.message, 'plain');
  });
});

test('socket sink → socket source over mutual TLS; client_metadata_key gets the client certificate’s subject', async () => {
  const tls = { ...mutualTls, client_metadata_key: 'tls_client' };
  await withSource(socketSource, { mode: 'tcp', tls }, async (port, run) => {
    const { sink } = await buildSink(socketSink, {
      mode: 'tcp',
      address: `localhost:${port}`,
      encoding: { codec: 'text' },
      tls: { enabled: true, ca_file: certs.ca, ...clientIdentity },
    });
    await sink.write(logBatch([{ message: 'over tls' }]));
    await run.waitFor(1);
    await sink.close();
    assert.is(run.events[0]!.message, 'over tls');
    assert.equal(run.events[0]!.tls_client, { subject: 'O=svc,CN=client' });
  });
});

test('socket source over mutual TLS with log_namespace: the subject is in %socket.tls_client_metadata, no key needed', async () => {
  await withSource(socketSource, { mode: 'tcp', tls: mutualTls, log_namespace: true }, async (port, run) => {
    const { sink } = await buildSink(socketSink, {
      mode: 'tcp',
      address: `localhost:${port}`,
      encoding: { codec: 'text' },
      tls: { enabled: true, ca_file: certs.ca, ...clientIdentity },
    });
    await sink.write(logBatch([{ message: 'over tls' }]));
    await run.waitFor(1);
    await sink.close();
    assert.equal(run.events, ['over tls']);
    assert.equal(sourceMetadata(run.metadata[0]!, 'socket').tls_client_metadata, { subject: 'O=svc,CN=client' });
  });
});

test('syslog over TLS: a framed message from a client with a certificate is parsed', async () => {
  await withSource(syslog, { mode: 'tcp', tls: mutualTls }, async (port, run) => {
    const client = connect({
      port,
      host: '127.0.0.1',
      servername: 'localhost',
      ca,
      cert: readFileSync(certs.clientCrt),
      key: readFileSync(certs.clientKey),
    });
    client.end('<13>1 2026-11-28T10:00:00Z web app 42 - - hello over tls\n');
    await run.waitFor(1);
    assert.is(run.events[0]!.message, 'hello over tls');
    assert.is(run.events[0]!.appname, 'app');
  });
});

test('http sink: alpn_protocols with "h2" lets undici speak HTTP/2 to a server that offers it; HTTP/1.1 otherwise', async () => {
  const versions: string[] = [];
  const server = createSecureServer(
    { cert: readFileSync(certs.serverCrt), key: readFileSync(certs.serverKey), allowHTTP1: true },
    (request, response) => {
      versions.push(request.httpVersion);
      request.resume();
      request.on('end', () => response.end());
    },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    for (const alpn of [['h2'], undefined]) {
      const { sink } = await buildSink(http, {
        uri: `https://localhost:${port}/`,
        encoding: { codec: 'json' },
        tls: { ca_file: certs.ca, alpn_protocols: alpn },
      });
      await sink.write(logBatch([{ message: 'hi' }]));
      await sink.close();
    }
  } finally {
    server.close();
  }
  assert.equal(versions, ['2.0', '1.1']);
});

test('a client checks the server: its authority, its host name or `server_name`, unless told not to', async () => {
  await withSource(socketSource, { mode: 'tcp', tls: { enabled: true, ...serverIdentity } }, async (port) => {
    const healthcheck = async (tls: Record<string, unknown>) => {
      const { env, sink } = await buildSink(socketSink, {
        mode: 'tcp',
        address: `127.0.0.1:${port}`,
        encoding: { codec: 'text' },
        tls: { enabled: true, ...tls },
      });
      try {
        await sink.healthcheck!({});
      } finally {
        await sink.close();
      }
      return env;
    };
    assert.match(await rejection(healthcheck({})), /unable to verify the first certificate/);
    await healthcheck({ ca_file: certs.ca });
    assert.match(await rejection(healthcheck({ ca_file: certs.ca, server_name: 'other.example' })), /other\.example/);
    await healthcheck({ ca_file: certs.ca, server_name: 'localhost' });
    const unchecked = await healthcheck({ ca_file: certs.ca, server_name: 'other.example', verify_hostname: false });
    assert.ok(unchecked.logs.some((record) => record.message.includes('`verify_hostname` option is DISABLED')));
    await healthcheck({ verify_certificate: false });
  });
});

test('inline PEM, an encrypted key with key_pass, a DER certificate and a PKCS#12 identity all work', async () => {
  const tls = {
    enabled: true,
    crt_file: readFileSync(certs.serverCrt, 'utf8'),
    key_file: readFileSync(certs.serverKey, 'utf8'),
    ca_file: certs.ca,
    verify_certificate: true,
    client_metadata_key: 'peer',
  };
  await withSource(socketSource, { mode: 'tcp', tls }, async (port, run) => {
    const identities = [
      { crt_file: certs.clientP12, key_pass: certs.passphrase },
      { crt_file: certs.clientCrtDer, key_file: certs.clientKeyEncrypted, key_pass: certs.passphrase },
    ];
    for (const [i, identity] of identities.entries()) {
      const { sink } = await buildSink(socketSink, {
        mode: 'tcp',
        address: `localhost:${port}`,
        encoding: { codec: 'text' },
        tls: { enabled: true, ca_file: certs.ca, ...identity },
      });
      await sink.write(logBatch([{ message: `identity ${i}` }]));
      await run.waitFor(i + 1);
      await sink.close();
    }
    assert.equal(
      run.events.map((event) => [event.message, event.peer]),
      [
        ['identity 0', { subject: 'O=svc,CN=client' }],
        ['identity 1', { subject: 'O=svc,CN=client' }],
      ],
    );
  });
});

test('the certificate files a component reads are its `files` (a reload rebuilds it when one changes); inline PEM and TLS not enabled are not', () => {
  const tls = {
    enabled: true,
    crt_file: readFileSync(certs.serverCrt, 'utf8'),
    key_file: certs.serverKey,
    ca_file: certs.ca,
  };
  const source = socketSource.options.parse({ mode: 'tcp', address: '127.0.0.1:1', tls });
  assert.equal(socketSource.files!(source), [certs.ca, certs.serverKey]);
  const sink = http.options.parse({ uri: 'https://localhost/', encoding: { codec: 'json' }, tls: clientIdentity });
  assert.equal(http.files!(sink), [certs.clientCrt, certs.clientKey]);
  const plain = httpServer.options.parse({ address: '127.0.0.1:1', tls: serverIdentity });
  assert.equal(httpServer.files!(plain), []);
});

test('a certificate or key that cannot be used is an error naming the option', async () => {
  const errorOf = async (options: Record<string, unknown>) => {
    const config = tlsEnableableSchema.parse({ enabled: true, ...options });
    const built = [serverTlsOptions(config), clientTlsOptions(config, componentEnv(http).log)];
    return Promise.all(built.map(rejection));
  };
  const missing = `${certs.dir}/missing.crt`;
  assert.equal(await errorOf({ crt_file: missing, key_file: certs.serverKey }), [
    `tls.crt_file: cannot read "${missing}": no such file`,
    `tls.crt_file: cannot read "${missing}": no such file`,
  ]);
  const [notCa] = await errorOf({ ...serverIdentity, ca_file: certs.serverKey });
  assert.is(notCa, `tls.ca_file: "${certs.serverKey}" is not a PEM or DER X.509 certificate`);
  const [notKey] = await errorOf({ crt_file: certs.serverCrt, key_file: certs.serverCrt });
  assert.is(notKey, `tls.key_file: "${certs.serverCrt}" is not a PEM or DER (PKCS#8) private key`);
  const [mismatch] = await errorOf({ crt_file: certs.serverCrt, key_file: certs.clientKey });
  assert.is(mismatch, 'tls.key_file: is not the key of the certificate in tls.crt_file');
  const [locked] = await errorOf({ crt_file: certs.clientCrt, key_file: certs.clientKeyEncrypted });
  assert.is(locked, `tls.key_pass: "${certs.clientKeyEncrypted}" of tls.key_file is encrypted`);
  const [wrongPass] = await errorOf({ ...clientIdentity, key_file: certs.clientKeyEncrypted, key_pass: 'nope' });
  assert.is(wrongPass, `tls.key_pass: does not decrypt "${certs.clientKeyEncrypted}" of tls.key_file`);
  const [wrongP12] = await errorOf({ crt_file: certs.clientP12, key_pass: 'nope' });
  assert.match(wrongP12!, /^tls\.crt_file: .* \(tls\.key_pass does not unlock it\)$/);
  const [keyOnly, keyOnlyClient] = await errorOf({ key_file: certs.serverKey });
  assert.is(keyOnly, 'tls.crt_file: a server with TLS enabled needs a certificate (tls.crt_file and tls.key_file)');
  assert.is(keyOnlyClient, 'tls.key_file: needs tls.crt_file, the certificate of the key');
  const [certOnly] = await errorOf({ crt_file: certs.serverCrt });
  assert.match(certOnly!, /^tls\.crt_file: .* is a certificate: set tls\.key_file too/);
});

test.run();
