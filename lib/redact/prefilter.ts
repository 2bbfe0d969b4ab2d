/**
 * The marker automaton of wuu-redact: one Aho-Corasick pass finds every
 * occurrence of every rule marker (ASCII case-insensitive) in a raw line's
 * bytes or in a decoded string, table-driven (an Int32Array of transitions
 * over character classes), without lower-casing, slicing or regexes.
 *
 * Two conditions make markers selective where a regex would check them
 * anyway: a `word` marker (a key word: `token`, `auth`) counts only when no
 * lower-case letter follows it, and an `edge` marker (a token prefix whose
 * rule starts with a left-edge lookbehind: `sk`, `ac`) only when no ASCII
 * letter or digit precedes it. Both are necessary conditions of the rules'
 * own patterns, so a line the automaton passes over holds no match.
 *
 * RAW LINES. JSON text is fed decoded on the fly: `\uXXXX` escapes (after any
 * number of backslashes: JSON nested in strings) are fed as the character
 * they stand for (so `\u001b` in tool output costs nothing and `\u0073k-`
 * still spells `sk-`); after any other escape the next character does not
 * count as a letter for the edge condition (`\nsk-...` starts a token);
 * `\/` is taken as a hit (it can hide a marker on any level of nesting).
 */

/** One pattern of an automaton. */
export interface MarkerPattern {
  /** The text (a raw automaton: its UTF-8 bytes as latin1 characters). */
  text: string;
  /** Counts only when no lower-case ASCII letter follows. */
  word?: boolean;
  /** Counts only when no ASCII letter or digit precedes. */
  edge?: boolean;
  /**
   * Raw automata only: the rules' own test at a hit, on the decoded text
   * around it (`at`: the marker's offset in `text`); absent: every hit counts.
   */
  check?: (text: string, at: number) => boolean;
  /** Characters of context the check needs before the marker, and from it on. */
  behind?: number;
  ahead?: number;
}

const WORD = 1;
const EDGE = 2;

/** ASCII letters and digits. */
const ALNUM = new Uint8Array(256);
for (let c = 0; c < 256; c++) ALNUM[c] = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? 1 : 0;

const isLower = (c: number) => c >= 0x61 && c <= 0x7a;

/** Value of an ASCII hex digit, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const f = c | 0x20;
  return f >= 0x61 && f <= 0x66 ? f - 0x61 + 10 : -1;
}

/**
 * A set of literals compiled to a deterministic automaton. Pattern ids are
 * their indexes in the constructor's list.
 */
export class Automaton {
  /** Character code → class (0: a character no pattern holds); `wide` for codes from 256 on. */
  private readonly low = new Uint8Array(256);
  private readonly wide = new Map<number, number>();
  private readonly classes: number;
  /**
   * Transitions by row (state * classes) + class: the next state's row, or
   * its complement (negative) when that state has outputs.
   */
  private readonly delta: Int32Array;
  /** Outputs of a state (its own and its suffixes'): outIds[outStart[s] .. outStart[s + 1]). */
  private readonly outStart: Int32Array;
  private readonly outIds: Int32Array;
  /** Per pattern: its length and its WORD/EDGE flags. */
  readonly lengths: Int32Array;
  private readonly flags: Uint8Array;
  private readonly checks: Array<MarkerPattern | undefined>;
  /** Whether some pattern holds a non-ASCII character. */
  readonly nonAscii: boolean;
  /** Hits of the last {@link scan}: pairs (end index, exclusive; pattern id). */
  hits = new Int32Array(256);
  hitCount = 0;

