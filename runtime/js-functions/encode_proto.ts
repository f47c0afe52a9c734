// encode_proto(value, desc_file, message_type, allow_lossy_string_coercion): an object serialized as the
// named message type of a descriptor set file; with lossy coercion, scalars fill string fields as text.

import type { JsFunction } from '../imports.js';
import { booleanArg, stringArg } from './support/args.js';
import { messageObject, messageType } from './support/protobuf.js';

export const encode_proto: JsFunction = ([value, descFile, name, lossy]) => {
  const type = messageType(stringArg(descFile!), stringArg(name!));
  const object = messageObject(value!, type, booleanArg(lossy!, true));
  return type.encode(type.fromObject(object)).finish().slice();
};
