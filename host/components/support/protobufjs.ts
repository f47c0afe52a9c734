// protobufjs, loaded on first use (only pipelines that speak a protobuf protocol import it), with a cheaper
// setter for the virtual property that names a oneof's member. protobufjs 8's generated decoders assign it for
// every member they decode, and its setter deletes each other member of the oneof from the message: a runtime
// call per name even when absent (a Vector `Value` has eight), most of a PushEvents request's decoding. This
// one deletes only those the message has as its own, which is all the original's deletes could remove.

import { createRequire } from 'node:module';
import type * as Protobuf from 'protobufjs';

let loaded: typeof Protobuf | undefined;

export function protobufjs(): typeof Protobuf {
  if (loaded !== undefined) return loaded;
  const protobuf = createRequire(import.meta.url)('protobufjs') as typeof Protobuf;
  const util = protobuf.util as unknown as { oneOfSetter: (names: string[]) => (this: object, name: string) => void };
  util.oneOfSetter = (names) =>
    function setOneOf(this: object, name: string) {
      for (const other of names)
        if (other !== name && Object.hasOwn(this, other)) delete (this as Record<string, unknown>)[other];
    };
  loaded = protobuf;
  return protobuf;
}
