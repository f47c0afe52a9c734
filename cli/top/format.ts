// How svc top writes numbers, as Vector's top does: totals with thousands separators (or, with
// --human-metrics, with SI suffixes for counts and binary ones for bytes), per-second rates always
// humanized, `--` for zero and `N/A` for a total that was never counted.

const DECIMAL_PREFIXES = ['k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'];
const BINARY_PREFIXES = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'Zi', 'Yi'];

/** `n` scaled down by `base` until below it, with its prefix: `1.10 k`, `2.50 Mi`. */
function prefixed(n: number, base: number, prefixes: readonly string[]): string {
  let scaled = n;
  let index = -1;
  while (scaled >= base && index < prefixes.length - 1) {
    scaled /= base;
    index++;
  }
  return `${scaled.toFixed(2)} ${prefixes[index]}`;
}

/** `1,234,567`; `--` for zero. */
export function thousands(n: number): string {
  return n === 0 ? '--' : Math.trunc(n).toLocaleString('en-US');
}

/** `999`, `1.10 k`, `2.00 M`; `--` for zero. */
export function humanCount(n: number): string {
  if (n === 0) return '--';
  return n < 1000 ? String(Math.trunc(n)) : prefixed(n, 1000, DECIMAL_PREFIXES);
}

/** `512 B`, `1.50 KiB`, `3.00 MiB`; `--` for zero. */
export function humanBytes(n: number): string {
  if (n === 0) return '--';
  return n < 1024 ? `${Math.trunc(n)} B` : `${prefixed(n, 1024, BINARY_PREFIXES)}B`;
}

/** A count column: `1,234 (56/s)`, or `1.23 k (56/s)` with `human`; `N/A` while the total is zero. */
export function countCell(total: number, perSecond: number, human: boolean): string {
  if (total === 0) return 'N/A';
  return `${human ? humanCount(total) : thousands(total)} (${humanCount(perSecond)}/s)`;
}

/** A bytes column: `12,345 (1.20 KiB/s)`, or `12.06 KiB (1.20 KiB/s)` with `human`; `N/A` while zero. */
export function bytesCell(total: number, perSecond: number, human: boolean): string {
  if (total === 0) return 'N/A';
  return `${human ? humanBytes(total) : thousands(total)} (${humanBytes(perSecond)}/s)`;
}
