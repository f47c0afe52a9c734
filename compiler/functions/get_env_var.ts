import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'get_env_var',
  category: 'System',
  description:
    'Returns the value of an environment variable of the running process; fails when it is unset or not valid Unicode.',
  parameters: [{ name: 'name', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  pure: false,
  backing: { kind: 'js', library: 'node:process' },
  examples: [
    { title: 'Get an environment variable', source: 'get_env_var!("HOME")', mode: 'type', returns: '"/root"' },
  ],
});
