import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile } from '../../../runtime/index.js';

test('get_env_var reads the environment at run time; an unset variable is an error', async () => {
  const program = await compile('get_env_var!(.name)');
  process.env.SVC_TEST_GET_ENV_VAR = 'production';
  assert.is(program.run({ name: 'SVC_TEST_GET_ENV_VAR' }).result, 'production');
  delete process.env.SVC_TEST_GET_ENV_VAR;
  assert.throws(
    () => program.run({ name: 'SVC_TEST_GET_ENV_VAR' }),
    (error: Error) =>
      error.message === 'function call error for "get_env_var" at (0:19): environment variable not found',
  );
  assert.throws(
    () => program.run({ name: 1 }),
    (error: Error) => /expected string, got integer/.test(error.message),
  );
});

test.run();
