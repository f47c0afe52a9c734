// Certificates for TLS tests, made with openssl (Node cannot issue certificates) in a temporary directory:
// a CA, a server certificate for localhost and 127.0.0.1, a client certificate it issued, and a client
// certificate of another CA. Starts processes: tests that use it are integration tests.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './svc.js';

export interface Certificates {
  dir: string;
  /** Paths of PEM files. */
  ca: string;
  serverCrt: string;
  serverKey: string;
  clientCrt: string;
  clientKey: string;
  /** The client key encrypted (PKCS#8) with `passphrase`. */
  clientKeyEncrypted: string;
  /** The client certificate and key as a PKCS#12 archive locked with `passphrase`. */
  clientP12: string;
  /** The client certificate in DER. */
  clientCrtDer: string;
  /** A client certificate and key issued by another CA. */
  strangerCrt: string;
  strangerKey: string;
  passphrase: string;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A P-256 key and a certificate for `subject`, signed by `issuer` (self-signed without one). */
function issue(dir: string, name: string, subject: string, issuer?: string, extensions?: string): void {
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`];
  if (issuer === undefined) {
    openssl(dir, ['req', '-x509', ...key, '-out', `${name}.crt`, '-days', '2', '-subj', subject]);
    return;
  }
  openssl(dir, ['req', ...key, '-out', `${name}.csr`, '-subj', subject]);
  const signing = ['-CA', `${issuer}.crt`, '-CAkey', `${issuer}.key`, '-CAcreateserial', '-days', '2'];
  if (extensions !== undefined) writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    ...signing,
    '-out',
    `${name}.crt`,
    ...(extensions === undefined ? [] : ['-extfile', `${name}.ext`]),
  ]);
}

export function makeCertificates(): Certificates {
  const dir = tempDir();
  const passphrase = 'key secret';
  issue(dir, 'ca', '/CN=svc test CA');
  issue(dir, 'server', '/CN=localhost', 'ca', 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  issue(dir, 'client', '/O=svc/CN=client', 'ca');
  issue(dir, 'stranger-ca', '/CN=another CA');
  issue(dir, 'stranger', '/CN=stranger', 'stranger-ca');
  const pass = `pass:${passphrase}`;
  openssl(dir, ['pkcs8', '-topk8', '-in', 'client.key', '-out', 'client-encrypted.key', '-passout', pass]);
  openssl(dir, [
    'pkcs12',
    '-export',
    '-in',
    'client.crt',
    '-inkey',
    'client.key',
    '-out',
    'client.p12',
    '-passout',
    pass,
  ]);
  openssl(dir, ['x509', '-in', 'client.crt', '-outform', 'DER', '-out', 'client.der']);
  const at = (file: string) => join(dir, file);
  return {
    dir,
    ca: at('ca.crt'),
    serverCrt: at('server.crt'),
    serverKey: at('server.key'),
    clientCrt: at('client.crt'),
    clientKey: at('client.key'),
    clientKeyEncrypted: at('client-encrypted.key'),
    clientP12: at('client.p12'),
    clientCrtDer: at('client.der'),
    strangerCrt: at('stranger.crt'),
    strangerKey: at('stranger.key'),
    passphrase,
  };
}
