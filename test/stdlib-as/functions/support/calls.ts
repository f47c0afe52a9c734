// Calls on value addresses, for tests that look at what a function did to its arguments and result.

import type { Stdlib } from '../../../support/stdlib.js';

/** Calls `name` on the values, returning the argument and result addresses (result 0 on error). */
export function callOnAddresses(stdlib: Stdlib, name: string, ...args: unknown[]): { args: number[]; result: number } {
  const addresses = args.map((a) => (a === undefined ? 0 : stdlib.put(a)));
  return { args: addresses, result: stdlib.exports[name]!(...addresses) };
}

/** Whether the value record at `address` is marked shared (writers copy it first). */
export function isShared(stdlib: Stdlib, address: number): boolean {
  return (new Uint8Array(stdlib.exports.memory.buffer)[address + 1]! & 1) === 1;
}

/** The items of the array at `address`, as addresses. */
export function arrayItems(stdlib: Stdlib, address: number): number[] {
  const n = stdlib.exports.array_len!(address);
  return Array.from({ length: n }, (_, i) => stdlib.exports.array_get!(address, i));
}

/** The field values of the object at `address`, as addresses, in key order. */
export function objectValues(stdlib: Stdlib, address: number): number[] {
  const n = stdlib.exports.object_len!(address);
  return Array.from({ length: n }, (_, i) => stdlib.exports.object_value!(address, i));
}
