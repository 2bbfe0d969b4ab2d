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
 *
 * WHY NO WASM SIMD PREFILTER (issue 21, measured 2026-12-04 in one process on
 * the 100 MB stream, medians of 3; the tool took 1.25 s CPU). proveRaw over
 * all lines took 280 ms and lib/validate.ts's isJsonEvent alone 105 ms, so the
 * automaton costs about 175 ms (14% of the tool): the most a prefilter that
 * leaves the JSON proof to JS could save, at zero cost. An AssemblyScript
 * kernel gave exactly these verdicts (the same 10.5% of lines, 6.4% of bytes,
 * left to this automaton; notes alike) but was slower than the whole of
 * proveRaw. Its SIMD pass (Teddy nibble masks over the folded first 3 bytes
 * of the 303 markers, plus backslashes and newlines) ran at 2.1 GB/s with the
 * copy into WASM memory (47 ms) but flagged 0.65 positions per byte: the
 * markers' 184 prefixes are common trigrams of English (16 or 32 buckets, 4
 * bytes: still about 0.5 per byte); sifting those flags through the exact
 * 3-byte prefix set took 350 ms, and the whole kernel 497 ms. A scalar WASM
 * pass testing that set at every byte instead: 308 ms, 383 ms with the checks
 * of its 2.4M candidates (`path`, `passed`, `tokens`, `line`, `agent`: real
 * marker prefixes, refused only by the conditions above).
 */
import type { JsonTrack } from './json-track.js';

/**
 * How a rule's match starts: `text` (exact), then at least `min` characters
 * whose codes are set in `run` (when present).
 */
export interface Lead {
  text: string;
  run?: Uint8Array;
  min: number;
}

/** One pattern of an automaton. */
export interface MarkerPattern {
  /** The text (a raw automaton: its UTF-8 bytes as latin1 characters). */
  text: string;
  /** Counts only when no lower-case ASCII letter follows. */
  word?: boolean;
  /** Counts only when no ASCII letter or digit precedes. */
  edge?: boolean;
  /** False: found by scan, ignored by test (`<`, which only leads the scan to placeholders). */
  test?: boolean;
  /** Raw automata only: no hit, but {@link Automaton.noted} records that it occurs. */
  note?: boolean;
  /**
   * Raw automata only: the rules' own test at a hit, on the decoded text
   * around it (`at`: the marker's offset in `text`); absent: every hit counts.
   */
  check?: (text: string, at: number) => boolean;
  /**
   * With `check`: exact texts (ASCII) one of which the rules' match starts
   * with at the marker; a hit whose bytes spell none of them is refused
   * before any text is decoded.
   */
  leads?: readonly Lead[];
  /** Characters of context the check needs before the marker, and from it on. */
  behind?: number;
  ahead?: number;
  /** The rules read no quote, blank or control character: text may be cut at such an escape. */
  cuttable?: boolean;
}

const WORD = 1;
const EDGE = 2;
const NO_TEST = 4;
const NOTE = 8;
/** The transition of the raw test's backslash column: handled apart, as an escape. */
const ESCAPE = -0x80000000;

/** ASCII letters and digits. */
const ALNUM = new Uint8Array(256);
for (let c = 0; c < 256; c++) ALNUM[c] = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? 1 : 0;

const isLower = (c: number) => c >= 0x61 && c <= 0x7a;

/** Value of an ASCII hex digit by byte; a large negative number for any other byte (so a `\\u` escape's value is negative when one is not a digit). */
const HEX = new Int32Array(256).fill(-0x10000);
for (let c = 0; c < 10; c++) HEX[0x30 + c] = c;
for (let c = 0; c < 6; c++) HEX[0x41 + c] = HEX[0x61 + c] = 10 + c;

/** An automaton's tables (see {@link Automaton.data}): what its constructor computes from the patterns. */
export interface AutomatonData {
  low: Uint8Array;
  raw: Uint8Array;
  rawString: Uint8Array;
  /** Pairs: a character code from 256 on, its class. */
  wide: readonly number[];
  nonAscii: boolean;
  /** Columns of a row: the classes, the escape column and the quick refusal's. */
  stride: number;
  delta: Int32Array;
  outStart: Int32Array;
  outIds: Int32Array;
  /** Pairs: a state judged with Q_LEAD, the pattern whose leads it judges. */
  leads: readonly number[];
  /** By pair of `leads`: that pattern's leads' runs joined (see {@link leadRun}). */
  runs: readonly Uint8Array[];
}

/**
 * A set of literals compiled to a deterministic automaton. Pattern ids are
 * their indexes in the constructor's list.
 */
