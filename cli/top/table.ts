// The components table as text: its cells from the dashboard's state, and the widths of its columns in the
// room the terminal gives.

import { bytesCell, countCell, humanCount, thousands } from './format.js';
import { DEFAULT_OUTPUT, type ComponentRow, type TopState } from './state.js';

export const COLUMNS = [
  'ID',
  'Output',
  'Kind',
  'Type',
  'Events In',
  'Bytes In',
  'Events Out',
  'Bytes Out',
  'Errors',
] as const;

/** Whether a row lists its outputs: it has named ones, not only the default one. */
function showsOutputs(row: ComponentRow): boolean {
  return row.outputs.size > 1 || (row.outputs.size === 1 && !row.outputs.has(DEFAULT_OUTPUT));
}

const byKey = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The table's cells (one array per line, as COLUMNS), components sorted by id, each followed by a line per
 * output when it has named ones (the Output column holds `--` for a component that has none).
 */
export function tableRows(state: TopState, human: boolean): string[][] {
  const lines: string[][] = [];
  for (const [, row] of [...state.components].sort(byKey)) {
    const outputs = showsOutputs(row);
    lines.push([
      row.id,
      outputs ? '' : '--',
      row.kind,
      row.type,
      countCell(row.totals.receivedEvents, row.perSecond.receivedEvents, human),
      bytesCell(row.totals.receivedBytes, row.perSecond.receivedBytes, human),
      countCell(row.totals.sentEvents, row.perSecond.sentEvents, human),
      bytesCell(row.totals.sentBytes, row.perSecond.sentBytes, human),
      human ? humanCount(row.totals.errors) : thousands(row.totals.errors),
    ]);
    if (!outputs) continue;
    for (const [id, output] of [...row.outputs].sort(byKey)) {
      lines.push([
        '',
        id,
        '',
        '',
        '',
        '',
        countCell(output.sentEventsTotal, output.sentEventsPerSecond, human),
        '',
        '',
      ]);
    }
  }
  return lines;
}

/** Spaces between two columns. */
const COLUMN_GAP = 2;

/**
 * The widths of columns whose widest cells are `widest`, in `room` characters: with room to spare, each
 * column gets an equal share of it; without, the widest columns are cut down to a common width, so that
 * narrow ones (ids, kinds) stay whole.
 */
export function fitColumns(widest: readonly number[], room: number): number[] {
  const available = Math.max(widest.length, room - COLUMN_GAP * (widest.length - 1));
  const natural = widest.reduce((sum, width) => sum + width, 0);
  if (natural <= available) {
    const share = Math.floor((available - natural) / widest.length);
    return widest.map((width) => width + share);
  }
  const capped = (cap: number) => widest.map((width) => Math.min(width, cap));
  let cap = Math.max(...widest);
  while (capped(cap).reduce((sum, width) => sum + width, 0) > available) cap--;
  return capped(cap);
}

/** `cells` laid out in columns of `widths`, each cut to its width with `…` where it does not fit. */
export function tableLine(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, column) => {
      const width = widths[column]!;
      return cell.length > width ? `${cell.slice(0, width - 1)}…` : cell.padEnd(width);
    })
    .join(' '.repeat(COLUMN_GAP))
    .trimEnd();
}