  constructor(patterns: readonly MarkerPattern[]) {
    let classes = 1;
    const set = (code: number, cls: number) => {
      if (code < 256) this.low[code] = cls;
      else this.wide.set(code, cls);
    };
    const get = (code: number) => (code < 256 ? this.low[code]! : (this.wide.get(code) ?? 0));
    const classFor = (code: number): number => {
      const known = get(code);
      if (known !== 0) return known;
      if (classes === 255) throw new Error('too many distinct marker characters');
      const cls = classes++;
      // Case variants share a class: ASCII always; others as the pattern's own case mapping says.
      const ch = String.fromCharCode(code);
      for (const variant of [ch, ch.toLowerCase(), ch.toUpperCase()]) {
        if (variant.length === 1 && get(variant.charCodeAt(0)) === 0) set(variant.charCodeAt(0), cls);
      }
      return cls;
    };
    // The trie, on maps while it is built.
    const children: Array<Map<number, number>> = [new Map()];
    const own: number[][] = [[]];
    this.lengths = new Int32Array(patterns.length);
    this.flags = new Uint8Array(patterns.length);
    this.checks = patterns.map((p) => (p.check === undefined ? undefined : p));
    let nonAscii = false;
    patterns.forEach((p, id) => {
      let state = 0;
      for (let i = 0; i < p.text.length; i++) {
        const code = p.text.charCodeAt(i);
        if (code >= 0x80) nonAscii = true;
        const cls = classFor(code >= 0x41 && code <= 0x5a ? code + 32 : code);
        let child = children[state]!.get(cls);
        if (child === undefined) {
          child = children.length;
          children.push(new Map());
          own.push([]);
          children[state]!.set(cls, child);
        }
        state = child;
      }
      own[state]!.push(id);
      this.lengths[id] = p.text.length;
      this.flags[id] = (p.word ? WORD : 0) | (p.edge ? EDGE : 0);
    });
    this.nonAscii = nonAscii;
    this.classes = classes;
    const states = children.length;
    const next = new Int32Array(states * classes);
    const fail = new Int32Array(states);
    const outputs: number[][] = own.map((list) => [...list]);
    // Breadth first: a state's failure link and row are complete before its children's.
    const queue: number[] = [];
    for (let c = 0; c < classes; c++) {
      const child = children[0]!.get(c);
      if (child !== undefined) {
        next[c] = child;
        queue.push(child);
      }
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      const f = fail[state]!;
      for (const id of outputs[f]!) outputs[state]!.push(id);
      const row = state * classes;
      for (let c = 0; c < classes; c++) {
        const child = children[state]!.get(c);
        if (child === undefined) next[row + c] = next[f * classes + c]!;
        else {
          next[row + c] = child;
          fail[child] = next[f * classes + c]!;
          queue.push(child);
        }
      }
    }
    this.delta = new Int32Array(states * classes);
    for (let k = 0; k < next.length; k++) {
      const target = next[k]!;
      this.delta[k] = outputs[target]!.length > 0 ? ~(target * classes) : target * classes;
    }
    this.outStart = new Int32Array(states + 1);
    let total = 0;
    for (let st = 0; st < states; st++) {
      this.outStart[st] = total;
      total += outputs[st]!.length;
    }
    this.outStart[states] = total;
    this.outIds = new Int32Array(total);
    let at = 0;
    for (const list of outputs) for (const id of list) this.outIds[at++] = id;
  }

  private classOf(code: number): number {
    return code < 256 ? this.low[code]! : (this.wide.get(code) ?? 0);
  }