export class Automaton {
  /** Character code → class (0: a character no pattern holds); `wide` for codes from 256 on. */
  private readonly low: Uint8Array = new Uint8Array(256);
  /** The same for raw bytes, but a backslash goes to the extra column, whose every entry is ESCAPE. */
  private readonly raw: Uint8Array = new Uint8Array(256);
  /** The same inside a string for {@link proveRaw}: a quote and control bytes go to the backslash's column too. */
  private readonly rawString: Uint8Array = new Uint8Array(256);
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
  /** By state: the characters any lead's run may hold, for a quick refusal with Q_LEAD. */
  private readonly leadRuns: Array<Uint8Array | undefined>;
  /** By state, with Q_LEAD: the marker (lower case), to tell it was written verbatim. */
  private readonly leadTexts: Array<string | undefined>;
  /** Pairs: a state with a lead run, the pattern it is read from (for {@link data}). */
  private readonly leadPairs: number[] = [];
  /** The column of a state's row that holds its quick refusal (see {@link quickOf}). */
  private readonly meta: number;
  /** Hits of the last {@link scan}: pairs (end index, exclusive; pattern id). */
  hits = new Int32Array(256);
  hitCount = 0;
  /** Whether the last {@link testRaw} saw a `note` pattern (valid when it returned false). */
  noted = false;

  /** The constructor's patterns (an automaton over several lists is built from theirs). */
  readonly patterns: readonly MarkerPattern[];

  /**
   * `stored`: the tables an automaton over these very patterns made
   * ({@link data}), taken as they are (start-up: the default rules' automata
   * come from the build, see ./stored-tables.ts) instead of built again.
   */
  constructor(patterns: readonly MarkerPattern[], stored?: AutomatonData) {
    this.patterns = patterns;
    this.lengths = Int32Array.from(patterns, (p) => p.text.length);
    this.flags = Uint8Array.from(patterns, (p) => (p.word ? WORD : 0) | (p.edge ? EDGE : 0) | (p.test === false ? NO_TEST : 0) | (p.note ? NOTE : 0));
    this.checks = patterns.map((p) => (p.check === undefined ? undefined : p));
    if (stored !== undefined) {
      this.low = stored.low;
      this.raw = stored.raw;
      this.rawString = stored.rawString;
      for (let k = 0; k + 1 < stored.wide.length; k += 2) this.wide.set(stored.wide[k]!, stored.wide[k + 1]!);
      this.nonAscii = stored.nonAscii;
      this.classes = stored.stride;
      this.meta = stored.stride - 1;
      this.delta = stored.delta;
      this.outStart = stored.outStart;
      this.outIds = stored.outIds;
      const states = stored.outStart.length - 1;
      this.leadRuns = new Array<Uint8Array | undefined>(states);
      this.leadTexts = new Array<string | undefined>(states);
      for (let k = 0; k + 1 < stored.leads.length; k += 2) this.setLead(stored.leads[k]!, stored.leads[k + 1]!, stored.runs[k >> 1]);
      return;
    }
    const { classes, nonAscii } = this.assignClasses(patterns);
    this.nonAscii = nonAscii;
    // Two more columns: the raw test's backslash (see `raw`), and the quick refusal of `meta`.
    const stride = classes + 2;
    this.classes = stride;
    this.meta = classes + 1;
    this.raw.set(this.low);
    this.raw[0x5c] = classes;
    this.rawString.set(this.raw);
    this.rawString[0x22] = classes;
    for (let c = 0; c < 0x20; c++) this.rawString[c] = classes;
    const trie = buildTrie(patterns, stride, (code) => this.classOf(code));
    const { states, outputs } = trie;
    const delta = buildDelta(trie, classes, stride);
    this.delta = delta;
    this.leadRuns = new Array<Uint8Array | undefined>(states);
    this.leadTexts = new Array<string | undefined>(states);
    for (let st = 0; st < states; st++) {
      const ids = outputs[st];
      if (ids === undefined) continue;
      const quick = quickOf(patterns, this.flags, ids);
      this.delta[st * stride + classes + 1] = quick;
      if ((quick & Q_LEAD) === 0) continue;
      this.setLead(st, ids.find((id) => ((this.flags[id] ?? 0) & NOTE) === 0)!);
    }
    this.outStart = new Int32Array(states + 1);
    let count = 0;
    for (let st = 0; st < states; st++) {
      this.outStart[st] = count;
      count += outputs[st]?.length ?? 0;
    }
    this.outStart[states] = count;
    this.outIds = new Int32Array(count);
    let at = 0;
    for (let st = 0; st < states; st++) for (const id of outputs[st] ?? []) this.outIds[at++] = id;
  }

  /** State `st` judges its lead with pattern `id`'s (the one output that is no note; see {@link quickOf}). */
  private setLead(st: number, id: number, run?: Uint8Array): void {
    this.leadPairs.push(st, id);
    // A stored run is the pattern's too: an automaton joined with learned patterns takes it.
    if (run !== undefined && !joinedRuns.has(this.patterns[id]!)) joinedRuns.set(this.patterns[id]!, run);
    this.leadRuns[st] = leadRun(this.patterns[id]!);
    this.leadTexts[st] = this.patterns[id]!.text.toLowerCase();
  }

  /** The automaton's tables, to be given back to the constructor with the same patterns (./stored-tables.ts). */
  data(): AutomatonData {
    const wide: number[] = [];
    for (const [code, cls] of this.wide) wide.push(code, cls);
    return {
      low: this.low,
      raw: this.raw,
      rawString: this.rawString,
      wide,
      nonAscii: this.nonAscii,
      stride: this.classes,
      delta: this.delta,
      outStart: this.outStart,
      outIds: this.outIds,
      leads: this.leadPairs,
      runs: this.leadPairs.filter((_, k) => k % 2 === 0).map((st) => this.leadRuns[st]!),
    };
  }

