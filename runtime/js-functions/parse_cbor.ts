import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { valueKind } from './support/args.js';
import { floatValue } from './support/float.js';
import { Tokenizer, type Token } from 'cborg';

/**
 * `parse_cbor(value)`: the first CBOR item (bytes after it are ignored), read as VRL reads it (ciborium into
 * a remap value, checked against the reference engine): integers as integers (beyond i64 as floats) and
 * floats as floats, `1.0` too; text keys only; undefined as null; byte strings, tags and NaN are errors
 * with ciborium's texts. cborg's tokenizer reads the encoding: its decoder would make `1.0` the integer 1.
 */
export const parse_cbor: JsFunction = ([value]) => {
  if (!(typeof value === 'string' || value instanceof Uint8Array))
    throw new Error(`expected string, got ${valueKind(value!)}`);
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  try {
    return item(new Tokenizer(bytes, { allowIndefinite: true, allowUndefined: true, allowBigInt: true }));
  } catch (e) {
    throw new Error(`unable to parse cbor: ${(e as Error).message}`);
  }
};

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** ciborium's errors print as Rust debug forms. */
const semantic = (message: string) => new Error(`Semantic(None, "${message}")`);
const END_OF_FILE = 'Io(EndOfFile(()))';

function next(tokens: Tokenizer): Token {
  if (tokens.done()) throw new Error(END_OF_FILE);
  try {
    return tokens.next();
  } catch (e) {
    throw /not enough data/.test((e as Error).message) ? new Error(END_OF_FILE) : e;
  }
}

function item(tokens: Tokenizer): RemapValue {
  const token = next(tokens);
  const v = token.value as unknown;
  switch (token.type.name) {
    case 'uint':
    case 'negint': {
      const n = BigInt(v as number | bigint);
      if (n > I64_MAX) return floatValue(Number(n));
      if (n < I64_MIN) throw semantic(`invalid type: integer \`${n}\` as i128, expected any valid JSON value`);
      return n;
    }
    case 'float':
      if (Number.isNaN(v)) throw semantic('invalid value: floating point `NaN`, expected any valid JSON value');
      return floatValue(v as number);
    case 'string':
      return v as string;
    case 'true':
      return true;
    case 'false':
      return false;
    case 'null':
    case 'undefined':
      return null;
    case 'bytes':
      throw semantic('invalid type: byte array, expected any valid JSON value');
    case 'tag':
      throw semantic(bignum(token, tokens) ?? 'invalid type: enum, expected any valid JSON value');
    case 'break':
      throw semantic('invalid type: break, expected non-break');
    case 'array': {
      const items: RemapValue[] = [];
      for (let i = 0; i < (v as number); i++) {
        if (endOfIndefinite(tokens, v as number)) break;
        items.push(item(tokens));
      }
      return items;
    }
    default: {
      // map
      const object: Record<string, RemapValue> = Object.create(null);
      for (let i = 0; i < (v as number); i++) {
        if (endOfIndefinite(tokens, v as number)) break;
        const key = mapKey(tokens);
        object[key] = item(tokens);
      }
      return object;
    }
  }
}

/** An indefinite-length array or map ends at a break, which is read here. */
function endOfIndefinite(tokens: Tokenizer, length: number): boolean {
  if (length !== Infinity || tokens.data[tokens.pos()] !== 0xff) return false;
  tokens.next();
  return true;
}

/** The error a bignum (tags 2 and 3) gives: ciborium reads it as a 128-bit integer VRL has no place for. */
function bignum(tag: Token, tokens: Tokenizer): string | undefined {
  if (tag.value !== 2 && tag.value !== 3) return undefined;
  const content = next(tokens);
  if (content.type.name !== 'bytes') return undefined;
  const bytes = content.value as Uint8Array;
  if (bytes.length > 16) return 'bigint too large';
  const magnitude = bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
  return tag.value === 2
    ? `invalid type: integer \`${magnitude}\` as u128, expected any valid JSON value`
    : `invalid type: integer \`${-1n - magnitude}\` as i128, expected any valid JSON value`;
}

/** Map keys must be text; a tag on a key is ignored. Anything else is named as serde names it. */
function mapKey(tokens: Tokenizer): string {
  let token = next(tokens);
  while (token.type.name === 'tag') token = next(tokens);
  const v = token.value as unknown;
  const unexpected = (what: string) => semantic(`invalid type: ${what}, expected string`);
  switch (token.type.name) {
    case 'string':
      return v as string;
    case 'uint':
    case 'negint':
      throw unexpected(`integer \`${v}\``);
    case 'float':
      throw unexpected(`floating point \`${rustFloat(v as number)}\``);
    case 'true':
    case 'false':
      throw unexpected(`boolean \`${v}\``);
    case 'bytes':
      throw unexpected('bytes');
    case 'array':
      throw unexpected('sequence');
    case 'map':
      throw unexpected('map');
    default:
      throw unexpected(token.type.name); // null, undefined, break
  }
}

/** A float as Rust prints it: whole numbers with `.0`, never an exponent for those. */
function rustFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return Number.isInteger(x) ? `${BigInt(x)}.0` : String(x);
}
