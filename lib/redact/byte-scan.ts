/**
 * Raw forms of markers: how a literal appears in a line's bytes. The raw-line
 * test itself is the automaton of ./prefilter.ts.
 */

/** Text as latin1 of its UTF-8 bytes: how raw lines are searched. */
export function rawForm(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** The longest run of a literal that a JSON encoder writes verbatim. */
export function verbatimRun(text: string): string {
  let best = '';
  for (const run of text.split(/["\\\u0000-\u001f\u2028\u2029]/)) if (run.length > best.length) best = run;
  return best;
}
