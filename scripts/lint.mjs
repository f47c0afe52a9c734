// The formatter and linter (Biome) over every source, and knip over the TypeScript's files and exports.
//   node scripts/lint.mjs        check: fails on a file not formatted, a lint finding, or an unused file or export
//   node scripts/lint.mjs --fix  format and apply Biome's safe fixes in place
// AssemblyScript decorates functions (`@inline`, `@external(...)`), which TypeScript's grammar and so Biome's
// parser refuse. stdlib-as/ is therefore checked as a copy (in .cache/lint/) where each decorator is a comment
// of the same text, and fixes are copied back with the decorators restored.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const fix = process.argv.includes('--fix');
const copyRoot = join(root, '.cache/lint');
const stdlib = join(root, 'stdlib-as');
const stdlibCopy = join(copyRoot, 'stdlib-as');

const DECORATOR = /^(\s*)@(inline|external)\b(\([^)]*\))?/gm;
const COMMENTED = /^(\s*)\/\*@(inline|external)\b(\([^)]*\))?\*\//gm;

function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) yield join(entry.parentPath, entry.name);
  }
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status === 0;
}

const biome = join(root, 'node_modules/.bin/biome');
const mode = fix ? ['check', '--write'] : ['ci', '--colors=off', '--error-on-warnings'];
let ok = run(biome, [...mode, '.']);

rmSync(copyRoot, { recursive: true, force: true });
mkdirSync(copyRoot, { recursive: true });
cpSync(stdlib, stdlibCopy, { recursive: true });
for (const file of tsFiles(stdlibCopy)) {
  writeFileSync(file, readFileSync(file, 'utf8').replace(DECORATOR, '$1/*@$2$3*/'));
}
// .cache/ is git-ignored, which Biome honours unless told not to for this run.
const copyArgs = ['--vcs-use-ignore-file=false', relative(root, stdlibCopy)];
ok = run(biome, [...mode, ...copyArgs]) && ok;
if (fix) {
  for (const file of tsFiles(stdlibCopy)) {
    const target = join(stdlib, relative(stdlibCopy, file));
    const text = readFileSync(file, 'utf8').replace(COMMENTED, '$1@$2$3');
    if (!existsSync(target) || readFileSync(target, 'utf8') !== text) writeFileSync(target, text);
  }
}

ok = run(join(root, 'node_modules/.bin/knip'), []) && ok;
if (!ok) {
  console.error(
    fix
      ? 'lint: some findings have no automatic fix'
      : 'lint: failed (`npm run lint:fix` formats and applies safe fixes)',
  );
  process.exit(1);
}
