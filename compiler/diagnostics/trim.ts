// Trimming at the end of a text by scanning back. An end-anchored pattern such as /\s+$/ makes a
// backtracking engine retry from every position of a run of blanks, quadratic in the run's length: a
// diagnostic at column 20k took 20 s to render, a program ending in 40k spaces a minute to explain.

/** The length of `text` without the characters matching `blank` (one UTF-16 unit each) at its end. */
export function endWithout(text: string, blank: RegExp): number {
  let end = text.length;
  while (end > 0 && blank.test(text[end - 1]!)) end--;
  return end;
}
