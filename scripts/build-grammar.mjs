// Compiles compiler/grammar/remap.ohm into dist/compiler/grammar/recipe.js (an ESM module whose default
// export is ohm's recipe), so the parser loads the grammar without compiling it. Run after tsc.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ohm from 'ohm-js';

const root = fileURLToPath(new URL('..', import.meta.url));
const grammar = ohm.grammar(readFileSync(join(root, 'compiler/grammar/remap.ohm'), 'utf8'));
const out = join(root, 'dist/compiler/grammar/recipe.js');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `// Generated from compiler/grammar/remap.ohm by scripts/build-grammar.mjs.\nexport default ${grammar.toRecipe()};\n`,
);
