// What every match of a Rust pattern must contain, found by reading the pattern: sets of literals, each
// set holding a literal every match contains one of. A list of patterns tried in turn on one text
// (uap-core's rules) skips those whose sets the text misses instead of running them. It is conservative:
// whatever it cannot read for certain (inline flags, classes, escapes other than punctuation) contributes no
// literal, so a set only stands where every match must hold one of its literals.

/** One item of a sequence, with how often it repeats (`max` Infinity: unbounded). */
type Item =
  | { kind: 'char'; char: string; min: number; max: number }
  | { kind: 'other'; min: number; max: number }
  | { kind: 'group'; alternatives: Item[][]; min: number; max: number };

/** Thrown where the pattern holds what this reader does not take apart. */
class Unreadable extends Error {}

/**
 * Sets of literals that every match of `pattern` holds one of each (all sets must be met), the most
 * selective first (the one whose shortest literal is longest); none when nothing is certain.
 */
export function requiredLiterals(pattern: string): string[][] {
  let alternatives: Item[][];
  try {
    const parser = new Parser(pattern);
    alternatives = parser.alternatives();
    if (!parser.done()) return [];
  } catch (error) {
    if (error instanceof Unreadable) return [];
    throw error;
  }
  const sets = alternatives.length === 1 ? requirementsOf(alternatives[0]!) : [anyOf(alternatives)];
  return sets.filter((set): set is string[] => set !== undefined).sort(bySelectivity);
}

/** The sets of literals `items` require, none holding an empty literal. */
function requirementsOf(items: readonly Item[]): string[][] {
  const found: string[][] = [];
  const run = { text: '' };
  collect(items, run, found);
  found.push([run.text]);
  return found.filter((set) => set.every((text) => text !== ''));
}

/** One literal set met by every alternative (each one's most selective set, joined); undefined when an
 * alternative requires nothing. */
function anyOf(alternatives: readonly Item[][]): string[] | undefined {
  const joined: string[] = [];
  for (const items of alternatives) {
    const best = requirementsOf(items).sort(bySelectivity)[0];
    if (best === undefined) return undefined;
    joined.push(...best);
  }
  return joined;
}

/** The most selective set first: the one whose shortest literal is longest, then the one of fewer literals. */
function bySelectivity(a: readonly string[], b: readonly string[]): number {
  return shortest(b) - shortest(a) || a.length - b.length;
}

function shortest(set: readonly string[]): number {
  return Math.min(...set.map((text) => text.length));
}

/** Adds to `found` the literal sets `items` require (continuing `run`, the literal run before them). */
function collect(items: readonly Item[], run: { text: string }, found: string[][]): void {
  const end = () => {
    found.push([run.text]);
    run.text = '';
  };
  for (const item of items) {
    if (item.min === 0) {
      end();
    } else if (item.kind === 'char') {
      run.text += item.char;
      // A repeated character: the text holds it once here, then maybe more.
      if (item.max !== 1) end();
    } else if (item.kind === 'other') {
      end();
    } else if (item.alternatives.length !== 1) {
      end();
      const set = anyOf(item.alternatives);
      if (set !== undefined) found.push(set);
    } else if (item.max === 1) {
      // A group matched once reads as its items in place.
      collect(item.alternatives[0]!, run, found);
    } else {
      end();
      collect(item.alternatives[0]!, run, found);
      end();
    }
  }
}

/** Punctuation that a backslash makes literal (not `<` and `>`: the regex crate reads `\<` and `\>` as word
 * boundaries). */
const ESCAPED_LITERALS = new Set('\\.+*?()|[]{}^$#&-~/ _;:,=!@%\'"`'.split(''));

class Parser {
  private at = 0;
  constructor(private readonly pattern: string) {}

  done(): boolean {
    return this.at === this.pattern.length;
  }

  /** Alternatives up to the end of the pattern or the group's `)`. */
  alternatives(): Item[][] {
    const alternatives: Item[][] = [[]];
    while (!this.done()) {
      const c = this.pattern[this.at]!;
      if (c === ')') break;
      if (c === '|') {
        this.at++;
        alternatives.push([]);
        continue;
      }
      const item = this.atom();
      this.quantify(item);
      alternatives.at(-1)!.push(item);
    }
    return alternatives;
  }

  private atom(): Item {
    const c = this.pattern[this.at++]!;
    if (c === '(') {
      if (this.pattern[this.at] === '?') {
        const named = /^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(this.pattern.slice(this.at));
        if (named) this.at += named[0].length;
        else if (this.pattern.startsWith('?:', this.at)) this.at += 2;
        // Inline flags (`(?i)`, `(?x:`) change how the rest reads.
        else throw new Unreadable();
      }
      const alternatives = this.alternatives();
      if (this.pattern[this.at] !== ')') throw new Unreadable();
      this.at++;
      return { kind: 'group', alternatives, min: 1, max: 1 };
    }
    if (c === '[') {
      this.skipClass();
      return { kind: 'other', min: 1, max: 1 };
    }
    if (c === '\\') {
      const next = this.pattern[this.at++];
      if (next === undefined) throw new Unreadable();
      return ESCAPED_LITERALS.has(next)
        ? { kind: 'char', char: next, min: 1, max: 1 }
        : { kind: 'other', min: 1, max: 1 };
    }
    if (c === '.' || c === '^' || c === '$') return { kind: 'other', min: 1, max: 1 };
    if (c === '?' || c === '*' || c === '+' || c === '{' || c === '}' || c === ']') throw new Unreadable();
    // A code point, whole (a surrogate pair is one).
    const code = this.pattern.codePointAt(this.at - 1)!;
    if (code > 0xffff) this.at++;
    return { kind: 'char', char: String.fromCodePoint(code), min: 1, max: 1 };
  }

  /** A class from after its `[` to after its `]` (nested classes, escapes, a leading `]` or `^]`). */
  private skipClass(): void {
    let depth = 1;
    if (this.pattern[this.at] === '^') this.at++;
    if (this.pattern[this.at] === ']') this.at++;
    while (depth > 0) {
      const c = this.pattern[this.at++];
      if (c === undefined) throw new Unreadable();
      if (c === '\\') this.at++;
      else if (c === '[') {
        depth++;
        if (this.pattern[this.at] === '^') this.at++;
        if (this.pattern[this.at] === ']') this.at++;
      } else if (c === ']') depth--;
    }
  }

  /** Applies the quantifier after an item, if any (a lazy `?` after it changes nothing here). */
  private quantify(item: Item): void {
    const c = this.pattern[this.at];
    let min = 1;
    let max = 1;
    if (c === '?') [min, max] = [0, 1];
    else if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '{') {
      const bounds = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.at));
      if (!bounds) throw new Unreadable();
      min = Number(bounds[1]);
      max = bounds[2] === undefined ? min : bounds[3] === '' ? Infinity : Number(bounds[3]);
      this.at += bounds[0].length - 1;
    } else return;
    this.at++;
    if (this.pattern[this.at] === '?') this.at++;
    item.min = min;
    item.max = max;
    if (this.pattern[this.at] === '?' || this.pattern[this.at] === '*' || this.pattern[this.at] === '+')
      throw new Unreadable();
  }
}
