/**
 * The delta hold-back: where to cut a delta piece so that a secret split
 * across two pieces of one stream is still caught. A piece that ENDS with
 * text that could begin a match (each rule's `partial` pattern: `sk-pro`,
 * `/home/al`, `password=`...) keeps that tail back for the next piece.
 */
import type { Redactor, Tables } from './engine.js';
import { Automaton, UNCLEAR, type MarkerPattern } from './prefilter.js';
import { SHORT_ESCAPE_VALUE } from '../scan.js';
import { cannotEnd } from './regex-ends.js';

/** The longest tail held back per delta stream, in characters. */
export const MAX_HOLD = 20000;

/** How far back from the end anchors of ordinary partials are searched. */
const SHORT_WINDOW = 1100;
/** The same for long partials (private keys, JWTs, authorization values). */
const MAX_WINDOW = 16600;

/**
 * Where to cut a delta piece: the start of the earliest suffix that could
 * begin a match continued by the next piece (the text's length when none).
 * `long` false: the text is known to hold no long anchor (the raw test said
 * so), so only its last line is searched.
 */
export function holdPoint(engine: Redactor, text: string, long = true): number {
  const tables = engine.compiled();
  const len = text.length;
  if (len === 0) return 0;
  let hold = len;
  if (tables.fallbackHold > 0) hold = Math.max(0, len - tables.fallbackHold);
  const attempts: number[] = [];
  const tryAt = (at: number, indexes: ArrayLike<number>, offset: number) => {
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i]! + offset;
      const reach = tables.partials[index]!.reach;
      for (let k = reach; k >= 0; k--) if (at - k >= 0) attempts.push((at - k) * 4096 + index);
    }
  };
  // Short partials never span a line break (their classes exclude \n): only
  // the last line can hold their start. Long ones (PEM blocks) can.
  const lastBreak = text.lastIndexOf('\n');
  const shortFrom = Math.max(0, len - Math.min(SHORT_WINDOW, len - lastBreak - 1));
  const longFrom = long ? Math.max(0, len - MAX_WINDOW) : shortFrom;
  const tail = text.slice(-16).toLowerCase();
  for (const { built, offset } of tables.holds) {
    // Anchors cut by the end of the piece: the text ends with their beginning.
    for (const [prefix, indexes] of built.prefixes.get(tail.charAt(tail.length - 1)) ?? []) {
      if (tail.endsWith(prefix)) tryAt(len - prefix.length, indexes, offset);
    }
    // Whole anchors within reach of the end: one automaton pass over the tail.
    const anchors = built.anchors;
    if (anchors === undefined) continue;
    anchors.scan(text, longFrom);
    const { hits, hitCount, lengths } = anchors;
    for (let h = 0; h < hitCount; h++) {
      const id = hits[2 * h + 1]!;
      const at = hits[2 * h]! - lengths[id]!;
      if (at < shortFrom && built.longAnchor[id] === 0) continue;
      tryAt(at, built.partialsOf[id]!, offset);
    }
  }
  attempts.sort((a, b) => a - b);
  for (const attempt of attempts) {
    const at = Math.floor(attempt / 4096);
    if (at >= hold) break;
    if (tables.partials[attempt % 4096]!.test(text, at)) {
      hold = at;
      break;
    }
  }
  const windowStart = Math.max(0, len - SHORT_WINDOW);
  // A free partial's match runs to the end: a last character none can end with rules them all out.
  if (!cannotEnd(tables.freeEnds, text.charCodeAt(len - 1))) for (const free of tables.freePartials) hold = Math.min(hold, free(text, windowStart));
  if (tables.email) hold = Math.min(hold, emailTail(text));
  if (len - hold > MAX_HOLD) hold = len - MAX_HOLD;
  if (hold < len) hold = outsideMatches(engine, text, hold);
  return hold;
}

/** Bytes of a clean piece read by {@link quietTail}: a longer last line is left to {@link holdPoint}. */
const QUIET_BYTES = 4096;

/**
 * Whether {@link holdPoint} (with `long` false: the raw test saw no long
 * anchor) certainly holds nothing of the delta string whose JSON body is
 * `raw[start, end)`, judged on raw bytes, with nothing decoded: no partial
 * anchor occurs in its last line and none is cut by its end (the anchor
 * automata, escapes read on the fly), and its last character cannot end an
 * e-mail address's local part. False means "ask holdPoint": user rules
 * without anchors, a last line over 4 KiB, an escape or character the reader
 * does not judge.
 */