  /** Gives every pattern character (ASCII folded) a class, case variants sharing one; the number of classes. */
  private assignClasses(patterns: readonly MarkerPattern[]): { classes: number; nonAscii: boolean } {
    let classes = 1;
    const set = (code: number, cls: number) => {
      if (code < 256) this.low[code] = cls;
      else this.wide.set(code, cls);
    };
    let nonAscii = false;
    for (const p of patterns) {
      for (let i = 0; i < p.text.length; i++) {
        let code = p.text.charCodeAt(i);
        if (code >= 0x41 && code <= 0x5a) code += 32;
        if (code >= 0x80) nonAscii = true;
        if (this.classOf(code) !== 0) continue;
        if (classes === 255) throw new Error('too many distinct marker characters');
        const cls = classes++;
        set(code, cls);
        if (code < 0x80) {
          if (code >= 0x61 && code <= 0x7a) set(code - 32, cls);
          continue;
        }
        const ch = String.fromCharCode(code);
        for (const variant of [ch.toLowerCase(), ch.toUpperCase()]) {
          if (variant.length === 1 && this.classOf(variant.charCodeAt(0)) === 0) set(variant.charCodeAt(0), cls);
        }
      }
    }
    return { classes, nonAscii };
  }

  private classOf(code: number): number {
    return code < 256 ? this.low[code]! : (this.wide.get(code) ?? 0);
  }

  /**
   * Every occurrence in `text[from, to)`, conditions not applied, into
   * `hits` / `hitCount` (overwritten by the next call).
   */
  scan(text: string, from = 0, to = text.length): void {
    this.pass(text, from, to, true);
  }

  /** Whether some pattern occurs in `text` with its conditions met. */
  test(text: string): boolean {
    return this.pass(text, 0, text.length, false);
  }

