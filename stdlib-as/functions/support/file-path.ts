// Unix file paths as Rust's `std::path::Path` splits them into components, for `basename`, `dirname` and
// `split_path`: a leading `/` is the root, a leading `.` of a relative path is the current directory, the
// rest are the parts between separators, where empty parts and `.` are skipped.

import { Value, bytesPtr, bytesLen } from '../../value';

/** Set by `pathStart`: the text, and the byte length of its root or current-directory prefix (0 or 1). */
export let pathPtr: usize = 0;
export let pathLen: usize = 0;
export let prefixLen: usize = 0;
export let hasRoot: bool = false;

/** Starts reading the components of `text` (valid UTF-8). */
export function pathStart(text: Value): void {
  pathPtr = bytesPtr(text);
  pathLen = bytesLen(text);
  hasRoot = pathLen > 0 && load<u8>(pathPtr) == 0x2f;
  const curDir = !hasRoot && pathLen > 0 && load<u8>(pathPtr) == 0x2e && (pathLen == 1 || load<u8>(pathPtr, 1) == 0x2f);
  prefixLen = hasRoot || curDir ? 1 : 0;
}

/** Whether [start, end) is a component the iteration skips (empty or `.`). */
function skipped(start: usize, end: usize): bool {
  return end == start || (end == start + 1 && load<u8>(pathPtr + start) == 0x2e);
}

/** End of the first body component at or after `from`, its start stored in `componentStart`; 0 when none is left. */
export let componentStart: usize = 0;
export function nextComponent(from: usize): usize {
  let start = from;
  while (start < pathLen) {
    let end = start;
    while (end < pathLen && load<u8>(pathPtr + end) != 0x2f) end++;
    if (!skipped(start, end)) {
      componentStart = start;
      return end;
    }
    start = end + 1;
  }
  return 0;
}

/** Start of the last body component (its end in `lastComponentEnd`), or -1 when the body has none. */
export let lastComponentEnd: usize = 0;
export function lastComponent(): isize {
  let end = pathLen;
  while (end > prefixLen) {
    let start = end;
    while (start > prefixLen && load<u8>(pathPtr + start - 1) != 0x2f) start--;
    if (!skipped(start, end)) {
      lastComponentEnd = end;
      return <isize>start;
    }
    end = start > prefixLen ? start - 1 : prefixLen;
  }
  return -1;
}

/** Length of the text before `end` without trailing separators and `.` components (Rust's `as_path`). */
export function trimmedEnd(end: usize): usize {
  while (end > prefixLen) {
    const c = load<u8>(pathPtr + end - 1);
    if (c == 0x2f) end--;
    else if (c == 0x2e && (end - 1 == prefixLen || load<u8>(pathPtr + end - 2) == 0x2f)) end--;
    else break;
  }
  return end;
}
