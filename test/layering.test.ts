// The package layering of docs/architecture.md, checked on the sources of every package: no package imports
// one above it, a package is imported by the others only through its entries, and no two files import each
// other, directly or around a cycle.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Import {
  /** Root-relative path of the importing file. */
  file: string;
  /** Root-relative path of the imported source file (`.ts`). */
  target: string;
  /** `import type` / `export type`: erased when compiled. */
  typeOnly: boolean;
  /** `import(...)`: loaded only when that code runs. */
  dynamic: boolean;
}

/** Bottom to top. bench/ and scripts/ are not here: they are .mjs that run the built dist/. */
const PACKAGES = ['abi', 'compiler', 'runtime', 'host', 'cli', 'stdlib-as'] as const;
type Package = (typeof PACKAGES)[number];

/** What each package may import of the others. */
const MAY_IMPORT: Record<Package, readonly Package[]> = {
  abi: [],
  compiler: ['abi'],
  // The compiler proper only lazily (see the test below).
  runtime: ['abi', 'compiler'],
  // The pipeline compiles through the runtime (`compileToModule`), never the compiler directly.
  host: ['abi', 'runtime'],
  cli: ['abi', 'compiler', 'runtime', 'host'],
  // AssemblyScript: only the wire constants it shares with the TS side (abi/wire/, compiled by asc too).
  'stdlib-as': ['abi'],
};

/**
 * The files through which the other packages import a package. abi/ is a set of leaf modules, each its own
 * entry: independent formats (the batch layout, the value codec, the regex dialect...) that asc compiles
 * in part too, where one index would load all of them into every process.
 */
const ENTRIES: Record<Exclude<Package, 'abi'>, readonly string[]> = {
  // Light at import (diagnostics, kinds); the compiler proper comes with its `loadCompiler()`.
  compiler: ['compiler/index.ts'],
  // index.ts is the npm package's API; engine.ts what svc's own packages use beyond it.
  // enrichment.ts what the pipeline's enrichment tables share with remap's functions.
  runtime: ['runtime/index.ts', 'runtime/engine.ts', 'runtime/enrichment.ts'],
  // index.ts is the pipeline for the CLI's commands and service.ts the service alone, which the CLI loads
  // lazily; early.ts what it needs before that.
  host: ['host/index.ts', 'host/service.ts', 'host/early.ts'],
  cli: [],
  'stdlib-as': [],
};

/** Root-relative paths of the .ts files under `dir` (declaration files declare, they import nothing). */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}

const SPECIFIER =
  /\b(import|export)\s+(type\s+)?(?:[^'";]*?\bfrom\s*)?['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The relative imports of a source file; `.js` specifiers (and asc's extensionless ones) name `.ts` files. */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(SPECIFIER)].map((m) => {
    const target = relative(root, resolve(dirname(join(root, file)), m[3] ?? m[4]!));
    return {
      file,
      target: target.endsWith('.js') ? target.slice(0, -3) + '.ts' : /\.\w+$/.test(target) ? target : target + '.ts',
      typeOnly: m[2] !== undefined,
      dynamic: m[4] !== undefined,
    };
  });
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + '/');
const packageOf = (path: string) => PACKAGES.find((dir) => inside(path, dir));

const allImports = PACKAGES.flatMap(sources).flatMap(importsOf);