  /**
   * Every occurrence in `text[from, to)`, conditions not applied, into
   * `hits` / `hitCount` (overwritten by the next call).
   */
  scan(text: string, from = 0, to = text.length): void {
    const { low, delta, classes, outStart, outIds } = this;
    let hits = this.hits;
    let count = 0;
    let row = 0;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      const code = delta[row + (c < 256 ? low[c]! : this.classOf(c))]!;
      if (code >= 0) {
        row = code;
        continue;
      }
      row = ~code;
      const state = row / classes;
      for (let k = outStart[state]!; k < outStart[state + 1]!; k++) {
        if (count + 2 > hits.length) {
          const bigger = new Int32Array(hits.length * 2);
          bigger.set(hits);
          hits = this.hits = bigger;
        }
        hits[count++] = i + 1;
        hits[count++] = outIds[k]!;
      }
    }
    this.hitCount = count >> 1;
  }

  /** Whether some pattern occurs in `text` with its conditions met. */
  test(text: string): boolean {
    const { low, delta, classes, outStart, outIds, flags, lengths } = this;
    let row = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      const code = delta[row + (c < 256 ? low[c]! : this.classOf(c))]!;
      if (code >= 0) {
        row = code;
        continue;
      }
      row = ~code;
      const state = row / classes;
      for (let k = outStart[state]!; k < outStart[state + 1]!; k++) {
        const id = outIds[k]!;
        const f = flags[id]!;
        if (f === 0) return true;
        if ((f & WORD) !== 0 && i + 1 < n && isLower(text.charCodeAt(i + 1))) continue;
        if ((f & EDGE) !== 0) {
          const before = i + 1 - lengths[id]! - 1;
          if (before >= 0 && text.charCodeAt(before) < 256 && ALNUM[text.charCodeAt(before)] === 1) continue;
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a pattern (conditions met) may occur in the decoded text of the
   * raw JSON bytes `buf[start, end)` (see the file comment for escapes).
   */
  testRaw(buf: Uint8Array, start = 0, end = buf.length): boolean {
    const { low, delta } = this;
    let row = 0;
    for (let i = start; i < end; i++) {
      let c = buf[i]!;
      if (c === 0x5c) {
        let j = i + 1;
        while (j < end && buf[j] === 0x5c) j++;
        if (j >= end) return true; // a cut escape: no guess
        const e = buf[j]!;
        if (e === 0x2f) return true;
        if (e === 0x75 && j + 4 < end) {
          const h = (hexValue(buf[j + 1]!) << 12) | (hexValue(buf[j + 2]!) << 8) | (hexValue(buf[j + 3]!) << 4) | hexValue(buf[j + 4]!);
          if (h >= 0) {
            if (h >= 0x80) {
              if (this.nonAscii) return true; // non-ASCII markers are rare (a user's home): no guess
              c = 0x80;
            } else c = h;
            i = j + 4;
            const code = delta[row + low[c]!]!;
            row = code >= 0 ? code : ~code;
            if (code < 0 && this.rawHit(buf, i, end, row)) return true;
            continue;
          }
        }
        // Another escape: the backslash, then its letter (edgeBefore knows it is no letter).
        let code = delta[row + low[0x5c]!]!;
        row = code >= 0 ? code : ~code;
        if (code < 0 && this.rawHit(buf, i, end, row)) return true;
        i = j;
        code = delta[row + low[e]!]!;
        row = code >= 0 ? code : ~code;
        if (code < 0 && this.rawHit(buf, i, end, row)) return true;
        continue;
      }
      const code = delta[row + low[c]!]!;
      if (code >= 0) {
        row = code;
        continue;
      }
      row = ~code;
      if (this.rawHit(buf, i, end, row)) return true;
    }
    return false;
  }

  /**
   * Whether an output of the state at `row`, reached at raw byte `i`, meets
   * its conditions. The edge condition is judged on raw bytes before the
   * marker (a decoded escape there counts as a non-letter: conservative).
   */
  private rawHit(buf: Uint8Array, i: number, end: number, row: number): boolean {
    const { outStart, outIds, flags, lengths } = this;
    const state = row / this.classes;
    for (let k = outStart[state]!; k < outStart[state + 1]!; k++) {
      const id = outIds[k]!;
      const f = flags[id]!;
      if ((f & WORD) !== 0 && i + 1 < end && isLower(buf[i + 1]!)) continue;
      if ((f & EDGE) !== 0 && !edgeBefore(buf, i, lengths[id]!)) continue;
      const check = this.checks[id];
      if (check !== undefined && !checkAt(buf, i + 1 - lengths[id]!, i + 1, end, check)) continue;
      return true;
    }
    return false;
  }
}

/** Whether `buf[a, b)` holds a backslash. */
function hasBackslash(buf: Uint8Array, a: number, b: number): boolean {
  for (let k = Math.max(0, a); k < b; k++) if (buf[k] === 0x5c) return true;
  return false;
}

/** Whether the quote at `q` closes or opens a string (an even run of backslashes before it). */
function delimiter(buf: Uint8Array, q: number): boolean {
  let k = q;
  while (k > 0 && buf[k - 1] === 0x5c) k--;
  return (q - k) % 2 === 0;
}

/** The decoded text of string-literal bytes `buf[a, b)`; undefined when they do not decode. */
function decodeSpan(buf: Uint8Array, a: number, b: number): string | undefined {
  const text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8', a, b);
  if (!hasBackslash(buf, a, b)) return text;
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return undefined;
  }
}

/**
 * Runs a marker's rules at a raw hit `buf[ms, me)` (the marker written
 * verbatim), on the decoded text of its string literal around it: as much
 * context as the rules can look at, cut at the literal's quotes. Any doubt
 * (a cut escape, a backslash left after decoding: JSON nested in the string,
 * whose walk decodes once more) counts as a match.
 */
function checkAt(buf: Uint8Array, ms: number, me: number, end: number, p: MarkerPattern): boolean {
  // The marker spelled by escapes (`\u0073k-`): no guess.
  for (let k = ms; k < me; k++) {
    const c = buf[k]!;
    if ((c >= 0x41 && c <= 0x5a ? c + 32 : c) !== p.text.charCodeAt(k - ms)) return true;
  }
  const behind = p.behind ?? 0;
  let a = ms;
  if (behind > 0) {
    const limit = Math.max(0, ms - behind * 6 - 12);
    while (a > limit && !(buf[a - 1] === 0x22 && delimiter(buf, a - 1))) a--;
    if (a === limit && a > 0) {
      // Not at a quote: step back out of any escape the cut would split.
      let steps = 0;
      while (a > 0 && hasBackslash(buf, a - 6, a) && steps++ < 64) a--;
      if (steps > 64) return true;
      while (a < ms && (buf[a]! & 0xc0) === 0x80) a++;
    }
  }
  const ahead = Math.min(end, me + (p.ahead ?? 0) * 6 + 12);
  let b = me;
  for (;;) {
    const q = buf.indexOf(0x22, b);
    if (q < 0 || q >= ahead) {
      b = ahead;
      // Cut before an escape the window would split.
      let steps = 0;
      while (b > me && hasBackslash(buf, b - 5, b) && steps++ < 64) b--;
      if (steps > 64) return true;
      break;
    }
    if (delimiter(buf, q)) {
      b = q;
      break;
    }
    b = q + 1;
  }
  const before = a === ms ? '' : decodeSpan(buf, a, ms);
  const after = decodeSpan(buf, ms, b);
  if (before === undefined || after === undefined || before.includes('\\') || after.includes('\\')) return true;
  return p.check!(before + after, before.length);
}

/**
 * Whether the marker of `length` decoded characters ending at raw byte `i`
 * may have a non-alphanumeric character (or nothing) before it. Walks back
 * over the raw bytes; any escape inside or before the marker answers yes.
 */
function edgeBefore(buf: Uint8Array, i: number, length: number): boolean {
  const at = i + 1 - length;
  if (at <= 0) return true;
  // An escape inside the marker or just before it (`\nsk-`, `\u0041sk-`): no guess. The
  // last escape inside a marker has its backslash at most 6 bytes before `at`.
  for (let k = Math.max(0, at - 6); k <= i; k++) if (buf[k] === 0x5c) return true;
  return ALNUM[buf[at - 1]!] === 0;
}
