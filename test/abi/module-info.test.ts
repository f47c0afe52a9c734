import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readModuleInfo } from '../../abi/module-info.js';
import { emptyModule, info, withInfo } from '../support/module-bytes.js';

test('readModuleInfo returns the svc section from bytes or a compiled module', () => {
  const bytes = withInfo({ spans: [[0, 6]] });
  assert.equal(readModuleInfo(bytes), { ...info, spans: [[0, 6]] });
  assert.equal(readModuleInfo(new WebAssembly.Module(bytes)), { ...info, spans: [[0, 6]] });
});

test('readModuleInfo refuses modules without a well-formed svc section', () => {
  assert.throws(() => readModuleInfo(emptyModule()), /not a compiled remap module: it has no "svc" custom section/);
  assert.throws(() => readModuleInfo(emptyModule({ svc: '{' })), /"svc" section is not valid JSON/);
  assert.throws(() => readModuleInfo(emptyModule({ svc: '[]' })), /malformed: no "abi" version/);
  assert.throws(() => readModuleInfo(emptyModule({ svc: 'null' })), /malformed: not an object/);
  assert.throws(() => readModuleInfo(withInfo({ compiler: 1 })), /malformed: no "compiler" version/);
  assert.throws(() => readModuleInfo(withInfo({ source: undefined })), /malformed: no "source"/);
  assert.throws(() => readModuleInfo(withInfo({ options: null })), /malformed: no "options" object/);
  assert.throws(() => readModuleInfo(withInfo({ jsFunctions: [1] })), /"jsFunctions" is not a list of names/);
  assert.throws(() => readModuleInfo(new Uint8Array([1, 2, 3])), WebAssembly.CompileError);
});

test.run();
