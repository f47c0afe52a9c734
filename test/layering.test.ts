// The package layering of docs/architecture.md, checked on the sources: abi/ is the bottom, the compiler
// never reaches the runtime or the host, and the function registry sits below the checker.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Import {
  /** Root-relative path of the importing file. */
  file: string;
  /** Root-relative path the specifier resolves to. */
  target: string;
  /** `import type` / `export type`: erased when compiled. */
  typeOnly: boolean;
  /** `import(...)`: loaded only when that code runs. */
  dynamic: boolean;
}

/** Root-relative paths of the .ts files under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name));
}

const SPECIFIER = /\b(import|export)\s+(type\s+)?(?:[^'";]*?\bfrom\s*)?['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The relative imports of a source file. */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(SPECIFIER)].map((m) => ({
    file,
    target: relative(root, resolve(dirname(join(root, file)), m[3] ?? m[4]!)),
    typeOnly: m[2] !== undefined,
    dynamic: m[4] !== undefined,
  }));
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + '/');

/** Who may not import what. */
const RULES: Array<{ from: string; mayNotImport: string[] }> = [
  { from: 'abi', mayNotImport: ['compiler', 'runtime', 'host', 'cli'] },
  { from: 'compiler', mayNotImport: ['runtime', 'host', 'cli'] },
  { from: 'compiler/functions', mayNotImport: ['compiler/check'] },
  { from: 'compiler/types', mayNotImport: ['compiler/check', 'compiler/functions'] },
  // The pipeline compiles through the runtime (`compileToModule`), never the compiler directly.
  { from: 'host', mayNotImport: ['compiler', 'cli'] },
  { from: 'runtime', mayNotImport: ['host', 'cli'] },
];

const allImports = ['abi', 'compiler', 'runtime', 'host'].flatMap(sources).flatMap(importsOf);

test('the scan finds the imports it checks', () => {
  assert.ok(allImports.some((i) => i.file === 'compiler/codegen/link.ts' && i.target === 'abi/batch.js'));
  assert.ok(allImports.some((i) => i.file === 'runtime/index.ts' && i.target === 'compiler/compile.js' && i.dynamic));
  assert.ok(allImports.some((i) => i.file === 'runtime/program.ts' && i.typeOnly));
});

test('abi/ imports nothing of the packages above it; compiler/ never imports runtime/ or host/; host/ never imports compiler/', () => {
  const violations = RULES.flatMap(({ from, mayNotImport }) =>
    allImports
      .filter((i) => inside(i.file, from) && mayNotImport.some((dir) => inside(i.target, dir)))
      .map((i) => `${i.file} imports ${i.target}`),
  );
  assert.equal(violations, []);
});

test('runtime/ loads the compiler only lazily, through compiler/compile.js', () => {
  // runtime/index.ts, the library API, re-exports the diagnostics (CompileError, renderDiagnostics).
  const allowed = (i: Import) =>
    i.typeOnly || (i.dynamic && i.target === 'compiler/compile.js') || (i.file === 'runtime/index.ts' && inside(i.target, 'compiler/diagnostics'));
  const violations = allImports
    .filter((i) => inside(i.file, 'runtime') && inside(i.target, 'compiler') && !allowed(i))
    .map((i) => `${i.file} imports ${i.target}`);
  assert.equal(violations, []);
});

test.run();
