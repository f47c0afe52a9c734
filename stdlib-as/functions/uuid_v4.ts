// `uuid_v4()`: a random version 4 UUID, lowercase and hyphenated.

import { Value } from '../value';
import { randomBlock } from './support/random';
import { uuidText } from './support/uuid';

export function fn_uuid_v4(): Value {
  const random = randomBlock(16);
  store<u8>(random + 6, (load<u8>(random + 6) & 0x0f) | 0x40); // version 4
  store<u8>(random + 8, (load<u8>(random + 8) & 0x3f) | 0x80); // RFC 4122 variant
  return uuidText(random);
}
