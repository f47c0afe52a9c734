// Builds dist/ (what the package ships) and dist-test/ (the tests and benches, compiled apart so that dist/
// ships none of them). Each step names its inputs and outputs and runs only when stale: an output is missing,
// or an input is newer than the step's last successful run (its stamp in .cache/build/). Steps run as soon
// as the steps they need are done, so asc's two builds run beside tsc, and a changed test recompiles the
// tests alone.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const distTest = join(root, 'dist-test');
const stampDir = join(root, '.cache/build');
/** The source directories of the shipped code (tsconfig.build.json) and of the tests (tsconfig.test.json). */
const shippedDirs = ['abi', 'compiler', 'runtime', 'host', 'cli'];
const testDirs = ['test', 'bench'];
const asc = [
  'node_modules/assemblyscript/bin/asc.js',
  '--runtime',
  'stub',
  '-O3',
  '--noAssert',
  '--debug',
  '--initialMemory',
  '2',
];
const tsc = 'node_modules/typescript/bin/tsc';

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

/**
 * Newest mtime among `inputs` (relative to the root): files, and directories searched for files matching
 * `pattern`. Directories count too: their mtime changes when a file is added or removed.
 */
function newestInput({ inputs, pattern }) {
  let newest = 0;
  for (const input of inputs) {
    const path = join(root, input);
    if (!existsSync(path)) continue;
    if (!statSync(path).isDirectory()) {
      newest = Math.max(newest, statSync(path).mtimeMs);
      continue;
    }
    for (const entry of walk(path)) {
      if (entry.isDirectory || pattern.test(entry.path)) newest = Math.max(newest, statSync(entry.path).mtimeMs);
    }
  }
  return newest;
}

const stampOf = (name) => join(stampDir, name.replaceAll(' ', '-'));

/** Stale: an output is missing, or an input or a step it comes after is newer than its last run. */
function isStale(step) {
  const stamp = stampOf(step.name);
  if (!existsSync(stamp) || step.outputs.some((output) => !existsSync(join(root, output)))) return true;
  const newestStep = Math.max(0, ...(step.after ?? []).map((name) => statSync(stampOf(name)).mtimeMs));
  return Math.max(newestInput(step), newestStep) > statSync(stamp).mtimeMs;
}

/** Runs node with `args`, its output held and printed in one piece when it ends; rejects when it fails. */
function node(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      process.stdout.write(output);
      if (code === 0) resolve();
      else reject(new Error(`exit code ${code}`));
    });
  });
}

/**
 * Runs tsc -b on a project; when its outputs are missing (dist/ deleted), its incremental state would claim
 * they are there, so it starts afresh.
 */
async function tscBuild(step, project) {
  if (step.outputs.some((output) => !existsSync(join(root, output))))
    rmSync(join(root, '.cache/tsc', `${project}.tsbuildinfo`), { force: true });
  await node([tsc, '-b', `tsconfig.${project}.json`]);
}