  /**
   * The automaton over decoded text: with `collect`, records every hit (see
   * {@link scan}); without, stops at the first hit whose conditions are met.
   */
  private pass(text: string, from: number, to: number, collect: boolean): boolean {
    const { low, delta, classes, outStart, outIds } = this;
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
        const id = outIds[k]!;
        if (!collect) {
          if (this.meets(text, i, id)) return true;
          continue;
        }
        if (count + 2 > this.hits.length) {
          const bigger = new Int32Array(this.hits.length * 2);
          bigger.set(this.hits);
          this.hits = bigger;
        }
        this.hits[count++] = i + 1;
        this.hits[count++] = id;
      }
    }
    if (collect) this.hitCount = count >> 1;
    return false;
  }

  /** Whether pattern `id`, ending at `text[i]`, meets its conditions (for {@link test}). */
  private meets(text: string, i: number, id: number): boolean {
    const f = this.flags[id] ?? 0;
    if (f === 0) return true;
    if ((f & NO_TEST) !== 0) return false;
    if ((f & WORD) !== 0 && i + 1 < text.length && isLower(text.charCodeAt(i + 1))) return false;
    if ((f & EDGE) !== 0) {
      const before = i + 1 - (this.lengths[id] ?? 0) - 1;
      if (before >= 0 && text.charCodeAt(before) < 256 && ALNUM[text.charCodeAt(before)] === 1) return false;
    }
    return true;
  }

  /**
   * Whether a pattern (conditions met) may occur in the decoded text of the
   * raw JSON bytes `buf[start, end)` (see the file comment for escapes).
   */
  testRaw(buf: Uint8Array, start = 0, end = buf.length): boolean {
    this.noted = false;
    return this.run(buf, start, end);
  }

  /**
   * The raw test: one chain of table lookups, escapes decoded in the loop.
   * (Two chains over the two halves of a line measured slower here: every
   * escape or hit in either chain left the paired loop.)
   */
  private run(buf: Uint8Array, start: number, end: number): boolean {
    const { low, raw, delta, meta } = this;
    const nonAscii = this.nonAscii;
    let row = 0;
    /** The last backslash read (escapes are read whole), for the edge condition. */
    let slash = -1;
    for (let i = start; i < end; i++) {
      // Plain bytes in a loop with no call (see stringText).
      let code = 0;
      while (i < end) {
        code = delta[row + raw[buf[i]!]!]!;
        if (code < 0) break;
        row = code;
        i++;
      }
      if (i >= end) break;
      if (code !== ESCAPE) {
        row = ~code;
        // Most hits fail their word, edge or lead condition (`tokens`, `refactor`, `"path"`):
        // refused here, as rawHit would refuse them, without a call.
        const quick = delta[row + meta]!;
        if (quick !== 0) {
          if ((quick & Q_NOTE) !== 0) this.noted = true;
          if ((quick & Q_JUDGED) === 0) continue;
          if ((quick & WORD) !== 0 && i + 1 < end && isLower(buf[i + 1]!)) continue;
          const at = i + 1 - ((quick >> 5) & 0x7ff);
          // The lead condition after a marker written verbatim (one spelled by escapes: no guess, as checkAt).
          if ((quick & Q_LEAD) !== 0 && at >= start && this.leadRefused(buf, at, i, end, row / this.classes, quick >>> 16)) continue;
          // The edge condition on verbatim bytes only (no escape in reach, as edgeBefore).
          if ((quick & EDGE) !== 0 && at - 6 >= start && slash < at - 6 && ALNUM[buf[at - 1]!] === 1) continue;
        }
        if (this.rawHit(buf, i, end, row)) return true;
        continue;
      }
      // A backslash: the escape it starts, after any number of backslashes (nesting).
      let j = i + 1;
      while (j < end && buf[j] === 0x5c) j++;
      slash = j - 1;
      if (j >= end) return true; // a cut escape: no guess
      const e = buf[j]!;
      if (e === 0x2f) return true;
      if (e === 0x75 && j + 4 < end) {
        const h = (HEX[buf[j + 1]!]! << 12) | (HEX[buf[j + 2]!]! << 8) | (HEX[buf[j + 3]!]! << 4) | HEX[buf[j + 4]!]!;
        if (h >= 0) {
          let c = h;
          if (h >= 0x80) {
            if (nonAscii) return true; // non-ASCII markers are rare (a user's home): no guess
            c = 0x80;
          }
          i = j + 4;
          code = delta[row + low[c]!]!;
          row = code >= 0 ? code : ~code;
          if (code < 0 && this.rawHit(buf, i, end, row)) return true;
          continue;
        }
      }
      // Another escape: the backslash, then its letter (edgeBefore knows it is no letter).
      code = delta[row + low[0x5c]!]!;
      row = code >= 0 ? code : ~code;
      if (code < 0 && this.rawHit(buf, i, end, row)) return true;
      i = j;
      code = delta[row + low[e]!]!;
      row = code >= 0 ? code : ~code;
      if (code < 0 && this.rawHit(buf, i, end, row)) return true;
    }
    return false;
  }

  /**
   * {@link testRaw} and the proof that the line is a valid event in one pass
   * over its bytes (Core.proves): the automaton reads the strings' text as
   * the raw test does, `track` the structure between them. PROVE_HIT: a
   * marker may occur (testRaw would say true; the line is not proven);
   * PROVE_CLEAN: none does (testRaw would say false, {@link noted} as it
   * would set it) and the line is a valid event; PROVE_UNSURE: the line is
   * not proven and the test not finished (the caller does both the usual way).
   */
  proveRaw(buf: Uint8Array, start: number, end: number, track: JsonTrack): number {
    this.noted = false;
    this.row = 0;
    this.slash = -1;
    this.lineStart = start;
    track.begin();
    const { low, delta } = this;
    let from = start;
    for (;;) {
      const open = track.until(buf, from, end);
      if (open < 0) return PROVE_UNSURE;
      // The structure's bytes (no backslash among them), the opening quote included.
      if (!this.feed(buf, from, open === end ? end : open + 1, end)) return PROVE_HIT;
      if (open === end) return track.event ? PROVE_CLEAN : PROVE_UNSURE;
      // Strings one after another (`":"`, `","` between them) without a call of `until`.
      for (let at = open; ; ) {
        const close = this.stringText(buf, at + 1, end);
        if (close < 0) return close === -1 ? PROVE_HIT : PROVE_UNSURE;
        if (!track.closeString(buf, at, close, this.slash > at)) return PROVE_UNSURE;
        from = close + 1;
        if (from + 1 >= end || buf[from + 1] !== 0x22 || !track.quoteAfter(buf[from]!)) break;
        // Those two bytes (`:` or `,`, then a quote) as feed() reads them, inline when neither is an output.
        let code = delta[this.row + low[buf[from]!]!]!;
        if (code >= 0) code = delta[code + low[0x22]!]!;
        if (code >= 0) this.row = code;
        else if (!this.feed(buf, from, from + 2, end)) return PROVE_HIT;
        at = from + 1;
      }
    }
  }

  /** {@link proveRaw}'s automaton state between its calls of {@link feed} and {@link stringText}. */
  private row = 0;
  private slash = -1;
  private lineStart = 0;

  /** Feeds `buf[a, b)` (no backslash) as the raw test does; false at a hit. */
  private feed(buf: Uint8Array, a: number, b: number, end: number): boolean {
    const { low, delta } = this;
    let row = this.row;
    for (let i = a; i < b; i++) {
      // No call in the loop but at an output (see stringText).
      let code = 0;
      while (i < b) {
        code = delta[row + low[buf[i]!]!]!;
        if (code < 0) break;
        row = code;
        i++;
      }
      if (i >= b) break;
      row = ~code;
      if (this.rawHit(buf, i, end, row)) return false;
    }
    this.row = row;
    return true;
  }

  /**
   * The text of a string from `i` (past its opening quote), fed as the raw
   * test's loop feeds it, every escape and byte judged as JSON.parse would:
   * the index of its closing quote (fed too); -1 at a hit; -2 when the string
   * is not proven valid (a control byte, a bad escape, no closing quote).
   */
  private stringText(buf: Uint8Array, i: number, end: number): number {
    const { low, rawString, delta, meta } = this;
    let row = this.row;
    for (;;) {
      // Plain bytes, in a loop with no call: V8 then keeps the tables' pointers
      // in registers (a call anywhere in the loop reloads them every byte).
      let code = 0;
      while (i < end) {
        code = delta[row + rawString[buf[i]!]!]!;
        if (code < 0) break;
        row = code;
        i++;
      }
      if (i >= end) return -2;
      if (code !== ESCAPE) {
        row = ~code;
        const quick = delta[row + meta]!;
        if ((quick === 0 || !this.quickRefused(buf, i, end, row, quick)) && this.rawHit(buf, i, end, row)) return -1;
        i++;
        continue;
      }
      const b = buf[i]!;
      if (b === 0x22) {
        code = delta[row + low[0x22]!]!;
        this.row = code >= 0 ? code : ~code;
        return code < 0 && this.rawHit(buf, i, end, this.row) ? -1 : i;
      }
      if (b !== 0x5c) return -2; // a control byte
      // The common escapes (`\u003c`, `\n`: one backslash, no hit) here; any other by escape().
      const e = i + 1 < end ? buf[i + 1]! : 0x5c;
      if (e === 0x75 && i + 5 < end) {
        const h = (HEX[buf[i + 2]!]! << 12) | (HEX[buf[i + 3]!]! << 8) | (HEX[buf[i + 4]!]! << 4) | HEX[buf[i + 5]!]!;
        code = h >= 0 && h < 0x80 ? delta[row + low[h]!]! : -1;
        if (code >= 0) {
          row = code;
          this.slash = i;
          i += 6;
          continue;
        }
      } else if (SHORT_ESCAPE[e] === 1 && e !== 0x5c && e !== 0x2f) {
        code = delta[row + low[0x5c]!]!;
        code = code >= 0 ? delta[code + low[e]!]! : -1;
        if (code >= 0) {
          row = code;
          this.slash = i;
          i += 2;
          continue;
        }
      }
      this.row = row;
      const next = this.escape(buf, i, end);
      // A hit, a bad escape, or a quote after an even run of backslashes: the closing one (fed).
      if (next < 0 || (buf[next] === 0x22 && ((next - i) & 1) === 0)) return next;
      row = this.row;
      i = next + 1;
    }
  }

  /**
   * The escape at `buf[i]` (a backslash) inside a string, after any number
   * of backslashes, fed as the raw test feeds it: the index of its last byte;
   * -1 at a hit; -2 when JSON.parse would refuse it (a control byte after an
   * even run of backslashes is refused too).
   */
  private escape(buf: Uint8Array, i: number, end: number): number {
    const { low, delta } = this;
    let row = this.row;
    let j = i + 1;
    while (j < end && buf[j] === 0x5c) j++;
    this.slash = j - 1;
    if (j >= end) return -1; // a cut escape: the raw test says true
    const e = buf[j]!;
    // An odd run: the last backslash escapes `e`; an even one: `e` is text.
    const odd = ((j - i) & 1) === 1;
    if (odd ? SHORT_ESCAPE[e] !== 1 && e !== 0x75 : e < 0x20) return -2;
    if (e === 0x2f) return -1;
    if (e === 0x75 && j + 4 < end) {
      const h = (HEX[buf[j + 1]!]! << 12) | (HEX[buf[j + 2]!]! << 8) | (HEX[buf[j + 3]!]! << 4) | HEX[buf[j + 4]!]!;
      if (h >= 0) {
        let c = h;
        if (h >= 0x80) {
          if (this.nonAscii) return -1;
          c = 0x80;
        }
        const code = delta[row + low[c]!]!;
        this.row = code >= 0 ? code : ~code;
        return code < 0 && this.rawHit(buf, j + 4, end, this.row) ? -1 : j + 4;
      }
    }
    if (odd && e === 0x75) return -2; // `\u` without four hex digits
    let code = delta[row + low[0x5c]!]!;
    row = code >= 0 ? code : ~code;
    if (code < 0 && this.rawHit(buf, i, end, row)) return -1;
    code = delta[row + low[e]!]!;
    this.row = code >= 0 ? code : ~code;
    return code < 0 && this.rawHit(buf, j, end, this.row) ? -1 : j;
  }

  /** The raw test's quick refusal of a hit at `buf[i]` (see {@link run}): true when refused without {@link rawHit}. */
  private quickRefused(buf: Uint8Array, i: number, end: number, row: number, quick: number): boolean {
    if ((quick & Q_NOTE) !== 0) this.noted = true;
    if ((quick & Q_JUDGED) === 0) return true;
    if ((quick & WORD) !== 0 && i + 1 < end && isLower(buf[i + 1]!)) return true;
    const at = i + 1 - ((quick >> 5) & 0x7ff);
    if ((quick & Q_LEAD) !== 0 && at >= this.lineStart && this.leadRefused(buf, at, i, end, row / this.classes, quick >>> 16)) return true;
    return (quick & EDGE) !== 0 && at - 6 >= this.lineStart && this.slash < at - 6 && ALNUM[buf[at - 1]!] === 1;
  }

  /**
   * Whether the marker of state `st` is written verbatim at `buf[at, i]` and
   * the run its leads need (at least `min` characters) stops before that.
   */
  private leadRefused(buf: Uint8Array, at: number, i: number, end: number, st: number, min: number): boolean {
    const text = this.leadTexts[st]!;
    for (let k = 0; k < text.length; k++) {
      const c = buf[at + k]!;
      if ((c >= 0x41 && c <= 0x5a ? c + 32 : c) !== text.charCodeAt(k)) return false;
    }
    return runStops(buf, i + 1, Math.min(end, i + 1 + min), end, this.leadRuns[st]!);
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
      if ((f & NOTE) !== 0) {
        this.noted = true;
        continue;
      }
      if ((f & WORD) !== 0 && i + 1 < end && isLower(buf[i + 1]!)) continue;
      if ((f & EDGE) !== 0 && !edgeBefore(buf, i, lengths[id]!)) continue;
      const check = this.checks[id];
      if (check !== undefined && !checkAt(buf, i + 1 - lengths[id]!, i + 1, end, check)) continue;
      return true;
    }
    return false;
  }

  /**
   * For the hold-back of a clean delta piece, on its raw bytes: feeds the
   * decoded text of the JSON string body `buf[start, end)` (one level of
   * escapes). {@link UNCLEAR} when a pattern occurs in it, when it ends with
   * a proper prefix of one (the automaton is not back at its root), or when
   * it holds what this reader does not judge (a bad escape, a non-ASCII
   * character while some pattern has one); otherwise the code of its last
   * character (0 for none, 0x80 for any non-ASCII one).
   */
  clearTail(buf: Uint8Array, start: number, end: number): number {
    const { low, delta, recent } = this;
    let row = 0;
    let last = 0;
    let fed = 0;
    for (let i = start; i < end; i++) {
      let c = buf[i]!;
      if (c === 0x5c) {
        const e = i + 1 < end ? buf[i + 1]! : 0;
        if (e === 0x75) {
          c = i + 5 < end ? (HEX[buf[i + 2]!]! << 12) | (HEX[buf[i + 3]!]! << 8) | (HEX[buf[i + 4]!]! << 4) | HEX[buf[i + 5]!]! : -1;
          if (c < 0) return UNCLEAR;
          i += 5;
        } else {
          c = UNESCAPED[e]!;
          if (c === 0) return UNCLEAR;
          i++;
        }
      }
      if (c >= 0x80) {
        if (this.nonAscii) return UNCLEAR;
        c = 0x80;
      }
      recent[fed++ & RECENT_MASK] = c;
      const code = delta[row + low[c]!]!;
      // A pattern ends here: unclear, unless each is an edge pattern glued to a letter or digit.
      if (code < 0 && !this.edgeRefused(~code, fed)) return UNCLEAR;
      row = code < 0 ? ~code : code;
      last = c;
    }
    return row === 0 ? last : UNCLEAR;
  }

  /** The last characters fed by {@link clearTail} (ASCII, 0x80 for the rest), by count modulo its size. */
  private readonly recent = new Uint8Array(RECENT_MASK + 1);

  /**
   * For {@link clearTail}: whether every pattern ending at the state of
   * `row` is an `edge` pattern preceded by an ASCII letter or digit among the
   * `fed` characters fed so far (none before them: not refused). The
   * hold-back's anchors are edge patterns when every partial they lead
   * starts with that refusal (`sk`, `ac`, `pat` inside words).
   */
  private edgeRefused(row: number, fed: number): boolean {
    const state = row / this.classes;
    for (let k = this.outStart[state]!; k < this.outStart[state + 1]!; k++) {
      const id = this.outIds[k]!;
      const before = fed - 1 - this.lengths[id]!;
      if ((this.flags[id]! & EDGE) === 0 || before < 0 || this.lengths[id]! >= RECENT_MASK) return false;
      if (ALNUM[this.recent[before & RECENT_MASK]!] !== 1) return false;
    }
    return true;
  }
}

