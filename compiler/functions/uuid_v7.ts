import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'uuid_v7',
  category: 'Random',
  description:
    'Generates a version 7 UUID, which starts with a timestamp (`timestamp`, or the current time) followed by random bits.',
  parameters: [{ name: 'timestamp', kinds: K.Timestamp, required: false, default: '`now()`' }],
  returns: BYTES,
  pure: false,
  examples: [
    {
      title: 'Create a UUIDv7 with implicit `now()`',
      source: 'uuid_v7()',
      mode: 'type',
      returns: '"0135ddb4-a444-794c-a7a2-088f260104c0"',
    },
    {
      title: 'Create a UUIDv7 with explicit `now()`',
      source: 'uuid_v7(now())',
      mode: 'type',
      returns: '"0135ddb4-a444-794c-a7a2-088f260104c0"',
    },
    {
      title: 'Create a UUIDv7 with custom timestamp',
      source: "uuid_v7(t'2020-12-30T22:20:53.824727Z')",
      mode: 'type',
      returns: '"0176b5bd-5d19-794c-a7a2-088f260104c0"',
    },
  ],
});
