// The CSV of a file enrichment table, read as Vector's reader (the `csv` crate) reads it: fields split on a
// one-byte delimiter, `"` quotes (`""` inside them is a quote), records ending at LF or CRLF, blank lines
// skipped, and every record as long as the first.

/** The records of `text`; throws naming the record (1-based line) that is malformed. */
export function parseCsv(text: string, delimiter: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    field = '';
    // A blank line is no record.
    if (!(record.length === 1 && record[0] === '')) {
      const expected = records[0]?.length;
      if (expected !== undefined && record.length !== expected)
        throw new Error(
          `line ${recordLine}: found a record with ${record.length} fields, but the previous record has ${expected} fields`,
        );
      records.push(record);
    }
    record = [];
  };
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        field += char;
      }
      i++;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      record.push(field);
      field = '';
    } else if (char === '\n' || (char === '\r' && text[i + 1] === '\n')) {
      endRecord();
      if (char === '\r') i++;
      line++;
      recordLine = line;
    } else field += char;
    i++;
  }
  if (quoted) throw new Error(`line ${recordLine}: a quoted field is not closed`);
  if (field !== '' || record.length > 0) endRecord();
  return records;
}