/** {@link Automaton.clearTail} remembers this many characters, less one (a power of two). */
const RECENT_MASK = 63;

/** What {@link Automaton.clearTail} returns for text it cannot call clear. */
export const UNCLEAR = -1;

/** A JSON short escape's letter → the character it stands for (0: not one). */
const UNESCAPED = new Uint8Array(256);
for (const [letter, code] of [['n', 0x0a], ['t', 0x09], ['r', 0x0d], ['b', 0x08], ['f', 0x0c], ['"', 0x22], ['\\', 0x5c], ['/', 0x2f]] as const) UNESCAPED[letter.charCodeAt(0)] = code;

/** The patterns' trie (see {@link buildTrie}). */
interface Trie {
  states: number;
  /** By state, the ids of the patterns ending there (then, once {@link buildDelta} ran, at its suffixes too). */
  outputs: Array<number[] | undefined>;
  /** By state: its first child (0: none); by child: its next sibling (0: none) and the class leading to it. */
  firstChild: Int32Array;
  nextSibling: Int32Array;
  edgeClass: Int32Array;
}

/**
 * The patterns' trie: states numbered as they are first reached, pattern by
 * pattern, each state's children in a list.
 */
function buildTrie(patterns: readonly MarkerPattern[], stride: number, classOf: (code: number) => number): Trie {
  let total = 0;
  for (const p of patterns) total += p.text.length;
  // Looked up while inserting only: the child of a state by class.
  const goto = new Int32Array((total + 1) * stride);
  const firstChild = new Int32Array(total + 1);
  const nextSibling = new Int32Array(total + 1);
  const edgeClass = new Int32Array(total + 1);
  let states = 1;
  const outputs: Array<number[] | undefined> = [];
  patterns.forEach((p, id) => {
    let state = 0;
    for (let i = 0; i < p.text.length; i++) {
      const cls = classOf(p.text.charCodeAt(i));
      const at = state * stride + cls;
      if (goto[at] === 0) {
        const child = states++;
        goto[at] = child;
        edgeClass[child] = cls;
        nextSibling[child] = firstChild[state]!;
        firstChild[state] = child;
      }
      state = goto[at] ?? 0;
    }
    (outputs[state] ??= []).push(id);
  });
  return { states, outputs, firstChild, nextSibling, edgeClass };
}

