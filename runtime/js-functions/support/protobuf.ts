// Protobuf message types from descriptor set files (protobufjs), each file read once per path, and the
// mapping between decoded messages and remap values that VRL's parse_proto / encode_proto use.

import { readFileSync } from 'node:fs';
import type * as Protobuf from 'protobufjs';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { floatValue } from './float.js';
import { kindName } from './args.js';
import { library } from './library.js';

const protobufLibrary = library<typeof Protobuf>('protobufjs');
const descriptorLibrary = library<{ FileDescriptorSet: { decode(bytes: Uint8Array): unknown } }>(
  'protobufjs/ext/descriptor',
);

const roots = new Map<string, Protobuf.Root>();

/** The message type `name` of the descriptor set file at `path`. */
export function messageType(path: string, name: string): Protobuf.Type {
  let root = roots.get(path);
  if (!root) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new Error(`Failed to open descriptor file ${path}: ${(error as Error).message}`);
    }
    try {
      // Requiring the descriptor extension adds Root.fromDescriptor.
      const { FileDescriptorSet } = descriptorLibrary();
      const fromDescriptor = (protobufLibrary().Root as unknown as { fromDescriptor(set: unknown): Protobuf.Root })
        .fromDescriptor;
      root = fromDescriptor(FileDescriptorSet.decode(bytes));
    } catch (error) {
      throw new Error(`Failed to load descriptor file ${path}: ${(error as Error).message}`);
    }
    roots.set(path, root);
  }
  const type = root.lookup(name.replace(/^\.?/, '.'));
  if (!(type instanceof protobufLibrary().Type))
    throw new Error(`The message type '${name}' could not be found in '${path}'`);
  return type;
}

const INTEGER_TYPES = new Set([
  'int32',
  'sint32',
  'uint32',
  'fixed32',
  'sfixed32',
  'int64',
  'sint64',
  'uint64',
  'fixed64',
  'sfixed64',
]);

/** A decoded message as an object of its set fields (empty repeated and map fields left out). */
export function messageValue(message: Protobuf.Message, type: Protobuf.Type): RemapValue {
  if (type.fullName === '.google.protobuf.Timestamp') {
    const { seconds, nanos } = message as unknown as { seconds?: unknown; nanos?: number };
    return new Timestamp(BigInt(String(seconds ?? 0)) * 1_000_000_000n + BigInt(nanos ?? 0));
  }
  const out: Record<string, RemapValue> = Object.create(null);
  const record = message as unknown as Record<string, unknown>;
  for (const field of type.fieldsArray) {
    if (!Object.hasOwn(record, field.name)) continue;
    const raw = record[field.name];
    field.resolve();
    if (field.map) {
      const entries = Object.entries(raw as Record<string, unknown>);
      if (entries.length > 0) out[field.name] = Object.fromEntries(entries.map(([k, v]) => [k, scalar(v, field)]));
    } else if (field.repeated) {
      const items = raw as unknown[];
      if (items.length > 0) out[field.name] = items.map((item) => scalar(item, field));
    } else {
      out[field.name] = scalar(raw, field);
    }
  }
  return out;
}

function scalar(value: unknown, field: Protobuf.Field): RemapValue {
  const resolved = field.resolvedType;
  if (resolved instanceof protobufLibrary().Type) return messageValue(value as Protobuf.Message, resolved);
  if (resolved instanceof protobufLibrary().Enum)
    return resolved.valuesById[value as number] ?? BigInt(value as number);
  if (INTEGER_TYPES.has(field.type)) return BigInt.asIntN(64, BigInt(String(value)));
  if (field.type === 'double' || field.type === 'float') return floatValue(value as number);
  if (field.type === 'bytes') return new Uint8Array(value as Uint8Array);
  return value as RemapValue;
}

/** A remap object as the plain object protobufjs's `fromObject` takes, checked against `type`. */
export function messageObject(value: RemapValue, type: Protobuf.Type, lossyStrings: boolean): Record<string, unknown> {
  if (!isObject(value)) throw new Error(`expected object for message ${type.fullName.slice(1)}`);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = type.fields[key];
    if (!field) throw new Error(`field ${key} not found in message ${type.fullName.slice(1)}`);
    field.resolve();
    if (item === null) continue;
    if (field.map) {
      if (!isObject(item)) throw new Error(`expected object for map field ${key}`);
      out[key] = Object.fromEntries(Object.entries(item).map(([k, v]) => [k, fieldObject(v, field, lossyStrings)]));
    } else if (field.repeated) {
      if (!Array.isArray(item)) throw new Error(`expected array for repeated field ${key}`);
      out[key] = item.map((v) => fieldObject(v, field, lossyStrings));
    } else {
      out[key] = fieldObject(item, field, lossyStrings);
    }
  }
  return out;
}

function fieldObject(value: RemapValue, field: Protobuf.Field, lossyStrings: boolean): unknown {
  const resolved = field.resolvedType;
  const mismatch = () => new Error(`cannot encode ${kindName(value)} as ${field.type} field ${field.name}`);
  if (resolved instanceof protobufLibrary().Type) {
    if (resolved.fullName === '.google.protobuf.Timestamp' && value instanceof Timestamp) {
      const seconds = value.nanos / 1_000_000_000n - (value.nanos % 1_000_000_000n < 0n ? 1n : 0n);
      return { seconds: seconds.toString(), nanos: Number(value.nanos - seconds * 1_000_000_000n) };
    }
    return messageObject(value, resolved, lossyStrings);
  }
  if (resolved instanceof protobufLibrary().Enum) {
    if (typeof value === 'bigint') return Number(value);
    if (typeof value === 'string' && value in resolved.values) return value;
    throw mismatch();
  }
  if (INTEGER_TYPES.has(field.type)) {
    if (typeof value === 'bigint') return value.toString();
    throw mismatch();
  }
  switch (field.type) {
    case 'double':
    case 'float':
      if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
      throw mismatch();
    case 'bool':
      if (typeof value === 'boolean') return value;
      throw mismatch();
    case 'bytes':
      if (typeof value === 'string') return Buffer.from(value);
      if (value instanceof Uint8Array) return value;
      throw mismatch();
    default: // string
      if (typeof value === 'string') return value;
      if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
      if (lossyStrings && (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')) {
        return String(value);
      }
      throw mismatch();
  }
}

function isObject(value: RemapValue): value is Record<string, RemapValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
