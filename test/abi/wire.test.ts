// The wire constants of abi/wire/ are one source for tsc and asc: the values asc compiled into dist/codec.wasm
// (which exports each of them as a global) must be those tsc reads, and no other file may declare a copy.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENT_KINDS } from '../../abi/batch.js';
import { EventKind } from '../../abi/wire/batch.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const codecWasm = fileURLToPath(new URL('../../codec.wasm', import.meta.url));
const wireDir = join(root, 'abi/wire');
/** Where copies would hide: every package but abi/wire itself. */
const SCANNED = ['abi', 'compiler', 'runtime', 'host', 'cli', 'stdlib-as'];

const wireFiles = readdirSync(wireDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join(wireDir, f));

/** Every wire constant as tsc evaluates it: `NAME` for a constant, `Enum.Member` for an enum member. */
function tsWireConstants(): Map<string, number> {
  const program = ts.createProgram(wireFiles, { noLib: true, noResolve: true, types: [] });
  const checker = program.getTypeChecker();
  const constants = new Map<string, number>();
  const add = (name: string, value: unknown, file: string) => {
    assert.type(value, 'number', `${file}: ${name} is not a number literal`);
    assert.not(constants.has(name), `${name} is declared twice in abi/wire/`);
    constants.set(name, value as number);
  };
  for (const file of wireFiles) {
    const source = program.getSourceFile(file)!;
    const at = relative(root, file);
    for (const statement of source.statements) {
      if (ts.isEnumDeclaration(statement)) {
        for (const member of statement.members) {
          add(`${statement.name.text}.${member.name.getText(source)}`, checker.getConstantValue(member), at);
        }
      } else if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          const type = checker.getTypeAtLocation(declaration.name);
          add(declaration.name.getText(source), type.isNumberLiteral() ? type.value : undefined, at);
        }
      } else {
        assert.unreachable(`${at}: only exported constants and enums belong in abi/wire/`);
      }
    }
  }
  return constants;
}

/** The globals dist/codec.wasm exports, by name (i32 values, and bigint for i64 ones). */
function asWireConstants(): Map<string, number | bigint> {
  const module = new WebAssembly.Module(readFileSync(codecWasm));
  const imports: Record<string, Record<string, () => never>> = {};
  for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    (imports[from] ??= {})[name] = () => {
      throw new Error(`${from}.${name} is not for this test`);
    };
  }
  const instance = new WebAssembly.Instance(module, imports);
  const constants = new Map<string, number | bigint>();
  for (const [name, value] of Object.entries(instance.exports)) {
    if (value instanceof WebAssembly.Global) constants.set(name, value.value as number | bigint);
  }
  return constants;
}

const TS_CONSTANTS = tsWireConstants();

test('the scan finds the wire constants', () => {
  assert.ok(TS_CONSTANTS.size > 100, `${TS_CONSTANTS.size} constants`);
  assert.is(TS_CONSTANTS.get('ABI_VERSION'), 6);
  assert.is(TS_CONSTANTS.get('Wire.Object'), 9);
});

test('asc compiled every wire constant with the value tsc reads', () => {
  const compiled = asWireConstants();
  const differing: string[] = [];
  for (const [name, value] of TS_CONSTANTS) {
    // asc makes a constant that fits a 32-bit word an i32 (0xffffffff reads as -1), any other an i64.
    const expected =
      Number.isSafeInteger(value) && value !== (value | 0) && value !== value >>> 0 ? BigInt(value) : value | 0;
    if (compiled.get(name) !== expected) differing.push(`${name}: tsc ${value}, asc ${compiled.get(name)}`);
  }
  assert.equal(differing, []);
});

test('the TS name tables follow the wire codes', () => {
  assert.equal(
    [EVENT_KINDS[EventKind.Log], EVENT_KINDS[EventKind.Metric], EVENT_KINDS[EventKind.Trace]],
    ['log', 'metric', 'trace'],
  );
  assert.is(EVENT_KINDS.length, 3);
});

// ---- no copies -------------------------------------------------------------------------------------------

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== wireDir && entry.name !== 'node_modules') yield* sourceFiles(path);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

const words = (camel: string) => camel.split(/(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toUpperCase());
const screaming = (camel: string) => (/^[A-Z0-9_]+$/.test(camel) ? camel : words(camel).join('_'));

/**
 * Names a copy of a wire constant would have, with its value: the constant's own name; for an enum member
 * `LookFlag.Behind`, `BEHIND`-like names prefixed by a word of the enum (`LOOK_BEHIND`, `FLAG_BEHIND`), and
 * the member's own name when it is in capitals (`KEEP_ON_ERROR`).
 */
function copyNames(): Map<string, number> {
  const names = new Map<string, number>();
  for (const [name, value] of TS_CONSTANTS) {
    const [enumName, member] = name.split('.');
    if (member === undefined) {
      names.set(name, value);
      continue;
    }
    for (const word of words(enumName!)) names.set(`${word}_${screaming(member)}`, value);
    if (/^[A-Z0-9_]+$/.test(member)) names.set(member, value);
  }
  return names;
}

/** Members of an enum declaration with their values (implicit ones counted on). */
function enumMembers(declaration: ts.EnumDeclaration, source: ts.SourceFile): Map<string, number> {
  const members = new Map<string, number>();
  let next = 0;
  for (const member of declaration.members) {
    const init = member.initializer;
    const value = init === undefined ? next : ts.isNumericLiteral(init) ? Number(init.text) : NaN;
    members.set(member.name.getText(source), value);
    next = value + 1;
  }
  return members;
}

test('no file outside abi/wire/ declares a copy of a wire constant', () => {
  const copies = copyNames();
  const wireEnums = new Map<string, Map<string, number>>();
  for (const [name, value] of TS_CONSTANTS) {
    const [enumName, member] = name.split('.');
    if (member !== undefined)
      (wireEnums.get(enumName!) ?? wireEnums.set(enumName!, new Map()).get(enumName!)!).set(member, value);
  }
  const found: string[] = [];
  let scanned = 0;
  for (const dir of SCANNED) {
    for (const file of sourceFiles(join(root, dir))) {
      scanned++;
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const at = relative(root, file);
      const visit = (node: ts.Node): void => {
        if (ts.isEnumDeclaration(node)) {
          const members = enumMembers(node, source);
          for (const [wireName, wireMembers] of wireEnums) {
            const shared = [...members].filter(([m, v]) => wireMembers.get(m) === v);
            if (node.name.text === wireName || (shared.length >= 2 && shared.length === members.size)) {
              found.push(`${at}: enum ${node.name.text} copies ${wireName}`);
            }
          }
        } else if (
          ts.isVariableDeclaration(node) &&
          ts.isIdentifier(node.name) &&
          node.initializer &&
          ts.isNumericLiteral(node.initializer)
        ) {
          const name = node.name.text;
          if (copies.get(name) === Number(node.initializer.text))
            found.push(`${at}: const ${name} copies a wire constant`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  assert.ok(scanned > 300, `scanned ${scanned} files`);
  assert.equal(found, []);
});

test.run();