/**
 * The automaton's transitions (see Automaton.delta), breadth first from the
 * trie: a state's row is its failure state's (complete by then: it is
 * shallower), its children put in; a state's outputs gain its failure
 * state's. A target with outputs is complemented: the child's own, or its
 * failure state's (whose code in the failure row is complemented then).
 * Rows are copied natively (start-up runs this cold, once per learned name).
 */
function buildDelta(trie: Trie, classes: number, stride: number): Int32Array {
  const { states, outputs, firstChild, nextSibling, edgeClass } = trie;
  const delta = new Int32Array(states * stride);
  const fail = new Int32Array(states);
  const queue = new Int32Array(states);
  let tail = 0;
  delta[classes] = ESCAPE;
  for (let child = firstChild[0]!; child !== 0; child = nextSibling[child]!) {
    delta[edgeClass[child]!] = outputs[child] === undefined ? child * stride : ~(child * stride);
    queue[tail++] = child;
  }
  for (let head = 0; head < tail; head++) {
    const state = queue[head]!;
    const row = state * stride;
    const failRow = fail[state]! * stride;
    const suffix = outputs[fail[state]!];
    if (suffix !== undefined) outputs[state] = [...(outputs[state] ?? []), ...suffix];
    delta.copyWithin(row, failRow, failRow + stride);
    delta[row + classes + 1] = 0;
    for (let child = firstChild[state]!; child !== 0; child = nextSibling[child]!) {
      const cls = edgeClass[child]!;
      const target = delta[failRow + cls]!;
      fail[child] = (target < 0 ? ~target : target) / stride;
      delta[row + cls] = outputs[child] === undefined && target >= 0 ? child * stride : ~(child * stride);
      queue[tail++] = child;
    }
  }
  return delta;
}

