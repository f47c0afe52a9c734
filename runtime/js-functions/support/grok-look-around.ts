// Oniguruma's look-around in grok patterns, on the linear-time engine. Rust's regex has none, and the grok
// library writes it only in bounded forms: `(?<![0-9])`, `(?![0-9])`, `(?<={ )`, `(?= } ntoreturn:)`, a fixed
// number of code points before or after the position, each from a class. Each such group becomes a marker
// code point, which the regex program turns into a `Look` instruction (abi/regex-program.ts); the VM checks
// those code points in place, so matching stays linear.

import {
  codePointRanges,
  LOOK_AROUND_MARKER,
  type CodePointRanges,
  type LookAround,
} from '../../../abi/regex-program.js';

export interface MarkedPattern {
  /** The pattern with each look-around group replaced by its marker. */
  source: string;
  lookArounds: LookAround[];
}

export class LookAroundError extends Error {}

const OPENING = /^\(\?(<?)([=!])/;
/** One code point of a look-around body: an escape, a bracket class, `.`, or a literal (`{` when no count follows). */
const ELEMENT =
  /^(?:\\(?:[pP](?:\{[^}]*\}|.)|x\{[0-9A-Fa-f]+\}|x[0-9A-Fa-f]{2}|u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|.)|\[\^?\]?(?:\[:[a-z]+:\]|\\.|[^\]])*\]|\{(?!\d+(?:,\d*)?\})|[^()|*+?{\\[])/su;
const EXACT_COUNT = /^\{(\d+)\}/;
const VARIABLE_COUNT = /^(?:[*+?]|\{\d+,\d*\})/;
const MAX_LOOK_AROUND = 64;

/** Replaces every look-around group of `source` by a marker; throws LookAroundError for one that is unbounded. */
export function markLookArounds(source: string): MarkedPattern {
  const lookArounds: LookAround[] = [];
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    const opening = c === '(' ? OPENING.exec(source.slice(i)) : null;
    if (!opening) {
      if (c === '[') {
        inClass = true;
        // A `]` right after `[` or `[^` is a literal.
        const literalBracket = /^\[\^?\]/.exec(source.slice(i));
        if (literalBracket) {
          out += literalBracket[0];
          i += literalBracket[0].length - 1;
          continue;
        }
      }
      out += c;
      continue;
    }
    const bodyStart = i + opening[0].length;
    const end = closingParenthesis(source, bodyStart);
    const body = source.slice(bodyStart, end);
    lookArounds.push({ behind: opening[1] === '<', negated: opening[2] === '!', sequence: codePointSequence(body) });
    out += String.fromCodePoint(LOOK_AROUND_MARKER + lookArounds.length - 1);
    i = end;
  }
  return { source: out, lookArounds };
}

/** Index of the `)` closing the group whose body starts at `from`. */
function closingParenthesis(source: string, from: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return i;
  }
  throw new LookAroundError('look-around group is not closed');
}

/** The classes of a body that matches a fixed number of code points, one per code point. */
function codePointSequence(body: string): CodePointRanges[] {
  const sequence: CodePointRanges[] = [];
  for (let rest = body; rest !== ''; ) {
    const element = ELEMENT.exec(rest)?.[0];
    if (element === undefined) throw unbounded(body);
    rest = rest.slice(element.length);
    const count = EXACT_COUNT.exec(rest);
    const times = count ? Number(count[1]) : 1;
    if (count) rest = rest.slice(count[0].length);
    if (VARIABLE_COUNT.test(rest) || sequence.length + times > MAX_LOOK_AROUND) throw unbounded(body);
    const ranges = codePointRanges(element);
    for (let n = 0; n < times; n++) sequence.push(ranges);
  }
  return sequence;
}

const unbounded = (body: string) =>
  new LookAroundError(`look-around must match a fixed sequence of at most ${MAX_LOOK_AROUND} characters: "${body}"`);