export function quietTail(engine: Redactor, raw: Buffer, start: number, end: number): boolean {
  const tables = engine.compiled();
  if (tables.fallbackHold > 0 || tables.freeReach === Infinity) return false;
  // Short partials never span a line break: the last line (from its break on) is all holdPoint reads.
  const from = lastLineStart(raw, start, end);
  if (from < 0) return false;
  const last = clearTails(tables, raw, from, end);
  if (last === UNCLEAR) return false;
  if (tables.email && (last === 0x40 || isLocal(last))) return false;
  if (tables.freePartials.length === 0 || cannotEnd(tables.freeEnds, last)) return true;
  const text = freeText(raw, start, end, tables.freeReach);
  if (text === undefined) return false;
  for (const free of tables.freePartials) if (free(text, 0) < text.length) return false;
  return true;
}

/** Passes over a learned table's tails before its anchors are joined into one automaton (see {@link clearTails}). */
export const JOIN_AFTER = 8192;

/** By tables with learned anchors: the passes made over them, and then their joined automaton. */
const joinedAnchors = new WeakMap<Tables, { passes: number; joined?: Automaton }>();

/**
 * Automaton.clearTail over the anchors of every table of `tables.holds`
 * (the fixed ones, the learned ones): UNCLEAR when any says so (or when
 * there are no anchors at all: only user rules, which have free partials,
 * and holdPoint judges), else the last character. With learned anchors,
 * the tables' anchors are joined into one automaton once they have served
 * {@link JOIN_AFTER} pieces: one pass over a piece's last line, not one per
 * table, with the same verdict (a pattern occurs, or the text ends with a
 * proper prefix of one, exactly when it does for one of the lists). Joined
 * late, as building it costs some thousands of passes: tables are built
 * again with each name or workspace learned.
 */
function clearTails(tables: Tables, raw: Buffer, from: number, end: number): number {
  const holds = tables.holds;
  if (holds.length === 1) return holds[0]!.built.anchors?.clearTail(raw, from, end) ?? UNCLEAR;
  let entry = joinedAnchors.get(tables);
  if (entry === undefined) joinedAnchors.set(tables, (entry = { passes: 0 }));
  if (entry.joined === undefined && ++entry.passes === JOIN_AFTER) entry.joined = joined(tables);
  if (entry.joined !== undefined) return entry.joined.clearTail(raw, from, end);
  let last = UNCLEAR;
  for (const { built } of holds) {
    if (built.anchors === undefined) continue;
    last = built.anchors.clearTail(raw, from, end);
    if (last === UNCLEAR) return UNCLEAR;
  }
  return last;
}

/** One automaton over the anchors of every table (undefined: none, or too many distinct characters for one). */
function joined(tables: Tables): Automaton | undefined {
  const patterns: MarkerPattern[] = [];
  for (const { built } of tables.holds) if (built.anchors !== undefined) for (const p of built.anchors.patterns) patterns.push(p);
  if (patterns.length === 0) return undefined;
  try {
    return new Automaton(patterns);
  } catch {
    return undefined;
  }
}

/**
 * The end of the JSON string body `raw[start, end)` that decides every free
 * partial: its last `reach` characters at least (a match runs to the end and
 * looks at most `reach` characters back), or all of it; undefined when it
 * cannot be read. Most tails are ASCII: read backwards from the end, escapes
 * and all ({@link asciiTail}); otherwise the last bytes that hold them (at
 * most 6 per character), cut outside any escape or UTF-8 sequence, decoded.
 */
function freeText(raw: Buffer, start: number, end: number, reach: number): string | undefined {
  const ascii = asciiTail(raw, start, end, reach);
  if (ascii !== undefined) return ascii;
  let cut = Math.max(start, end - 6 * reach - 8);
  while (cut > start && cut < end && (raw.lastIndexOf(0x5c, cut - 1) >= Math.max(start, cut - 6) || ((raw[cut] ?? 0) & 0xc0) === 0x80)) cut++;
  const text = plainText(raw, cut, end);
  if (text === undefined || (cut > start && text.length < reach)) return undefined;
  return text;
}


/** Whether the backslash at `at` starts an escape: an odd run of backslashes ends there. */
function startsEscape(raw: Buffer, start: number, at: number): boolean {
  let k = at;
  while (k > start && raw[k - 1] === 0x5c) k--;
  return (at - k) % 2 === 0;
}

/**
 * The last `reach` characters (all when fewer) of the decoded JSON string
 * body `raw[start, end)`, read backwards from its end, one character or
 * escape at a time; undefined for anything but ASCII (a character, or a
 * `\\u` escape, from 0x80 on) or a byte that cannot end a character of a
 * valid body. A piece's end sits between characters, so each step back
 * starts at one's end.
 */
