// Renders diagnostics byte for byte as VRL prints them: codespan-reporting 0.11's rich layout (`term::emit`
// with the default `Config` on `SimpleFile::new("", source)`), every line trimmed at its end, diagnostics
// separated by the blank line codespan ends each one with. The structure mirrors codespan's renderer so the
// two can be compared function by function. Label spans are UTF-8 byte offsets, as in VRL.

import { allNotes, noteText, type Diagnostic, type Label, type Severity } from './diagnostic.js';
import { endWithout } from './trim.js';

export interface RenderOptions {
  /** ANSI colours, as codespan's default styles write them through termcolor. */
  color?: boolean;
}

export function renderDiagnostics(source: string, diagnostics: Diagnostic[], options: RenderOptions = {}): string {
  const file = new SourceFile(source);
  const text = diagnostics.map((d) => renderDiagnostic(file, d, options.color ?? false)).join('');
  const lines = rustLines(text).map((line) => line.slice(0, endWithout(line, WHITE_SPACE)));
  // VRL's Formatter also starts with a newline and keeps the last diagnostic's blank line; we leave both out
  if (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

// codespan's default `Config`: tab stops, and the lines shown after the start / before the end of a
// multi-line label (the lines in between collapse into a `·` break).
const TAB_WIDTH = 4;
const START_CONTEXT_LINES = 3;
const END_CONTEXT_LINES = 1;

const CHARS = {
  snippetStart: '┌─',
  border: '│',
  borderBreak: '·',
  noteBullet: '=',
  pointer: '│',
  caret: { primary: '^', secondary: '-' },
  multiCaret: { primary: '^', secondary: "'" },
  multiTopLeft: '╭',
  multiTop: '─',
  multiBottomLeft: '╰',
  multiBottom: '─',
  multiLeft: '│',
} as const;

// termcolor's escape codes for codespan's default styles. Setting a style always resets first.
const RESET = '\x1b[0m';
const STYLES = {
  header: { error: '\x1b[1m\x1b[38;5;9m', warning: '\x1b[1m\x1b[38;5;11m' }, // bold intense red / yellow
  headerMessage: '\x1b[1m',
  primaryLabel: { error: '\x1b[31m', warning: '\x1b[33m' },
  secondaryLabel: '\x1b[34m',
  gutter: '\x1b[34m', // line numbers, borders, note bullets
} as const;

/** Rust's `char::is_whitespace`, which `str::trim_end` uses; all its characters are in the BMP. */
const WHITE_SPACE = /\p{White_Space}/u;
const LEADING_WHITESPACE = /^\p{White_Space}*/u;

type LabelStyle = 'primary' | 'secondary';
const PRIORITY: Record<LabelStyle, number> = { secondary: 0, primary: 1 };

/** A label on one line; offsets are bytes from the line start, `end` at least `start + 1`. */
interface SingleLabel {
  style: LabelStyle;
  start: number;
  end: number;
  message: string;
}

/** One line's share of a multi-line label; `column` is the label's gutter column. */
interface MultiLabel {
  column: number;
  style: LabelStyle;
  part: { kind: 'top'; start: number } | { kind: 'left' } | { kind: 'bottom'; end: number; message: string };
}

interface LabelledLine {
  singles: SingleLabel[];
  multis: MultiLabel[];
  mustRender: boolean;
}

interface Snippet {
  padding: number;
  locus: { line: number; column: number };
  multiCount: number;
  lines: Map<number, LabelledLine>;
}

/** A source character as the renderer measures it: byte offset in its line, UTF-8 size, display width. */
interface Char {
  byte: number;
  size: number;
  width: number;
  text: string;
}

/** A source line as shown: without its line ending, measured. */
interface ShownLine {
  number: number;
  chars: Char[];
  length: number;
  indent: number;
}

/** codespan's `SimpleFile`: lines start after each `\n`; a line's range includes its line ending. */
class SourceFile {
  private readonly bytes: Uint8Array;
  private readonly lineStarts: number[] = [0];

  constructor(source: string) {
    this.bytes = new TextEncoder().encode(source);
    this.bytes.forEach((byte, index) => {
      if (byte === 0x0a) this.lineStarts.push(index + 1);
    });
  }

  get length(): number {
    return this.bytes.length;
  }

  lineIndex(byte: number): number {
    let index = 0;
    while (index + 1 < this.lineStarts.length && this.lineStarts[index + 1]! <= byte) index++;
    return index;
  }

  lineStart(index: number): number {
    return this.lineStarts[index] ?? this.bytes.length;
  }

  private rawLine(index: number): string {
    return new TextDecoder().decode(this.bytes.subarray(this.lineStart(index), this.lineStart(index + 1)));
  }

  /** 1-based line and column (in chars) of a byte offset. */
  location(byte: number): { line: number; column: number } {
    const index = this.lineIndex(byte);
    const offset = byte - this.lineStart(index);
    const charsBefore = measureChars(this.rawLine(index)).filter((ch) => ch.byte + ch.size <= offset).length;
    return { line: index + 1, column: charsBefore + 1 };
  }

  shownLine(index: number): ShownLine {
    const line = this.rawLine(index);
    const text = line.slice(0, endWithout(line, /[\n\r\0]/));
    const indentText = LEADING_WHITESPACE.exec(text)![0];
    return { number: index + 1, chars: measureChars(text), length: utf8Length(text), indent: utf8Length(indentText) };
  }
}

function renderDiagnostic(file: SourceFile, diagnostic: Diagnostic, color: boolean): string {
  const snippet = diagnostic.labels.length > 0 ? collectSnippet(file, diagnostic.labels) : undefined;
  const out = new Renderer(color, diagnostic.severity, snippet?.padding ?? 0, snippet?.multiCount ?? 0);
  const notes = allNotes(diagnostic).map(noteText);
  out.header(diagnostic.code, diagnostic.message);
  if (snippet) {
    out.snippetStart(snippet.locus);
    out.emptyLine();
    renderSnippetLines(out, file, snippet);
    // codespan leaves out the closing border when nothing follows it
    if (notes.length > 0) out.emptyLine();
  }
  for (const note of notes) out.note(note);
  out.newline();
  return out.text;
}

/** Groups labels by line the way codespan's `RichDiagnostic::render` does. */
function collectSnippet(file: SourceFile, labels: Label[]): Snippet {
  const lines = new Map<number, LabelledLine>();
  const lineAt = (index: number): LabelledLine => {
    let line = lines.get(index);
    if (!line) lines.set(index, (line = { singles: [], multis: [], mustRender: false }));
    return line;
  };
  let padding = 0;
  let multiCount = 0;
  let locusLabel = labels[0]!;
  for (const label of labels) {
    const [start, end] = label.span;
    if (!(start >= 0 && start <= end && end <= file.length)) {
      throw new RangeError(`label span [${start}, ${end}] is outside the source (${file.length} bytes)`);
    }
    // the header points at the earliest label of the highest style
    const higherStyle = label.primary && !locusLabel.primary;
    if (higherStyle || (label.primary === locusLabel.primary && start < locusLabel.span[0])) locusLabel = label;
    const style: LabelStyle = label.primary ? 'primary' : 'secondary';
    const startIndex = file.lineIndex(start);
    const endIndex = file.lineIndex(end);
    padding = Math.max(padding, String(endIndex + 1).length);
    const startOffset = start - file.lineStart(startIndex);
    if (startIndex === endIndex) {
      const line = lineAt(startIndex);
      // a zero-length span still gets one caret
      const endOffset = Math.max(end - file.lineStart(startIndex), startOffset + 1);
      const single = { style, start: startOffset, end: endOffset, message: label.message };
      line.singles.splice(singleInsertionIndex(line.singles, single), 0, single);
      line.mustRender = true;
      continue;
    }
    const column = multiCount++;
    const top = lineAt(startIndex);
    top.multis.push({ column, style, part: { kind: 'top', start: startOffset } });
    top.mustRender = true;
    for (let index = startIndex + 1; index < endIndex; index++) {
      const line = lineAt(index);
      line.multis.push({ column, style, part: { kind: 'left' } });
      line.mustRender ||= index - startIndex <= START_CONTEXT_LINES || endIndex - index <= END_CONTEXT_LINES;
    }
    const bottom = lineAt(endIndex);
    const endOffset = end - file.lineStart(endIndex);
    bottom.multis.push({ column, style, part: { kind: 'bottom', end: endOffset, message: label.message } });
    bottom.mustRender = true;
  }
  return { padding, locus: file.location(locusLabel.span[0]), multiCount, lines };
}

/**
 * Where codespan inserts a single-line label: it keeps them sorted by (start, end) using Rust's
 * `binary_search_by`, which on equal ranges finds the last equal one; inserting there puts a repeated range
 * before the last label with that range (two same-range labels end up in reverse order).
 */
function singleInsertionIndex(labels: SingleLabel[], label: SingleLabel): number {
  const compare = (other: SingleLabel) => other.start - label.start || other.end - label.end;
  let index = 0;
  while (index < labels.length && compare(labels[index]!) <= 0) index++;
  return index > 0 && compare(labels[index - 1]!) === 0 ? index - 1 : index;
}

function renderSnippetLines(out: Renderer, file: SourceFile, snippet: Snippet): void {
  const shown = [...snippet.lines].filter(([, line]) => line.mustRender).sort(([a], [b]) => a - b);
  shown.forEach(([index, line], position) => {
    out.sourceLine(file.shownLine(index), line.singles, line.multis);
    const next = shown[position + 1];
    if (!next) return;
    if (next[0] - index === 2) {
      // a single hidden line costs no more than a break, so codespan shows it
      out.sourceLine(file.shownLine(index + 1), [], snippet.lines.get(index + 1)?.multis ?? []);
    } else if (next[0] - index > 2) {
      out.breakLine(line.multis);
    }
  });
}

/** codespan's `Renderer`: writes one diagnostic, with termcolor's escape codes when colour is on. */
class Renderer {
  text = '';

  constructor(
    private readonly color: boolean,
    private readonly severity: Severity,
    private readonly padding: number,
    private readonly multiCount: number,
  ) {}

  header(code: number, message: string): void {
    this.setStyle(STYLES.header[this.severity]);
    this.write(`${this.severity}[E${String(code).padStart(3, '0')}]`);
    this.setStyle(STYLES.headerMessage);
    this.write(`: ${message}`);
    this.reset();
    this.newline();
  }

  snippetStart(locus: { line: number; column: number }): void {
    this.outerGutter();
    this.styled(STYLES.gutter, CHARS.snippetStart);
    this.write(` :${locus.line}:${locus.column}`);
    this.newline();
  }

  /** The border line around a snippet (codespan keeps the gutter columns of multi-line labels empty there). */
  emptyLine(): void {
    this.outerGutter();
    this.styled(STYLES.gutter, CHARS.border);
    this.innerGutter([]);
    this.newline();
  }

  breakLine(multis: MultiLabel[]): void {
    this.outerGutter();
    this.styled(STYLES.gutter, CHARS.borderBreak);
    this.innerGutter(multis);
    this.newline();
  }

  note(text: string): void {
    rustLines(text).forEach((line, index) => {
      this.outerGutter();
      if (index === 0) this.styled(STYLES.gutter, CHARS.noteBullet);
      else this.write(' ');
      this.write(` ${line}\n`);
    });
  }

  newline(): void {
    this.write('\n');
  }

  /** A source line, then its single-line labels, then the tops and bottoms of multi-line labels. */
  sourceLine(line: ShownLine, singles: SingleLabel[], multis: MultiLabel[]): void {
    this.sourceText(line, singles, multis);
    if (singles.length > 0) this.singleLabels(line, singles, multis);
    multis.forEach((multi, position) => this.multiLabelCaret(line, multis, multi, position));
  }

  private sourceText(line: ShownLine, singles: SingleLabel[], multis: MultiLabel[]): void {
    this.setStyle(STYLES.gutter);
    this.write(String(line.number).padStart(this.padding, ' '));
    this.reset();
    this.write(' ');
    this.styled(STYLES.gutter, CHARS.border);
    for (let column = 0; column < this.multiCount; column++) {
      const multi = multis.find((m) => m.column === column);
      if (!multi) this.write('  ');
      else if (multi.part.kind !== 'top') this.multiLeft(multi.style);
      else if (multi.part.start <= line.indent) this.multiCorner(multi.style, CHARS.multiTopLeft);
      else this.write('  ');
    }
    this.write(' ');
    let inPrimary = false;
    for (const ch of line.chars) {
      const end = ch.byte + ch.size;
      const isPrimary =
        singles.some((l) => l.style === 'primary' && overlaps(l.start, l.end, ch.byte, end)) ||
        multis.some((m) => m.style === 'primary' && coversMulti(m, ch.byte, end));
      if (isPrimary && !inPrimary) this.setStyle(STYLES.primaryLabel[this.severity]);
      else if (!isPrimary && inPrimary) this.reset();
      inPrimary = isPrimary;
      this.write(ch.text === '\t' ? ' '.repeat(ch.width) : ch.text);
    }
    if (inPrimary) this.reset();
    this.newline();
  }

  private singleLabels(line: ShownLine, singles: SingleLabel[], multis: MultiLabel[]): void {
    const messages = singles.filter((l) => l.message !== '').length;
    const maxStart = Math.max(...singles.map((l) => l.start));
    const maxEnd = Math.max(...singles.map((l) => l.end));
    // the last label reaching the furthest end may print its message after the carets
    let trailing: SingleLabel | undefined;
    let runningEnd = 0;
    for (const label of singles) {
      runningEnd = Math.max(runningEnd, label.end);
      if (label.end === runningEnd) trailing = label.message === '' ? undefined : label;
    }
    if (trailing && singles.some((l) => l !== trailing && overlaps(l.start, l.end, trailing!.start, trailing!.end))) {
      trailing = undefined;
    }

    // carets, over one placeholder column past the end so a label can point just after the text
    this.labelGutter(multis);
    const placeholder: Char = { byte: line.length, size: 1, width: 1, text: '' };
    let previous: LabelStyle | undefined;
    for (const ch of [...line.chars, placeholder]) {
      const current = strongest(singles.filter((l) => overlaps(l.start, l.end, ch.byte, ch.byte + ch.size)));
      if (current !== previous) {
        if (current) this.setStyle(this.labelStyle(current));
        else this.reset();
      }
      const caret = current ? CHARS.caret[current] : ch.byte < maxEnd ? ' ' : '';
      this.write(caret.repeat(ch.width));
      previous = current;
    }
    if (previous) this.reset();
    if (trailing) {
      this.write(' ');
      this.styled(this.labelStyle(trailing.style), trailing.message);
    }
    this.newline();

    if (messages <= (trailing ? 1 : 0)) return;
    const hanging = singles.filter((l) => l.message !== '' && l !== trailing);
    this.labelGutter(multis);
    this.pointers(line.chars, hanging, maxStart);
    this.newline();
    for (const label of [...hanging].reverse()) {
      this.labelGutter(multis);
      this.pointers(
        line.chars.filter((ch) => ch.byte < label.start),
        hanging,
        maxStart,
      );
      this.styled(this.labelStyle(label.style), label.message);
      this.newline();
    }
  }

  /** Vertical lines under the carets of the labels whose messages hang below. */
  private pointers(chars: Char[], hanging: SingleLabel[], maxStart: number): void {
    for (const ch of chars) {
      const style = strongest(hanging.filter((l) => ch.byte <= l.start && l.start < ch.byte + ch.size));
      let spaces = ch.width;
      if (style) {
        this.styled(this.labelStyle(style), CHARS.pointer);
        spaces = Math.max(spaces - 1, 0);
      }
      if (ch.byte <= maxStart) this.write(' '.repeat(spaces));
    }
  }

  /** The `╭───^` / `╰───^ message` line of a multi-line label starting or ending on this line. */
  private multiLabelCaret(line: ShownLine, multis: MultiLabel[], multi: MultiLabel, position: number): void {
    const part = multi.part;
    // a label starting in the indentation is drawn with `╭` on the source line itself
    if (part.kind === 'left' || (part.kind === 'top' && part.start <= line.indent)) return;
    this.outerGutter();
    this.styled(STYLES.gutter, CHARS.border);
    let underline: { style: LabelStyle; char: string } | undefined;
    for (let column = 0; column < this.multiCount; column++) {
      const other = multis.find((m) => m.column === column);
      const otherPosition = other ? multis.indexOf(other) : -1;
      if (other === multi) {
        const top = part.kind === 'top';
        underline = { style: multi.style, char: top ? CHARS.multiTop : CHARS.multiBottom };
        this.multiCorner(multi.style, top ? CHARS.multiTopLeft : CHARS.multiBottomLeft);
      } else if (other && (other.part.kind === 'left' || (other.part.kind === 'top') === otherPosition < position)) {
        // a label whose line passes by: opened on an earlier caret row, or closed on a later one
        this.multiLeft(other.style, underline?.style);
      } else {
        this.gutterColumn(underline);
      }
    }
    this.setStyle(this.labelStyle(multi.style));
    const reach = part.kind === 'top' ? part.start + 1 : part.end;
    const horizontal = part.kind === 'top' ? CHARS.multiTop : CHARS.multiBottom;
    for (const ch of line.chars) if (ch.byte < reach) this.write(horizontal.repeat(ch.width));
    this.write(CHARS.multiCaret[multi.style]);
    if (part.kind === 'bottom' && part.message !== '') this.write(` ${part.message}`);
    this.reset();
    this.newline();
  }

  /** Outer gutter, border and inner gutter before the carets and messages under a source line. */
  private labelGutter(multis: MultiLabel[]): void {
    this.outerGutter();
    this.styled(STYLES.gutter, CHARS.border);
    this.innerGutter(multis);
    this.write(' ');
  }

  private outerGutter(): void {
    this.write(' '.repeat(this.padding + 1));
  }

  private innerGutter(multis: MultiLabel[]): void {
    for (let column = 0; column < this.multiCount; column++) {
      const multi = multis.find((m) => m.column === column);
      if (multi) this.multiLeft(multi.style);
      else this.write('  ');
    }
  }

  /** ` │`, or `─│` when a horizontal line crosses it. */
  private multiLeft(style: LabelStyle, underline?: LabelStyle): void {
    if (underline) this.styled(this.labelStyle(underline), CHARS.multiTop);
    else this.write(' ');
    this.styled(this.labelStyle(style), CHARS.multiLeft);
  }

  private multiCorner(style: LabelStyle, corner: string): void {
    this.write(' ');
    this.styled(this.labelStyle(style), corner);
  }

  /** An empty gutter column, or a horizontal line crossing it. */
  private gutterColumn(underline: { style: LabelStyle; char: string } | undefined): void {
    if (underline) this.styled(this.labelStyle(underline.style), underline.char.repeat(2));
    else this.write('  ');
  }

  private labelStyle(style: LabelStyle): string {
    return style === 'primary' ? STYLES.primaryLabel[this.severity] : STYLES.secondaryLabel;
  }

  private write(text: string): void {
    this.text += text;
  }

  private setStyle(codes: string): void {
    if (this.color) this.text += RESET + codes;
  }

  private reset(): void {
    if (this.color) this.text += RESET;
  }

  private styled(codes: string, text: string): void {
    this.setStyle(codes);
    this.write(text);
    this.reset();
  }
}

function overlaps(start: number, end: number, otherStart: number, otherEnd: number): boolean {
  return Math.max(start, otherStart) < Math.min(end, otherEnd);
}

/** Whether a multi-line label covers the byte range of a character on one of its lines. */
function coversMulti(multi: MultiLabel, start: number, end: number): boolean {
  switch (multi.part.kind) {
    case 'top':
      return start >= multi.part.start;
    case 'left':
      return true;
    case 'bottom':
      return end <= multi.part.end;
  }
}

/** The highest-priority style among labels (primary wins). */
function strongest(labels: SingleLabel[]): LabelStyle | undefined {
  return labels.reduce<LabelStyle | undefined>(
    (best, l) => (best === undefined || PRIORITY[l.style] > PRIORITY[best] ? l.style : best),
    undefined,
  );
}

/** Rust's `str::lines`: split at `\n`, drop a `\r` before it, no final empty line. */
function rustLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

function utf8Length(text: string): number {
  let length = 0;
  for (const ch of text) length += utf8Size(ch.codePointAt(0)!);
  return length;
}

function utf8Size(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** The characters of a line with byte offsets and display widths (tabs to the next tab stop). */
function measureChars(text: string): Char[] {
  const chars: Char[] = [];
  let byte = 0;
  let column = 0;
  for (const ch of text) {
    const codePoint = ch.codePointAt(0)!;
    const width = ch === '\t' ? TAB_WIDTH - (column % TAB_WIDTH) : charWidth(codePoint);
    const size = utf8Size(codePoint);
    chars.push({ byte, size, width, text: ch });
    byte += size;
    column += width;
  }
  return chars;
}

// unicode-width's `UnicodeWidthChar::width`, with control characters counted 0 as codespan does: East Asian
// Wide and Fullwidth characters take 2 columns, combining marks and format characters none.
const ZERO_WIDTH = /^[\p{Cc}\p{Mn}\p{Me}\p{Cf}\u{1160}-\u{11ff}]$/u;
const WIDE_EMOJI = /^\p{Emoji_Presentation}$/u;
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];
const REGIONAL_INDICATORS: readonly [number, number] = [0x1f1e6, 0x1f1ff]; // emoji, yet narrow

function charWidth(codePoint: number): number {
  const ch = String.fromCodePoint(codePoint);
  if (codePoint === 0xad) return 1; // the soft hyphen is a format character that still shows
  if (ZERO_WIDTH.test(ch)) return 0;
  const inRange = ([low, high]: readonly [number, number]) => codePoint >= low && codePoint <= high;
  if (WIDE_RANGES.some(inRange)) return 2;
  return WIDE_EMOJI.test(ch) && !inRange(REGIONAL_INDICATORS) ? 2 : 1;
}
