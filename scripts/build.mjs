// Builds dist/: the AssemblyScript stdlib with asc, TypeScript with tsc, the grammar recipe, binaryen's split,
// then the CLI bundle and the API's playground. Skips all when dist/ is newer than every input, so `npm test`
// right after a build starts at once.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
/** Written after a successful build; its mtime is the build's time. */
const stamp = join(dist, '.build-stamp');
/** The directories tsconfig.json compiles. */
const sourceDirs = ['abi', 'compiler', 'runtime', 'host', 'cli', 'test', 'bench', 'stdlib-as'];
const sourceFile = /\.(ts|ohm|json)$/;
const buildInputs = ['tsconfig.json', 'package.json', 'scripts/build.mjs', 'scripts/build-grammar.mjs', 'scripts/gen-function-index.mjs', 'scripts/bundle.mjs', 'scripts/split-binaryen.mjs', 'scripts/bundle-playground.mjs', 'host/api/playground/page.js'];

/** Yields `dir` and everything below it as `{ path, isDirectory }`. */
function* walk(dir) {
  if (!existsSync(dir)) return;
  yield { path: dir, isDirectory: true };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield { path, isDirectory: false };
  }
}

/** Newest mtime among the inputs. Directories count: their mtime changes when a file is added or removed. */
function newestInput() {
  let newest = 0;
  const consider = (path) => { newest = Math.max(newest, statSync(path).mtimeMs); };
  for (const dir of sourceDirs) {
    for (const { path, isDirectory } of walk(join(root, dir))) {
      if (isDirectory || sourceFile.test(path)) consider(path);
    }
  }
  for (const file of buildInputs) if (existsSync(join(root, file))) consider(join(root, file));
  return newest;
}

/** Removes compiled files whose .ts source is gone, so a deleted test cannot keep running from dist/. */
function pruneOrphans() {
  const compiled = /(\.d)?\.(js|ts)(\.map)?$/;
  for (const dir of sourceDirs) {
    for (const { path, isDirectory } of walk(join(dist, dir))) {
      if (isDirectory || !compiled.test(path)) continue;
      const source = join(root, relative(dist, path)).replace(compiled, '.ts');
      if (!existsSync(source)) rmSync(path);
    }
  }
}

/**
 * dist/build-id: sha256 of what decides a compiled module — the stdlib, the compiler's code and the abi/
 * package it encodes constants and module info with — so the module cache never serves a module built by
 * another compiler (runtime/cache.ts keys on it).
 */
function writeBuildId() {
  const hash = createHash('sha256').update(readFileSync(join(dist, 'stdlib.wasm')));
  const compiled = ['abi', 'compiler']
    .flatMap((dir) => [...walk(join(dist, dir))])
    .filter((f) => !f.isDirectory && f.path.endsWith('.js'));
  for (const { path } of compiled.sort((a, b) => (a.path < b.path ? -1 : 1))) hash.update(path.slice(dist.length)).update(readFileSync(path));
  writeFileSync(join(dist, 'build-id'), hash.digest('hex') + '\n');
}

function run(label, args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: ${label} failed`);
    process.exit(1);
  }
}

const started = new Date();
if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput()) {
  console.log('build: dist is up to date');
} else {
  // The function indexes come from the function files; the build stops when a definition has no implementation.
  run('function indexes', ['scripts/gen-function-index.mjs']);
  const asc = ['node_modules/assemblyscript/bin/asc.js', '--runtime', 'stub', '-O3', '--noAssert', '--debug', '--initialMemory', '2'];
  run('asc', [...asc, 'stdlib-as/index.ts', '-o', 'dist/stdlib.wasm']);
  // The codec module: the stdlib's decoders and encoders without a program (docs/abi.md §9).
  run('asc (codec module)', [...asc, 'stdlib-as/codec-module.ts', '-o', 'dist/codec.wasm']);
  run('tsc', ['node_modules/typescript/bin/tsc', '-p', '.']);
  // After tsc and before the grammar step, which writes its own file into dist/compiler/grammar.
  pruneOrphans();
  run('grammar recipe', ['scripts/build-grammar.mjs']);
  writeBuildId();
  run('binaryen split', ['scripts/split-binaryen.mjs']);
  run('bundle', ['scripts/bundle.mjs']);
  run('playground', ['scripts/bundle-playground.mjs']);
  // Stamped with the start time: a source saved while tsc ran is newer and triggers the next build.
  writeFileSync(stamp, started.toISOString() + '\n');
  utimesSync(stamp, started, started);
  console.log(`build: function indexes, asc, tsc, grammar recipe, binaryen split, bundle and playground in ${((Date.now() - started.getTime()) / 1000).toFixed(1)} s`);
}
