// dist/compiler/grammar/recipe.js is generated from remap.ohm by scripts/build-grammar.mjs: the
// grammar in ohm's recipe form, which loads much faster than compiling the .ohm text.
declare const recipe: unknown;
export default recipe;
