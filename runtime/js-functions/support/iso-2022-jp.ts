// The WHATWG ISO-2022-JP encoder (encoding_rs implements it; iconv-lite has no ISO-2022-JP, and its EUC-JP
// table is not WHATWG's JIS X 0208 index: it maps U+FF5E elsewhere). The index is read back from Node's
// WHATWG decoder, once, on first use.

/** Code point → JIS X 0208 pointer (the first pointer when a code point has several). */
let jis0208: Map<number, number> | undefined;

function jis0208Index(): Map<number, number> {
  if (jis0208) return jis0208;
  jis0208 = new Map();
  const decoder = new TextDecoder('iso-2022-jp');
  const sequence = Uint8Array.from([0x1b, 0x24, 0x42, 0, 0]);
  for (let pointer = 0; pointer < 94 * 94; pointer++) {
    sequence[3] = Math.floor(pointer / 94) + 0x21;
    sequence[4] = (pointer % 94) + 0x21;
    const codePoint = decoder.decode(sequence).codePointAt(0)!;
    if (codePoint !== 0xfffd && !jis0208.has(codePoint)) jis0208.set(codePoint, pointer);
  }
  return jis0208;
}

/** Half-width katakana U+FF61… as the full-width characters WHATWG's index ISO-2022-JP katakana gives. */
const KATAKANA =
  '。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン゛゜';

const ESCAPE = { ascii: [0x1b, 0x28, 0x42], roman: [0x1b, 0x28, 0x4a], jis0208: [0x1b, 0x24, 0x42] } as const;
type State = keyof typeof ESCAPE;

/** `text` in ISO-2022-JP; a character it lacks becomes an HTML numeric character reference, as encoding_rs writes. */
export function encodeIso2022Jp(text: string): Uint8Array {
  const index = jis0208Index();
  const out: number[] = [];
  let state = 'ascii' as State;
  const enter = (next: State) => {
    if (state !== next) out.push(...ESCAPE[next]);
    state = next;
  };
  const ascii = (codePoint: number) => {
    // JIS X 0201 Roman has every ASCII character but these two at the same byte.
    if (state !== 'roman' || codePoint === 0x5c || codePoint === 0x7e) enter('ascii');
    out.push(codePoint);
  };
  // The reference's characters are written as any ASCII text: in the Roman state they need no escape.
  const reference = (codePoint: number) => {
    for (const c of `&#${codePoint};`) ascii(c.charCodeAt(0));
  };
  for (const character of text) {
    let codePoint = character.codePointAt(0)!;
    // Shift-out, shift-in and escape would change the decoder's state: VRL writes U+FFFD's reference instead.
    if (codePoint === 0x0e || codePoint === 0x0f || codePoint === 0x1b) {
      reference(0xfffd);
    } else if (codePoint < 0x80) {
      ascii(codePoint);
    } else if (codePoint === 0xa5 || codePoint === 0x203e) {
      enter('roman');
      out.push(codePoint === 0xa5 ? 0x5c : 0x7e);
    } else {
      if (codePoint === 0x2212) codePoint = 0xff0d;
      else if (codePoint >= 0xff61 && codePoint <= 0xff9f) codePoint = KATAKANA.charCodeAt(codePoint - 0xff61);
      const pointer = index.get(codePoint);
      if (pointer === undefined) {
        reference(character.codePointAt(0)!);
      } else {
        enter('jis0208');
        out.push(Math.floor(pointer / 94) + 0x21, (pointer % 94) + 0x21);
      }
    }
  }
  enter('ascii');
  return Uint8Array.from(out);
}
