// A secret of each backend for end-to-end tests: the file, directory and exec command holding `values` are
// written to `dir`, and `section` is the configuration's `secret:` block (backends f, d, e and c, each key
// `token`; c is a cloud_secrets_manager at `endpoint`).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SecretValues {
  file: string;
  directory: string;
  exec: string;
}

export function secretBackends(dir: string, values: SecretValues, endpoint: string): string {
  writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ token: values.file }));
  mkdirSync(join(dir, 'keys'));
  writeFileSync(join(dir, 'keys', 'token'), `${values.directory}\n`);
  writeFileSync(
    join(dir, 'exec.mjs'),
    `let input = '';
process.stdin.on('data', (c) => (input += c)).on('end', () => {
  const { secrets } = JSON.parse(input);
  process.stdout.write(JSON.stringify(Object.fromEntries(secrets.map((s) => [s, { value: ${JSON.stringify(values.exec)}, error: null }]))));
});
`,
  );
  return `secret:
  f: { type: file, path: ${join(dir, 'secrets.json')} }
  d: { type: directory, path: ${join(dir, 'keys')}, remove_trailing_whitespace: true }
  e: { type: exec, command: [${JSON.stringify(process.execPath)}, ${join(dir, 'exec.mjs')}] }
  c:
    type: cloud_secrets_manager
    secret_id: app
    endpoint: ${endpoint}
    auth: { access_key_id: AKID, secret_access_key: cloud-access-secret }
`;
}