/** Removes compiled files whose .ts source is gone, so a deleted test cannot keep running from dist-test/. */
function pruneOrphans(outDir, dirs, keep = []) {
  const compiled = /(\.d)?\.(js|ts)(\.map)?$/;
  for (const dir of dirs) {
    for (const { path, isDirectory } of walk(join(outDir, dir))) {
      if (isDirectory || !compiled.test(path) || keep.includes(relative(root, path))) continue;
      const source = join(root, relative(outDir, path)).replace(compiled, '.ts');
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
  for (const { path } of compiled.sort((a, b) => (a.path < b.path ? -1 : 1)))
    hash.update(path.slice(dist.length)).update(readFileSync(path));
  writeFileSync(join(dist, 'build-id'), hash.digest('hex') + '\n');
}

/**
 * Links every entry of dist/ into dist-test/, so the tests reach dist's files by the same relative paths
 * as from the source tree (`../../runtime/index.js`, `../../stdlib.wasm`, `../../../bin/svc.js`).
 */
function linkDistIntoTests() {
  if (!existsSync(distTest)) return;
  for (const name of readdirSync(dist)) {
    const link = join(distTest, name);
    if (!existsSync(link)) symlinkSync(join('..', 'dist', name), link);
  }
}

const grammarRecipe = 'dist/compiler/grammar/recipe.js';
const tsSources = /\.(ts|json)$/;

const steps = [
  {
    // The function indexes come from the function files; the build stops when a definition has no implementation.
    name: 'function indexes',
    inputs: [
      'compiler/functions',
      'stdlib-as/functions',
      'runtime/js-functions',
      'compiler/codegen/generate.ts',
      'scripts/gen-function-index.mjs',
    ],
    pattern: /\.ts$/,
    outputs: ['compiler/functions/index.ts', 'stdlib-as/functions/index.ts', 'runtime/js-functions/index.ts'],
    run: () => node(['scripts/gen-function-index.mjs']),
  },
  {
    name: 'asc',
    after: ['function indexes'],
    inputs: ['stdlib-as', 'abi/wire', 'scripts/build.mjs'],
    pattern: /\.ts$/,
    outputs: ['dist/stdlib.wasm'],
    run: () => node([...asc, 'stdlib-as/index.ts', '-o', 'dist/stdlib.wasm']),
  },
  {
    // The codec module: the stdlib's decoders and encoders without a program (docs/abi.md §9).
    name: 'asc codec',
    after: ['function indexes'],
    inputs: ['stdlib-as', 'abi/wire', 'scripts/build.mjs'],
    pattern: /\.ts$/,
    outputs: ['dist/codec.wasm'],
    run: () => node([...asc, 'stdlib-as/codec-module.ts', '-o', 'dist/codec.wasm']),
  },
  {
    name: 'tsc',
    after: ['function indexes'],
    inputs: [...shippedDirs, 'tsconfig.base.json', 'tsconfig.build.json'],
    pattern: tsSources,
    outputs: ['dist/runtime/index.js'],
    async run() {
      await tscBuild(this, 'build');
      // Tests compiled into dist/ by builds before dist-test/ existed.
      for (const dir of testDirs) rmSync(join(dist, dir), { recursive: true, force: true });
      pruneOrphans(dist, shippedDirs, [grammarRecipe]);
    },
  },
  {
    name: 'tests',
    after: ['tsc'],
    inputs: [...testDirs, 'abi/webassembly.d.ts', 'tsconfig.base.json', 'tsconfig.test.json'],
    pattern: tsSources,
    outputs: ['dist-test/test'],
    async run() {
      await tscBuild(this, 'test');
      pruneOrphans(distTest, testDirs);
    },
  },
  {
    name: 'grammar recipe',
    inputs: ['compiler/grammar/remap.ohm', 'scripts/build-grammar.mjs', 'package-lock.json'],
    outputs: [grammarRecipe],
    run: () => node(['scripts/build-grammar.mjs']),
  },
  {
    name: 'build id',
    after: ['asc', 'tsc', 'grammar recipe'],
    inputs: [],
    outputs: ['dist/build-id'],
    run: writeBuildId,
  },
  {
    name: 'binaryen split',
    inputs: ['scripts/split-binaryen.mjs', 'package-lock.json'],
    outputs: ['dist/binaryen/index.js'],
    run: () => node(['scripts/split-binaryen.mjs']),
  },
  {
    name: 'bundle',
    after: ['tsc', 'grammar recipe'],
    inputs: ['scripts/bundle.mjs', 'package-lock.json'],
    outputs: ['dist/bin/svc.js'],
    run: () => node(['scripts/bundle.mjs']),
  },
  {
    name: 'playground',
    inputs: ['host/api/playground/page.js', 'scripts/bundle-playground.mjs', 'package-lock.json'],
    outputs: ['dist/playground/index.html'],
    run: () => node(['scripts/bundle-playground.mjs']),
  },
];

/** Runs the stale steps, each once the steps it comes after are done (their outputs may be its inputs). */
async function build() {
  const started = Date.now();
  const done = new Map();
  const ran = [];
  const runStep = (step) => {
    if (!done.has(step.name)) {
      done.set(
        step.name,
        (async () => {
          await Promise.all((step.after ?? []).map((name) => runStep(steps.find((s) => s.name === name))));
          if (!isStale(step)) return;
          const stepStarted = new Date();
          try {
            await step.run.call(step);
          } catch (error) {
            throw new Error(`build: ${step.name} failed (${error.message})`);
          }
          // Stamped with the start time: an input saved while the step ran is newer and makes it stale again.
          mkdirSync(stampDir, { recursive: true });
          writeFileSync(stampOf(step.name), stepStarted.toISOString() + '\n');
          utimesSync(stampOf(step.name), stepStarted, stepStarted);
          ran.push(step.name);
        })(),
      );
    }
    return done.get(step.name);
  };
  const results = await Promise.allSettled(steps.map(runStep));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    console.error(failure.reason.message);
    process.exit(1);
  }
  linkDistIntoTests();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(ran.length === 0 ? 'build: up to date' : `build: ${ran.join(', ')} in ${seconds} s`);
}

await build();
