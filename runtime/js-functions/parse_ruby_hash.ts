import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';

/**
 * `parse_ruby_hash(value)`: a Ruby hash literal as `inspect` writes it — `{ "a" => 1, :b => [nil, true],
 * c: 1.5 }` — with string, symbol and `name:` keys; values are strings (single or double quoted), symbols
 * (as strings), integers, floats, `nil`, booleans, arrays and hashes.
 */
export const parse_ruby_hash: JsFunction = ([value]) => {
  const parser = new RubyHashParser(stringArg(value!));
  const hash = parser.hash();
  parser.end();
  return hash;
};

const NUMBER = /-?\d+(?:_\d+)*(\.\d+)?(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*[?!]?/y;
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '0': '\0', e: '\x1b', s: ' ' };

class RubyHashParser {
  private at = 0;
  constructor(private readonly text: string) {}

  end(): void {
    this.space();
    if (this.at < this.text.length) this.fail('end of input');
  }

  hash(): Record<string, RemapValue> {
    this.expect('{');
    const hash: Record<string, RemapValue> = Object.create(null);
    this.space();
    if (this.eat('}')) return hash;
    do {
      this.space();
      const key = this.key();
      this.space();
      hash[key] = this.value();
      this.space();
    } while (this.eat(','));
    this.expect('}');
    return hash;
  }

  /** A key with its separator: `"k" =>`, `:k =>`, `k:` or `"k":`. */
  private key(): string {
    let key: string;
    const c = this.text[this.at];
    if (c === '"' || c === "'") key = this.string();
    else if (c === ':') {
      this.at++;
      key = this.symbolName();
    } else {
      key = this.match(NAME) ?? this.fail('a hash key');
      this.expect(':');
      return key;
    }
    this.space();
    if (this.eat('=>')) return key;
    if (this.eat(':')) return key;
    return this.fail('`=>`');
  }

  private value(): RemapValue {
    const c = this.text[this.at];
    if (c === '{') return this.hash();
    if (c === '[') return this.array();
    if (c === '"' || c === "'") return this.string();
    if (c === ':') {
      this.at++;
      return this.symbolName();
    }
    const number = this.match(NUMBER);
    if (number !== undefined) {
      const plain = number.replaceAll('_', '');
      return /[.eE]/.test(plain) ? Number(plain) : BigInt(plain);
    }
    const word = this.match(NAME);
    if (word === 'nil') return null;
    if (word === 'true') return true;
    if (word === 'false') return false;
    return this.fail('a value');
  }

  private array(): RemapValue[] {
    this.expect('[');
    const items: RemapValue[] = [];
    this.space();
    if (this.eat(']')) return items;
    do {
      this.space();
      items.push(this.value());
      this.space();
    } while (this.eat(','));
    this.expect(']');
    return items;
  }

  private string(): string {
    const quote = this.text[this.at++]!;
    let out = '';
    while (this.at < this.text.length) {
      const c = this.text[this.at++]!;
      if (c === quote) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const escaped = this.text[this.at++] ?? this.fail('an escaped character');
      out +=
        quote === '"'
          ? (ESCAPES[escaped] ?? escaped)
          : escaped === quote || escaped === '\\'
            ? escaped
            : `\\${escaped}`;
    }
    return this.fail(`closing ${quote}`);
  }

  private symbolName(): string {
    const c = this.text[this.at];
    if (c === '"' || c === "'") return this.string();
    return this.match(NAME) ?? this.fail('a symbol name');
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const m = pattern.exec(this.text);
    if (!m) return undefined;
    this.at = pattern.lastIndex;
    return m[0];
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  private eat(token: string): boolean {
    if (!this.text.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  private expect(token: string): void {
    if (!this.eat(token)) this.fail(`\`${token}\``);
  }

  private fail(expected: string): never {
    throw new Error(`unable to parse ruby hash: expected ${expected} at position ${this.at}`);
  }
}
