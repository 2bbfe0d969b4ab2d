/**
 * Raw forms of markers: how a literal appears in a line's bytes. The raw-line
 * test itself is the automaton of ./prefilter.ts.
 */

/** Text as latin1 of its UTF-8 bytes: how raw lines are searched. */
export function rawForm(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * A literal as the raw-line automaton is fed it (./prefilter.ts): a run of
 * backslashes (one per level of JSON nesting) is one backslash, an escape
 * other than `\uXXXX` is its backslash and letter, `\uXXXX` is its character.
 */
export function fedForm(text: string): string {
  return rawForm(text.replace(/\\+/g, '\\').replace(/["\n\r\t\b\f]/g, (c) => SHORT_ESCAPES[c] ?? c));
}