/** Bits of a state's quick refusal besides WORD and EDGE (see {@link quickOf}). */
const Q_NOTE = 4;
const Q_LEAD = 8;
const Q_JUDGED = 16;

/**
 * The quick refusal of a state whose outputs are `ids`, read by the raw
 * test's loop: `min run << 16 | length << 5 | flags`. Q_NOTE: some output is a
 * note; Q_JUDGED: exactly one output is not, of that length, whose WORD and
 * EDGE conditions (the flags) and, with Q_LEAD, the run its leads need after
 * the marker (their shortest, up to 1024 bytes) the loop may judge; Q_NOTE
 * alone: only notes. 0: no quick refusal (rawHit decides).
 */
function quickOf(patterns: readonly MarkerPattern[], flags: Uint8Array, ids: readonly number[]): number {
  const judged = ids.filter((id) => ((flags[id] ?? 0) & NOTE) === 0);
  const note = judged.length < ids.length ? Q_NOTE : 0;
  const id = judged[0];
  if (judged.length !== 1 || id === undefined) return judged.length === 0 ? note : 0;
  const p = patterns[id]!;
  const length = p.text.length;
  let quick = note | ((flags[id] ?? 0) & (WORD | EDGE));
  // Leads that all start with the marker itself and need a run of characters after it, none
  // of them a quote, a backslash or a control character: one of those first refuses every lead.
  const leads = p.check === undefined ? undefined : p.leads;
  if (leads !== undefined && leads.length > 0 && leads.every((l) => l.text.length === length && l.run !== undefined && l.min > 0 && l.run[0x22] !== 1 && l.run[0x5c] !== 1)) {
    quick |= Q_LEAD | (Math.min(1024, ...leads.map((l) => l.min)) << 16);
  }
  if ((quick & (WORD | EDGE | Q_LEAD)) === 0 || length > 0x7ff) return 0; // nothing to judge here: rawHit
  return quick | Q_JUDGED | (length << 5);
}

