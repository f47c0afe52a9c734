import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findSecretReferences, interpolateEnv, substituteSecrets } from '../../../host/config/interpolate.js';

const env = { HOME: '/home/u', EMPTY: '', DOTTED_NAME: 'x', 'java.home': '/jvm', MULTI: 'a\nb' };

function render(text: string) {
  return interpolateEnv(text, env, 'svc.yaml');
}

test('replaces $NAME and ${NAME}, names may hold dots', () => {
  assert.equal(render('a: $HOME/b ${DOTTED_NAME}y $java.home'), { text: 'a: /home/u/b xy /jvm', errors: [] });
});

test('defaults: :- applies when unset or empty, - only when unset', () => {
  assert.is(render('${EMPTY:-d} ${UNSET:-d} ${EMPTY-d} ${UNSET-d} ${HOME:-d}').text, 'd d  d /home/u');
});

test('required forms: :? rejects unset or empty, ? rejects unset only', () => {
  const { errors, text } = render('a: ${EMPTY?need}\nb: ${EMPTY:?need it}\nc: ${UNSET?gone}\nd: ${HOME:?x}');
  assert.is(text, 'a: \nb: \nc: \nd: /home/u');
  assert.equal(errors, [
    'svc.yaml:2: non-empty environment variable "EMPTY" required: need it',
    'svc.yaml:3: environment variable "UNSET" required: gone',
  ]);
});

test('$$ is a literal $; malformed references stay as written', () => {
  assert.equal(render('a: $$HOME $$$$ ${} $ x ${HOME x'), { text: 'a: $HOME $$ ${} $ x ${HOME x', errors: [] });
});

test('every missing variable is reported with its line; values with newlines are rejected', () => {
  assert.equal(render('a: $NOPE\nb: ok\nc: ${ALSO_NOPE} $MULTI').errors, [
    'svc.yaml:1: missing environment variable "NOPE"',
    'svc.yaml:3: missing environment variable "ALSO_NOPE"',
    'svc.yaml:3: environment variable "MULTI" contains a newline character',
  ]);
});

test('SECRET[backend.key] references are listed with their line: the first dot ends the backend', () => {
  const refs = findSecretReferences(
    'a: 1\ntoken: SECRET[vault.api/token-1]\nb: SECRET[file.x.y] SECRET[bad] SECRET[.x]',
    'svc.yaml',
  );
  assert.equal(refs, [
    { backend: 'vault', key: 'api/token-1', file: 'svc.yaml', line: 2 },
    { backend: 'file', key: 'x.y', file: 'svc.yaml', line: 3 },
  ]);
});

test('SECRET references are replaced by their values as written, anywhere in the text; one without a value is an error', () => {
  const values = new Map([
    ['file.x.y', 'v$1 SECRET[file.x.y]'],
    ['dir.k', 'multi\nline'],
  ]);
  assert.equal(substituteSecrets('a: "SECRET[file.x.y]"\nSECRET[dir.k]: [SECRET[bad]]', values, 'svc.yaml'), {
    text: 'a: "v$1 SECRET[file.x.y]"\nmulti\nline: [SECRET[bad]]',
    errors: [],
  });
  assert.equal(substituteSecrets('a: 1\nb: SECRET[file.nope]', values, 'svc.yaml').errors, [
    'svc.yaml:2: no value was resolved for SECRET[file.nope]',
  ]);
});

test.run();
