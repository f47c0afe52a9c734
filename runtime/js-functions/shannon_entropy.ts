// shannon_entropy(value, segmentation = "byte"): -Σ p·log2(p) over the frequencies of the bytes, the code
// points or the extended grapheme clusters (Intl.Segmenter) of the text.

import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { bytesArg, floatResult, stringArg } from './support/args.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function entropy(symbols: Iterable<string | number>): RemapValue {
  const counts = new Map<string | number, number>();
  let total = 0;
  for (const symbol of symbols) {
    counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    total++;
  }
  let sum = 0;
  for (const count of counts.values()) {
    const p = count / total;
    sum -= p * Math.log2(p);
  }
  return floatResult(sum + 0); // + 0 turns -0 (one symbol) into 0
}

export const shannon_entropy: JsFunction = ([value, segmentation]) => {
  const mode = segmentation === null ? 'byte' : stringArg(segmentation!);
  switch (mode) {
    case 'byte':
      return entropy(bytesArg(value!));
    case 'codepoint':
      return entropy(stringArg(value!));
    case 'grapheme':
      return entropy(Array.from(graphemes.segment(stringArg(value!)), (s) => s.segment));
  }
  throw new Error(`unknown segmentation: ${mode}`);
};
