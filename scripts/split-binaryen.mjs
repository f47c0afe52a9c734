// Splits binaryen's index.js into dist/binaryen/: binaryen.wasm and index.js, the same glue reading that file.
// The package embeds its 9.9 MB wasm as a string literal that V8 must scan and decode on every import:
// about two thirds of `import('binaryen')`, the largest part of a cold compile
// (compiler/codegen/binaryen.ts loads the split, or the package as shipped when the split is missing).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const outdir = fileURLToPath(new URL('../dist/binaryen', import.meta.url));
const source = readFileSync(createRequire(import.meta.url).resolve('binaryen'), 'utf8');

// The embedded module: a decoding function applied to a template literal that starts with wasm's magic.
const call = /([\w$]+)\(`\\0asm/.exec(source);
if (!call) fail('no embedded wasm module found');
const literalStart = call.index + call[1].length + 1;
let literalEnd = literalStart;
do literalEnd = source.indexOf('`', literalEnd + 1);
while (literalEnd !== -1 && source[literalEnd - 1] === '\\');
if (literalEnd === -1 || source[literalEnd + 1] !== ')') fail('the embedded wasm literal does not end as expected');

// biome-ignore lint/security/noGlobalEval lint/complexity/noCommaOperator: an indirect eval (global scope) of the package's own string literal
const text = (0, eval)(source.slice(literalStart, literalEnd + 1));
// The package's decoder maps each char code c to the byte `~c >> 8 & c` (c itself below 256).
const wasm = new Uint8Array(text.length);
for (let i = 0; i < text.length; i++) {
  const c = text.charCodeAt(i);
  wasm[i] = (~c >> 8) & c;
}
if (!WebAssembly.validate(wasm)) fail('the decoded module does not validate');

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, 'binaryen.wasm'), wasm);
writeFileSync(
  join(outdir, 'index.js'),
  "import { readFileSync as readBinaryenWasm } from 'node:fs';\n" +
    source.slice(0, call.index) +
    "readBinaryenWasm(new URL('./binaryen.wasm', import.meta.url))" +
    source.slice(literalEnd + 2),
);

function fail(reason) {
  // The build stops: a silently missing split would only show as slower compiles.
  console.error(`split-binaryen: ${reason} (has binaryen's index.js changed shape?)`);
  process.exit(1);
}
