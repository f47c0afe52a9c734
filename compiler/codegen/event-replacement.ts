// What a program reads of the event before replacing it: a source's stamp (the fields its decoder adds to
// each event) is unseen by a program that starts with `. = parse_json!(.message)` and the like, so a framed
// run can leave it out of the events the program replaces (abi/wire/batch.ts `ChainFlag.LATE_STAMP`).

import * as ast from '../ast.js';

/**
 * The top-level event fields the program's first expression reads when that expression replaces the whole
 * event (`. = value`), sorted; undefined when it does not, or when it reads the event whole or by index.
 * Writes do not count: a field written before the replacement is gone with it, and the event as decoded
 * (which a failure forwards) is a copy the program never wrote.
 */
export function fieldsReadBeforeReplacingEvent(program: ast.Program): string[] | undefined {
  const first = program.exprs[0];
  if (first?.type !== 'Assign' || first.op !== '=' || first.errorTarget || first.target.kind !== 'query')
    return undefined;
  const target = first.target.query;
  if (target.target.kind !== 'event' || target.path.length !== 0) return undefined;
  const fields = new Set<string>();
  const visit = (e: ast.Expr): boolean => {
    if (e.type === 'Query' && e.target.kind === 'event') {
      const head = e.path[0];
      if (head === undefined || head.kind === 'index') return false;
      for (const name of head.kind === 'field' ? [head.name] : head.fields) fields.add(name);
    }
    return ast.childExprs(e).every(visit);
  };
  return visit(first.value) ? [...fields].sort() : undefined;
}
