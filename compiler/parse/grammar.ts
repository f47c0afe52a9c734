// The remap grammar, loaded from the recipe generated at build time (see scripts/build-grammar.mjs).
import * as ohm from 'ohm-js';
import recipe from '../grammar/recipe.js';

// `makeRecipe` is exported by ohm-js but missing from its type declarations.
const { makeRecipe } = ohm as unknown as { makeRecipe(recipe: unknown): ohm.Grammar };

export const grammar: ohm.Grammar = makeRecipe(recipe);