/** Every import cycle between files, each as the files around it: one per back edge of a depth-first walk. */
function cycles(imports: readonly Import[]): string[][] {
  const targets = new Map<string, string[]>();
  for (const { file, target } of imports) targets.set(file, [...(targets.get(file) ?? []), target]);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const target of targets.get(file) ?? []) {
      if (state.get(target) === 'open') found.push([...path.slice(path.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...targets.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

test('the scan finds the imports it checks', () => {
  assert.ok(allImports.some((i) => i.file === 'compiler/codegen/link.ts' && i.target === 'abi/batch.ts'));
  assert.ok(allImports.some((i) => i.file === 'runtime/index.ts' && i.target === 'compiler/index.ts'));
  assert.ok(allImports.some((i) => i.file === 'runtime/program.ts' && i.typeOnly));
  assert.ok(allImports.some((i) => i.file === 'cli/service.ts' && i.target === 'host/service.ts' && i.dynamic));
  assert.ok(allImports.some((i) => packageOf(i.file) === 'stdlib-as' && packageOf(i.target) === 'stdlib-as'));
  const edge = (file: string, target: string): Import => ({ file, target, typeOnly: false, dynamic: false });
  assert.equal(cycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'b')]), [['b', 'c', 'b']]);
});

test('no package imports one above it', () => {
  const violations = allImports
    .filter((i) => {
      const [from, to] = [packageOf(i.file)!, packageOf(i.target)];
      return to !== undefined && to !== from && !MAY_IMPORT[from].includes(to);
    })
    .map((i) => `${i.file} imports ${i.target}`);
  assert.equal(violations, []);
});

/** Layers inside a package: who may not import what. */
const INNER_RULES: Array<{ from: string; mayNotImport: string[] }> = [
  { from: 'compiler/functions', mayNotImport: ['compiler/check'] },
  { from: 'compiler/types', mayNotImport: ['compiler/check', 'compiler/functions'] },
];

test('inside compiler/, the function registry is below the checker and the kinds below both', () => {
  const violations = INNER_RULES.flatMap(({ from, mayNotImport }) =>
    allImports
      .filter((i) => inside(i.file, from) && mayNotImport.some((dir) => inside(i.target, dir)))
      .map((i) => `${i.file} imports ${i.target}`),
  );
  assert.equal(violations, []);
});

test('stdlib-as/ imports of abi/ only its wire constants', () => {
  const violations = allImports
    .filter((i) => inside(i.file, 'stdlib-as') && inside(i.target, 'abi') && !inside(i.target, 'abi/wire'))
    .map((i) => `${i.file} imports ${i.target}`);
  assert.equal(violations, []);
});

test('a package is imported by the others only through its entries', () => {
  const violations = allImports
    .filter((i) => {
      const [from, to] = [packageOf(i.file), packageOf(i.target)];
      return to !== undefined && to !== 'abi' && to !== from && !ENTRIES[to].includes(i.target);
    })
    .map((i) => `${i.file} imports ${i.target}`);
  assert.equal(violations, []);
});

/** The files a module loads when it is imported: static imports, transitively (type-only ones are erased). */
function staticClosure(file: string): Set<string> {
  const seen = new Set([file]);
  for (const current of seen) {
    for (const i of allImports) if (i.file === current && !i.typeOnly && !i.dynamic) seen.add(i.target);
  }
  return seen;
}

test('the library API loads the compiler proper (parser, checker, generator, registry) only lazily', () => {
  const proper = [
    'compiler/compile.ts',
    'compiler/parse',
    'compiler/check',
    'compiler/functions',
    'compiler/codegen/generate.ts',
  ];
  const loaded = [...staticClosure('runtime/index.ts')].filter((file) => proper.some((dir) => inside(file, dir)));
  assert.equal(loaded, []);
  assert.ok(allImports.some((i) => i.file === 'compiler/index.ts' && i.target === 'compiler/compile.ts' && i.dynamic));
});

test('asc and tsc share only abi/wire/: stdlib-as/ imports nothing else of abi/, and abi/wire/ imports nothing', () => {
  const violations = allImports
    .filter(
      (i) =>
        (inside(i.file, 'stdlib-as') && inside(i.target, 'abi') && !inside(i.target, 'abi/wire')) ||
        inside(i.file, 'abi/wire'),
    )
    .map((i) => `${i.file} imports ${i.target}`);
  assert.equal(violations, []);
});

test('no import cycle between files (type-only imports included)', () => {
  assert.equal(
    cycles(allImports).map((cycle) => cycle.join(' -> ')),
    [],
  );
});

test.run();
