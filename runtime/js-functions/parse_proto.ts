// parse_proto(value, desc_file, message_type): a protobuf payload decoded as the named message type of a
// descriptor set file.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { messageType, messageValue } from './support/protobuf.js';

export const parse_proto: JsFunction = ([value, descFile, name]) => {
  const type = messageType(stringArg(descFile!), stringArg(name!));
  const bytes = value instanceof Uint8Array ? value : Buffer.from(stringArg(value!));
  let message;
  try {
    message = type.decode(bytes);
  } catch (error) {
    throw new Error(`Error parsing protobuf: ${(error as Error).message}`);
  }
  return messageValue(message, type);
};
