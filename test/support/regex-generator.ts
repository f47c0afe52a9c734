// Generated Rust regex patterns and inputs for the differential tests of the regex engines.

/** mulberry32: a small seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ATOMS = [
  'a',
  'b',
  'é',
  ' ',
  '1',
  '_',
  '\\.',
  '\\n',
  '\\t',
  '\\xe9',
  '\\u00e9',
  '.',
  '\\d',
  '\\w',
  '\\s',
  '\\S',
  '\\D',
  '\\W',
  '[ab]',
  '[^a ]',
  '[a-c\\d]',
  '[\\s_]',
  '[é1]',
  '[^\\w]',
  '\\b',
  '\\B',
  '😀',
];
const QUANTIFIERS = ['*', '+', '?', '{1,3}', '{2}', '{0,}', '*?', '+?', '??', '{1,2}?'];
const ALPHABET = ['a', 'b', '1', '_', ' ', 'é', '😀', '\n', '\u00a0', '\u3000', '\t', 'x', '.', 'A'];

/** A generated piece of pattern and whether it can match the empty string. */
interface Piece {
  source: string;
  nullable: boolean;
}

const EMPTY_WIDTH = new Set(['\\b', '\\B']);
const NULLABLE_QUANTIFIERS = new Set(['*', '?', '{0,}', '*?', '??']);

/** What the Rust dialect adds, for engines that are all Rust's (the wasm engine against RE2). */
const RUST_ATOMS = [
  '(?i:k)',
  '(?i)σ',
  '(?i:[a-c])',
  '\\p{Greek}',
  '\\pL',
  '\\PL',
  '[[:alpha:]]',
  '(?s:.)',
  '(?m:^)',
  '(?m:$)',
  '[^\\n]',
];
const RUST_ALPHABET = ['K', '\u212a', 'Σ', 'ς', 'σ', 'α', '\r'];
const RUST_PREFIXES = ['(?i)', '(?m)', '(?s)', '(?U)', '(?is)'];

/**
 * Patterns and inputs. Without `rust`, no quantifier applies to a piece that can match empty (JS and RE2,
 * and Rust, treat empty iterations differently) and only syntax both dialects share is used; with `rust`,
 * flags, Unicode classes, case folding and quantified empty pieces come in too.
 */
export function generator(seed: number, rust = false) {
  const r = random(seed);
  const atoms = rust ? [...ATOMS, ...RUST_ATOMS] : ATOMS;
  const alphabet = rust ? [...ALPHABET, ...RUST_ALPHABET] : ALPHABET;
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
  let groups = 0;
  const expr = (depth: number): Piece => {
    const terms: Piece[] = [];
    for (let n = 1 + Math.floor(r() * 3); n > 0; n--) terms.push(term(depth));
    const piece = { source: terms.map((t) => t.source).join(''), nullable: terms.every((t) => t.nullable) };
    if (depth >= 2 || r() >= 0.2) return piece;
    const other = expr(depth + 1);
    return { source: `${piece.source}|${other.source}`, nullable: piece.nullable || other.nullable };
  };
  const term = (depth: number): Piece => {
    let atom: Piece;
    if (depth < 2 && r() < 0.25) {
      const body = expr(depth + 1);
      atom = { source: `${pick(['(', '(?:', `(?P<g${groups++}>`])}${body.source})`, nullable: body.nullable };
    } else {
      const source = pick(atoms);
      atom = { source, nullable: EMPTY_WIDTH.has(source) };
    }
    if ((atom.nullable && !rust) || r() >= 0.4) return atom;
    const quantifier = pick(QUANTIFIERS);
    return { source: atom.source + quantifier, nullable: NULLABLE_QUANTIFIERS.has(quantifier) };
  };
  return {
    pattern: () => {
      const flags = rust && r() < 0.2 ? pick(RUST_PREFIXES) : '';
      return `${flags}${r() < 0.5 ? pick(['^', '\\A']) : ''}${expr(0).source}${r() < 0.3 ? pick(['$', '\\z']) : ''}`;
    },
    input: () => Array.from({ length: Math.floor(r() * 10) }, () => pick(alphabet)).join(''),
  };
}
