// CSV records as the csv crate reads them by default (csv-core's reader: what parse_csv and Vector's file
// enrichment table use): fields split on a one-byte delimiter; a field that starts with `"` is quoted and may
// hold delimiters and line breaks, `""` in it being a quote and text after its closing quote joining it; a `"`
// inside an unquoted field is kept as it is; `\n`, `\r` or `\r\n` ends a record, and empty lines are no record.

export interface CsvRecord {
  fields: string[];
  /** The 1-based line the record starts on. */
  line: number;
}

export function* csvRecords(text: string, delimiter: string): Generator<CsvRecord> {
  let line = 1;
  let at = 0;
  const atTerminator = () => text[at] === '\n' || text[at] === '\r';
  /** Moves past a terminator (`\r\n` is one), counting the line. */
  const skipTerminator = () => {
    at += text[at] === '\r' && text[at + 1] === '\n' ? 2 : 1;
    line++;
  };
  while (at < text.length) {
    if (atTerminator()) {
      skipTerminator();
      continue;
    }
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[at] === '"') {
        at++;
        for (; at < text.length; at++) {
          const c = text[at]!;
          if (c !== '"') {
            if (c === '\n' || (c === '\r' && text[at + 1] !== '\n')) line++;
            field += c;
          } else if (text[at + 1] === '"') field += text[++at];
          else {
            at++;
            break;
          }
        }
      }
      while (at < text.length && text[at] !== delimiter && !atTerminator()) field += text[at++];
      fields.push(field);
      if (text[at] !== delimiter) break;
      at++;
    }
    if (at < text.length) skipTerminator();
    yield { fields, line: start };
  }
}