function asciiTail(raw: Buffer, start: number, end: number, reach: number): string | undefined {
  let text = '';
  let p = end;
  for (let n = 0; n < reach && p > start; n++) {
    const c = raw[p - 1]!;
    if (c >= 0x80 || c < 0x20) return undefined;
    let code = c;
    if (p - 2 >= start && raw[p - 2] === 0x5c && startsEscape(raw, start, p - 2)) {
      code = SHORT_ESCAPE_VALUE[c]!;
      if (code === 0) return undefined;
      p -= 2;
    } else if (p - 6 >= start && raw[p - 6] === 0x5c && raw[p - 5] === 0x75 && startsEscape(raw, start, p - 6)) {
      code = Number.parseInt(raw.toString('latin1', p - 4, p), 16);
      if (!(code < 0x80) || !/^[0-9A-Fa-f]{4}$/.test(raw.toString('latin1', p - 4, p))) return undefined;
      p -= 6;
    } else {
      if (c === 0x5c || c === 0x22) return undefined;
      p--;
    }
    text = String.fromCharCode(code) + text;
  }
  return text;
}

/**
 * Where the last line of the JSON string body `raw[start, end)` starts (its
 * `\\n` escape, or `start`); -1 when that line is longer than
 * {@link QUIET_BYTES}. A byte loop from the end: a native search with a
 * two-byte needle cost more than these short lines (most pieces are a few
 * dozen bytes).
 */
function lastLineStart(raw: Buffer, start: number, end: number): number {
  const limit = Math.max(start, end - QUIET_BYTES - 2);
  for (let at = end - 1; at > limit; at--) {
    // `\\n` is a backslash then `n`: the escape counts when that backslash starts one.
    if (raw[at] === 0x6e && raw[at - 1] === 0x5c && startsEscape(raw, start, at - 1)) return end - (at - 1) > QUIET_BYTES ? -1 : at - 1;
  }
  return end - start > QUIET_BYTES ? -1 : start;
}

/**
 * The decoded text of the JSON string body `raw[cut, end)`: the bytes
 * themselves when they hold no escape, quote or control character (the
 * common piece: no template string and JSON.parse), else JSON.parse's
 * reading; undefined when it is not a valid string body.
 */
export function plainText(raw: Buffer, cut: number, end: number): string | undefined {
  let ascii = true;
  for (let i = cut; i < end; i++) {
    const c = raw[i]!;
    if (c === 0x5c || c === 0x22 || c < 0x20) {
      try {
        return JSON.parse(`"${raw.toString('utf8', cut, end)}"`) as string;
      } catch {
        return undefined;
      }
    }
    if (c >= 0x80) ascii = false;
  }
  return raw.toString(ascii ? 'latin1' : 'utf8', cut, end);
}

/** Characters of an e-mail address's local part, and of its domain. */
const LOCAL = new Uint8Array(128);
const DOMAIN = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  DOMAIN[c] = alnum || c === 0x2e || c === 0x2d ? 1 : 0;
  LOCAL[c] = DOMAIN[c] === 1 || c === 0x5f || c === 0x25 || c === 0x2b ? 1 : 0;
}
const isLocal = (c: number) => c < 128 && LOCAL[c] === 1;

/**
 * Where a possible e-mail address at the end of the text starts (the text's
 * length when none): a local part that the next piece may continue with
 * `@domain`, or a local part, `@` and the domain so far. Without this, an
 * address cut before its `@` leaked its local part (issue 23).
 */
export function emailTail(text: string): number {
  const len = text.length;
  let j = len;
  while (j > 0 && len - j <= 253 && text.charCodeAt(j - 1) < 128 && DOMAIN[text.charCodeAt(j - 1)] === 1) j--;
  // `local@dom` so far: the local part before the `@`.
  const end = j > 0 && text.charCodeAt(j - 1) === 0x40 ? j - 1 : len;
  if (end === len && j < len - 64 - 1) return len; // too long a run for a local part
  let k = end;
  while (k > 0 && end - k <= 64 && isLocal(text.charCodeAt(k - 1))) k--;
  if (k === end || end - k > 64) return len;
  return k;
}

/** Moves a cut point back to the start of a complete match that spans it. */
function outsideMatches(engine: Redactor, text: string, cut: number): number {
  let result = cut;
  engine.scan(text, Math.max(0, cut - 70000), (m) => {
    if (m.start >= cut) return false;
    if (m.end > cut) {
      result = m.start;
      return false;
    }
    return true;
  });
  return result;
}