/**
 * The one judged output's leads' runs, joined (see {@link quickOf}); kept by
 * pattern, as the automaton is built again with each learned name.
 */
function leadRun(pattern: MarkerPattern): Uint8Array {
  let joined = joinedRuns.get(pattern);
  if (joined !== undefined) return joined;
  joined = new Uint8Array(128);
  for (const lead of pattern.leads ?? []) {
    const run = lead.run;
    if (run === undefined) continue;
    for (let c = 0; c < run.length && c < 128; c++) if (joined[c] === 0) joined[c] = run[c]!;
  }
  joinedRuns.set(pattern, joined);
  return joined;
}

/** {@link leadRun}'s answers by pattern (read only). */
const joinedRuns = new WeakMap<MarkerPattern, Uint8Array>();

/** What {@link Automaton.proveRaw} found. */
export const PROVE_CLEAN = 0;
export const PROVE_HIT = 1;
export const PROVE_UNSURE = -1;

/** Bytes a backslash may escape in JSON, besides `u`. */
const SHORT_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SHORT_ESCAPE[c.charCodeAt(0)] = 1;

/** Escape letters that decode to a quote or a control character. */
const STOP_ESCAPE = new Uint8Array(256);
for (const c of '"nrtbf') STOP_ESCAPE[c.charCodeAt(0)] = 1;

/**
 * Whether the run the leads need after their marker (`run`: the characters
 * any of them may hold; none is a quote or a backslash) stops in `buf[a, b)`:
 * a character outside it comes first, raw (a quote ends the string) or
 * escaped once: `\"`, `\n`, `\u003c` stop the run; `\u0041`, `\/` and
 * deeper escapes may not (no guess).
 */
function runStops(buf: Uint8Array, a: number, b: number, end: number, run: Uint8Array): boolean {
  for (let k = a; k < b; k++) {
    const c = buf[k]!;
    if (c !== 0x5c) {
      if (c >= 0x80 || run[c] !== 1) return true;
      continue;
    }
    // One level of escaping only: deeper ones are left to the rules (no guess).
    const j = k + 1;
    if (j >= end) return false;
    const e = buf[j]!;
    if (STOP_ESCAPE[e] === 1) return true;
    if (e !== 0x75 || j + 4 >= end) return false;
    const v = (HEX[buf[j + 1]!]! << 12) | (HEX[buf[j + 2]!]! << 8) | (HEX[buf[j + 3]!]! << 4) | HEX[buf[j + 4]!]!;
    return v >= 0 && (v >= 0x80 || run[v] !== 1);
  }
  return false;
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
  if (p.leads !== undefined && !startsWithLead(buf, ms, end, p.leads)) return false;
  if ((p.behind ?? 0) === 0) {
    // The common case: plain bytes from the marker to a quote (the literal's end), to an
    // escape the rules cannot read through (a quote, a control character), or to as many
    // characters as they can look at (a UTF-8 character is at most 3 bytes per UTF-16 unit).
    const limit = Math.min(end, me + (p.ahead ?? 0) * 3 + 3);
    let b = me;
    while (b < limit && buf[b] !== 0x22 && buf[b] !== 0x5c) b++;
    const e = b < limit && buf[b] === 0x5c ? buf[b + 1] : undefined;
    if (e === undefined || (p.cuttable === true && (e === 0x6e || e === 0x72 || e === 0x74 || e === 0x22 || e === 0x62 || e === 0x66))) {
      return p.check!(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8', ms, b), 0);
    }
  }
  return checkDecoded(buf, ms, me, end, p);
}

/**
 * Whether the bytes at `at` may start a match with one of `leads` once
 * decoded: they spell one, or an escape or the line's end comes first (no guess).
 */
function startsWithLead(buf: Uint8Array, at: number, end: number, leads: readonly Lead[]): boolean {
  for (const { text, run, min } of leads) {
    let k = 0;
    for (; k < text.length; k++) {
      const c = at + k < end ? buf[at + k] : undefined;
      if (c === undefined || c === 0x5c) return true;
      if (c !== text.charCodeAt(k)) break;
    }
    if (k < text.length) continue;
    if (run === undefined) return true;
    let n = 0;
    for (let p = at + k; n < min; p++, n++) {
      const c = p < end ? buf[p] : undefined;
      if (c === undefined || c === 0x5c) return true;
      if (c >= 0x80 || run[c] !== 1) break;
    }
    if (n === min) return true;
  }
  return false;
}

/** {@link checkAt} on a window decoded with its escapes, context before the marker included. */
function checkDecoded(buf: Uint8Array, ms: number, me: number, end: number, p: MarkerPattern): boolean {
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
  const limit = Math.min(end, me + (p.ahead ?? 0) * 6 + 12);
  let b = me;
  while (b < limit && !(buf[b] === 0x22 && delimiter(buf, b))) b++;
  if (b === limit) {
    // Cut before an escape the window would split.
    let steps = 0;
    while (b > me && hasBackslash(buf, b - 5, b) && steps++ < 64) b--;
    if (steps > 64) return true;
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
