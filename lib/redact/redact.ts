/**
 * wuu-redact: make a log safe to share without breaking it.
 *
 * Every string value (and object key) of every event, at any depth, goes
 * through the rules (./rules.ts, ./providers.ts): secrets become
 * `<secret:RULE>`, home directories `~`, the announced workspace
 * `<workspace>`, user names `<user>`, e-mail addresses `<email>`.
 *
 * The parts: ./byte-scan.ts (the raw-line prefilter), ./compile.ts (rules to
 * scan tables; user rules on re2js), ./engine.ts (the scan over a string),
 * ./walk.ts (the event walk that patches encoded text in place),
 * ./hold-back.ts and ./deltas.ts (secrets split across delta pieces),
 * ./placeholders.ts, ./users.ts (user-name evidence), ./values.ts (values
 * that are settings, not secrets), ./censor.ts (JSONPath), ./oversize-line.ts
 * (lines beyond --max-line-bytes, streamed).
 *
 * FAST PATH. Before parsing, the raw line is searched (as bytes,
 * case-insensitively) for every rule's markers, the learned user names and
 * workspaces, and for `\u` or `\/` escapes; a line without any is written
 * unparsed. Only the lines holding a candidate are decoded.
 */
import { isAscii } from 'node:buffer';
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit, type LineRun } from '../core.js';
import { FAMILIES, type WuuEvent } from '../events.js';
import { LineRecord, type EventRecord } from '../jsonl.js';
import { isJsonEvent } from '../validate.js';
import { JsonTrack } from './json-track.js';
import { PROVE_CLEAN, PROVE_HIT, PROVE_UNSURE } from './prefilter.js';
import { topLevelString, topLevelStringSpan } from '../scan.js';
import { escapeControls } from '../text.js';
import { censorEvent, JsonPathError, preparePath } from './censor.js';
import { DELTA_TYPES, DeltaStreams, streamKey, type StreamIds } from './deltas.js';
import { View } from './view.js';
import { applySpans, Redactor, type PathMode } from './engine.js';
import { holdPoint, plainText, quietTail } from './hold-back.js';
import { redactOversize } from './oversize-line.js';
import { type RuleSpec } from './rule-spec.js';
import { applyPatches, applyRange, walkJson, type Patch, type WalkOptions } from './walk.js';
import { walkProven } from './walk-proven.js';
import { literalPatcher, patchedBytes } from './line-bytes.js';
import { Allowlist, fingerprint } from './allow.js';
import { DEFAULT_SALT as SALT } from './placeholders.js';
import type { Span } from './engine.js';

export { JsonPathError };

/** Options of {@link createRedact}. */
export interface RedactOptions {
  /** JSONPath expressions whose values are censored (`"<redacted>"`) or removed. */
  paths?: string[];
  /** Remove the fields selected by `paths` instead of censoring them. */
  remove?: boolean;
  /** Extra rules, after the built-in ones (run on re2js, a linear-time engine). */
  rules?: RuleSpec[];
  /** Use the built-in secret rules (default true). */
  defaultRules?: boolean;
  /** Private-path handling (default `home`). */
  pathMode?: PathMode;
  /** Stable keyed placeholders (`<secret:RULE:1a2b3c4d>`) instead of plain ones. */
  pseudonymize?: boolean;
  /** HMAC key for `pseudonymize` (default {@link DEFAULT_SALT}). */
  salt?: string;
  /** Log counts per rule and per event type at the end. */
  report?: boolean;
  /** Write nothing; log `FILE:LINE: RULE` for each finding; status 1 when any. */
  check?: boolean;
  /** Where report and check lines go (the CLI: stderr with the program name). */
  log?: (line: string) => void;
  /** Receives every finding (the CLI's --report-path writes them as JSONL); never the secret itself. */
  findings?: (finding: Finding) => void;
  /** Values and fingerprints left alone (the CLI's --allow). */
  allow?: Allowlist;
}

/** One finding for --report-path: where, which rule, and a fingerprint of the value (see ./allow.ts). */
export interface Finding {
  file: string;
  line: number;
  /** JSON path of the string (`$.arguments|$.command`: inside JSON held by a string); null in a line over --max-line-bytes. */
  path: string | null;
  rule: string;
  fingerprint: string;
}

/** The events that announce a workspace (and a home) to learn: session_configured and thread_*. */
const LEARN_TYPES: ReadonlySet<string> = new Set(FAMILIES.session);

/** Findings per rule name, in order of first appearance. */
function countNames(hits: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of hits) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** Lines up to this many bytes are patched as strings (see Redaction.redactWhole). */
const SHORT_LINE = 4096;

const DELTA_OPEN = Buffer.from('{"delta":"');
const DELTA_KEY = Buffer.from('"delta"');

/**
 * Where the body of a delta line's `delta` string lies in its bytes (after
 * the opening quote, up to the closing one), when the line has the
 * producer's shape: `delta` first (Go sorts keys), no second `delta` member.
 */
export function deltaBounds(raw: Buffer): [number, number] | undefined {
  if (raw.length < DELTA_OPEN.length) return undefined;
  // Byte by byte: a native compare costs more than these ten bytes.
  for (let k = 0; k < DELTA_OPEN.length; k++) if (raw[k] !== DELTA_OPEN[k]) return undefined;
  const open = DELTA_OPEN.length - 1;
  let close = open;
  for (;;) {
    close = raw.indexOf(0x22, close + 1);
    if (close < 0) return undefined;
    let k = close;
    while (raw[k - 1] === 0x5c) k--;
    if ((close - k) % 2 === 0) break;
  }
  // A later member named `delta` (a duplicate): the general reader, which refuses it.
  if (hasFrom(raw, DELTA_KEY, close)) return undefined;
  return [open + 1, close];
}

/**
 * Whether `needle` (starting with a quote) occurs in `raw` from `from` on:
 * a byte loop over the quotes, cheaper than a native search on the short
 * rest of a delta line (the members after `delta`).
 */
function hasFrom(raw: Buffer, needle: Buffer, from: number): boolean {
  const last = raw.length - needle.length;
  for (let i = from; i <= last; i++) {
    if (raw[i] !== 0x22) continue;
    let k = 1;
    while (k < needle.length && raw[i + k] === needle[k]) k++;
    if (k === needle.length) return true;
  }
  return false;
}

/**
 * The last characters of a delta line's `delta` string, decoded from the
 * bytes near its end only: all the hold-back of a clean piece reads (its
 * windows end at the text's end), without decoding a piece of megabytes.
 * Needs the producer's shape (see {@link deltaBounds}); otherwise, or when
 * the cut would split an escape, the whole string as topLevelString reads
 * it. A short piece is decoded whole, natively.
 */
export function deltaTail(raw: Buffer, bytes: number, bounds = deltaBounds(raw)): string | undefined {
  if (bounds === undefined) return topLevelString(raw, 'delta');
  const [body, close] = bounds;
  let from = close - bytes;
  if (from <= body) from = body; // all of it (natively decoded: the common, short piece)
  else {
    // Not inside an escape (at most 6 bytes, starting with a backslash), nor a UTF-8 sequence.
    const limit = from + 64;
    while (from < limit && (raw.lastIndexOf(0x5c, from - 1) >= from - 6 || ((raw[from] ?? 0) & 0xc0) === 0x80)) from++;
    if (from === limit) return topLevelString(raw, 'delta');
  }
  // Most tails hold no escape: their bytes are their text (no template string and JSON.parse).
  return plainText(raw, from, close) ?? topLevelString(raw, 'delta');
}

/** A string literal's body (inside its quotes), from the quotes' indexes. */
const bodyOf = (span: [number, number] | undefined): [number, number] | undefined => (span === undefined ? undefined : [span[0] + 1, span[1]]);

/** Whether a raw line was written with Go's HTML escaping (no literal `<`, `>`, `&`). */
function goStyle(raw: Buffer | undefined): boolean {
  return raw === undefined || (raw.indexOf(0x3c) < 0 && raw.indexOf(0x3e) < 0 && raw.indexOf(0x26) < 0);
}

/** A top-level string field, from the bytes when possible. */
function field(rec: EventRecord, name: string): string {
  const fromRaw = rec.raw === undefined ? undefined : topLevelString(rec.raw, name);
  if (fromRaw !== undefined) return fromRaw;
  const value = (rec.event as Record<string, unknown>)[name];
  return value === undefined || value === null ? '' : String(value);
}

function idsOf(rec: EventRecord, type = rec.type): StreamIds {
  return { type, thread: field(rec, 'thread_id'), turn: field(rec, 'turn_id'), item: type === 'agent_message_delta' ? '' : field(rec, 'item_id') };
}

type Place = { file: string; line: number };

/**
 * What a run found: counts per rule and per event type for --report, one
 * `FILE:LINE: RULE` line per finding for --check, and each finding's
 * fingerprint for --report-path.
 */
class Tally {
  events = 0;
  findings = 0;
  private changedEvents = 0;
  private readonly ruleCounts = new Map<string, number>();
  private readonly typeCounts = new Map<string, number>();

  constructor(
    private readonly check: boolean,
    private readonly log: (line: string) => void,
    private readonly salt: string,
    private readonly sink: ((finding: Finding) => void) | undefined,
  ) {}

  /** One finding to --report-path. */
  report(span: Span, where: Place): void {
    if (this.sink === undefined || span.value === undefined) return;
    this.sink({ file: where.file, line: where.line, path: span.path ?? null, rule: span.rule, fingerprint: fingerprint(span.value, this.salt) });
  }

  /** Counts an event's findings (rule names, or counts by name); `found`: its spans, for --report-path. */
  record(type: string, hits: readonly string[] | ReadonlyMap<string, number>, where: Place, found?: readonly Span[] | (() => readonly Span[])): void {
    if (found !== undefined && this.sink !== undefined) for (const span of typeof found === 'function' ? found() : found) this.report(span, where);
    const counts = hits instanceof Map ? hits : countNames(hits as readonly string[]);
    if (counts.size === 0) return;
    this.changedEvents++;
    for (const [name, n] of counts) {
      this.findings += n;
      this.typeCounts.set(type, (this.typeCounts.get(type) ?? 0) + n);
      this.ruleCounts.set(name, (this.ruleCounts.get(name) ?? 0) + n);
      if (this.check) this.log(`${escapeControls(where.file)}:${where.line}: ${name}`);
    }
  }

  /** The --report lines: totals, then counts by rule and by type (sorted). */
  summary(): void {
    const { findings } = this;
    this.log(`report: ${findings} redaction${findings === 1 ? '' : 's'} in ${this.changedEvents} of ${this.events} events`);
    for (const [name, n] of sorted(this.ruleCounts)) this.log(`report: rule ${name}: ${n}`);
    for (const [type, n] of sorted(this.typeCounts)) this.log(`report: type ${escapeControls(type)}: ${n}`);
  }
}

/** A map's entries in code-unit order of their keys. */
function sorted(counts: ReadonlyMap<string, number>): Array<[string, number]> {
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The slow paths of one run: a whole event walked and patched, a delta piece
 * handed to the delta streams, an invalid line redacted as text.
 */
class Redaction {
  readonly engine: Redactor;
  readonly paths: ReturnType<typeof preparePath>[];
  readonly check: boolean;
  readonly tally: Tally;
  readonly streams: DeltaStreams;

  constructor(readonly options: RedactOptions) {
    this.engine = new Redactor({ ...options, values: options.findings !== undefined });
    this.paths = (options.paths ?? []).map(preparePath);
    this.check = options.check === true;
    this.tally = new Tally(this.check, options.log ?? (() => {}), options.salt ?? SALT, options.findings);
    const engine = this.engine;
    // Windows over big pieces only without --report-path: it reports each finding of a whole scan.
    this.streams = new DeltaStreams(engine, (text) => holdPoint(engine, text), this.tally.record.bind(this.tally), !this.check, options.findings === undefined);
  }

  /**
   * Walks a line's text, again when it taught the engine a new user name.
   * Returns the patches, or undefined when the text is not a JSON object the
   * walk accepts.
   */
  walkLine(src: string, hits: string[], skipKey?: string, onSkipped?: (a: number, b: number) => void, scan = true, raw?: Uint8Array): Patch[] | undefined {
    const engine = this.engine;
    for (let attempt = 0; ; attempt++) {
      const generation = engine.generation;
      const patches: Patch[] = [];
      const found: string[] = [];
      const options: WalkOptions = { engine, hits: found, skipKey, onSkipped, scan, paths: this.options.findings !== undefined, raw };
      // A proven line's own walk, read from its bytes (./walk-proven.ts), when nothing asks more of it.
      const proven = raw !== undefined && raw.length === src.length && skipKey === undefined && scan && !options.paths;
      if (!(proven ? walkProven(src, options, patches) : walkJson(src, 0, src.length, 0, options, patches))) return undefined;
      if (engine.generation === generation || attempt === 2) {
        for (const hit of found) hits.push(hit);
        return patches;
      }
    }
  }

  /** Text to walk: censored by the JSONPaths first when any selects something. */
  private prepared(rec: EventRecord, hits: string[]): { src: string; censored: boolean } {
    if (this.paths.length > 0) {
      const copy = censorEvent(rec.event as Record<string, unknown>, this.paths, this.options.remove === true, hits);
      if (copy !== undefined) {
        const json = JSON.stringify(copy);
        return { src: goStyle(rec.raw) ? json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json, censored: true };
      }
    }
    return { src: sourceOf(rec), censored: false };
  }

  /**
   * Patches a whole event; the walk failing means a bad line (rec.event
   * throws) or an odd encoding. `proved`: the line is proven valid JSON.
   */
  redactWhole(rec: EventRecord, emit: Emit, proved = false): void {
    const hits: string[] = [];
    const { src, censored } = this.prepared(rec, hits);
    let patches = this.walkLine(src, hits, undefined, undefined, true, censored ? undefined : walkBytes(rec, proved));
    let text = src;
    if (patches === undefined) {
      void rec.event; // a bad line throws here, before anything is emitted
      text = JSON.stringify(rec.event);
      patches = this.walkLine(text, hits) ?? [];
    }
    this.tally.record(rec.type, hits, rec, patches);
    if (this.check) return;
    const streams = this.streams;
    if (patches.length === 0 && !censored) {
      streams.out(streams.idle ? rec : lineOut(text, rec), emit);
      return;
    }
    const go = goStyle(rec.raw);
    // The line's own bytes patched, when the text is theirs (not censored, not re-serialized).
    // (A short line: the patched string encoded, cheaper than the two passes of the byte patcher.)
    const bytes = rec.raw !== undefined && rec.raw.length > SHORT_LINE && text === src && !censored ? patchedBytes(rec.raw, text, [{ from: 0, to: text.length, patches }], go) : undefined;
    streams.out(bytes === undefined ? lineOut(applyPatches(text, patches, go), rec) : new LineRecord(bytes, rec.file, rec.line), emit);
  }

  /** Releases the delta streams that this event ends (a turn's or item's end). */
  flushFor(rec: EventRecord, emit: Emit): void {
    if (this.streams.idle) return;
    this.streams.endedBy(rec.type, field(rec, 'thread_id'), field(rec, 'turn_id'), (type) => streamKey(idsOf(rec, type)), emit);
  }

  /**
   * A delta piece: the walk skips `delta`, the stream logic decides when it
   * goes out. A clean line (no marker anywhere) is only checked, not scanned.
   */
  pushDelta(rec: EventRecord, emit: Emit, clean: boolean, proved = false): boolean {
    const hits: string[] = [];
    const src = sourceOf(rec);
    let literal: [number, number] | undefined;
    const patches = this.walkLine(src, hits, 'delta', (a, b) => (literal = [a, b]), !clean, walkBytes(rec, proved));
    if (patches === undefined || literal === undefined) return false;
    const [ds, de] = literal;
    const view = View.decode(src, ds + 1, de - 1);
    if (view === undefined) return false;
    const go = goStyle(rec.raw);
    const before = applyRange(src, 0, ds, patches, go);
    const after = applyRange(src, de, src.length, patches, go);
    const original = src.slice(ds, de);
    let immediate = this.streams.idle; // written during this call: the record itself may go out
    // The record's bytes may be a view of a chunk reused after this call: a
    // piece released later is patched in the bytes of its text, encoded again.
    let pushing = true;
    const where = { file: rec.file, line: rec.line };
    // Spans of the decoded delta to offsets in the line's text.
    const toSource = (spans: readonly Span[]): void => {
      for (const span of spans) {
        span.start = view.rawOf(span.start);
        span.end = view.rawOf(span.end);
      }
    };
    const finish = (out: string): EventRecord => (immediate && patches.length === 0 && out === original ? rec : lineOut(before + out + after, where));
    this.streams.push(
      streamKey(idsOf(rec)),
      {
        ids: idsOf(rec),
        text: view.text,
        literal: original,
        go,
        hits,
        found: patches,
        where,
        inPlace: (spans) => {
          toSource(spans);
          return applyRange(src, ds, de, spans, go);
        },
        finish,
        patched: (spans) => {
          toSource(spans);
          const ranges = [{ from: 0, to: ds, patches }, { from: ds, to: de, patches: spans }, { from: de, to: src.length, patches }];
          const raw = pushing ? rec.raw : undefined;
          const bytes = patchedBytes(raw ?? Buffer.from(src), src, ranges, go);
          return bytes === undefined ? finish(applyRange(src, ds, de, spans, go)) : new LineRecord(bytes, where.file, where.line);
        },
        patcher: () => {
          const literal = { start: ds, end: de, rawOf: (i: number) => view.rawOf(i), length: view.text.length };
          const line = literalPatcher((pushing ? rec.raw : undefined) ?? Buffer.from(src), src, literal, patches, go);
          return line && { add: (spans, to) => line.add(spans, to), finish: () => new LineRecord(line.done(), where.file, where.line) };
        },
      },
      emit,
    );
    immediate = false;
    pushing = false;
    return true;
  }

  /** Whether a delta event is selected by a JSONPath (then it is censored whole, not streamed). */
  censorsDelta(rec: EventRecord): boolean {
    if (this.paths.length === 0) return false;
    return censorEvent(rec.event as Record<string, unknown>, this.paths, this.options.remove === true, []) !== undefined;
  }

  /** A line that is not JSON: redacted as plain text. */
  invalid(raw: Buffer, emit: Emit, where: Place): void {
    const text = raw.toString('utf8');
    const hits: string[] = [];
    const spans = this.engine.spans(text, hits);
    const out = applySpans(text, spans);
    this.tally.record('(invalid line)', hits, where, spans);
    this.streams.out(`${out}\n`, emit);
  }

  /** A line beyond --max-line-bytes, streamed through the token redaction of ./oversize-line.ts. */
  async oversize(source: AsyncIterable<Buffer>, where: Place, emit: Emit): Promise<void> {
    // Order: whatever waits behind held delta pieces goes out first.
    this.streams.releaseAll(emit);
    const tally = this.tally;
    const line = redactOversize(this.engine, emit, where, tally.record.bind(tally), !this.check, (span) => tally.report(span, where));
    for await (const piece of source) await line.write(piece);
    const failure = await line.end();
    if (failure !== undefined) throw new Error(failure);
  }
}

/**
 * The line's bytes for the walk's raw test of each string (WalkOptions.raw):
 * only for a line proven valid JSON whose text (sourceOf) is its bytes
 * offset for offset, an ASCII one.
 */
function walkBytes(rec: EventRecord, proved: boolean): Uint8Array | undefined {
  const raw = rec.raw;
  return proved && raw !== undefined && isAscii(raw) ? raw : undefined;
}

/** The line's JSON text: its bytes, or the event serialized (records built in memory). */
function sourceOf(rec: EventRecord): string {
  return rec.raw !== undefined ? rec.raw.toString('utf8') : JSON.stringify(rec.event);
}

/** What a proven line's type asks of Core.passLines: nothing, a delta piece's check, or the per-line way. */
const PLAIN_TYPE = 0;
const DELTA_TYPE = 1;
const OTHER_TYPE = 2;

/** The types push reads before it writes a clean line (delta pieces, workspaces to learn): by length, their bytes and kind. */
const SPECIAL_TYPES: Array<Array<[Buffer, number]>> = [];
for (const [types, kind] of [
  [DELTA_TYPES, DELTA_TYPE],
  [LEARN_TYPES, OTHER_TYPE],
] as const) {
  for (const type of types) (SPECIAL_TYPES[type.length] ??= []).push([Buffer.from(type), kind]);
}

/**
 * The kind of the type of the line the track just proved, read from its
 * bytes: the one top-level `type` string, without escapes (else OTHER_TYPE).
 * A type of none of the special names is PLAIN_TYPE, whatever its bytes.
 */
function typeKind(source: Buffer, track: JsonTrack): number {
  if (track.typeKeys !== 1 || track.typeOpen < 0 || track.typeEscaped) return OTHER_TYPE;
  const from = track.typeOpen + 1;
  const list = SPECIAL_TYPES[track.typeClose - from];
  if (list === undefined) return PLAIN_TYPE;
  for (const [name, kind] of list) {
    let k = 0;
    while (k < name.length && source[from + k] === name[k]) k++;
    if (k === name.length) return kind;
  }
  return PLAIN_TYPE;
}

function lineOut(text: string, where: Place): EventRecord {
  return new LineRecord(Buffer.from(text), where.file, where.line);
}

/**
 * The proof of lines before push (Core.proves) and the runs of clean lines
 * taken without it (Core.passLines): the raw marker test and the line's
 * validity in one pass over its bytes, the verdict kept for the push that
 * follows; and the judgement of a clean line that push writes as it is.
 */
class CleanLines {
  // Core.proves: the raw marker test and the line's validity in one pass
  // over its bytes; its verdict on the marker test is kept for the push that follows.
  private readonly track = new JsonTrack();
  /** The line Core.proves just proved (push takes its verdict only for that very record). */
  proven: EventRecord | undefined;
  provenHit = false;
  // A proven clean line's only top-level `delta` string, its body `[provenBody, provenClose)` in the line's chunk (-1: none).
  private provenBody = -1;
  private provenClose = -1;
  // The line where passLines stopped, proven there (its verdict and the track's reading of it kept for Core.proves).
  private stopSource: Buffer | undefined;
  private stopStart = -1;
  private stopEnd = -1;
  private stopVerdict = PROVE_UNSURE;
  private stopLong = true;

  constructor(
    private readonly run: Redaction,
    /** No --path option: a line without a marker needs no walk. */
    readonly shortcut: boolean,
  ) {}

  /**
   * A line without any marker, while no delta piece is held: written as it
   * is, or false when it needs the slow path. `proved`: the line is the
   * LineRecord that Core.proves just read (its delta body, if any, in
   * provenBody/provenClose, offsets in its chunk): a clean piece is then judged
   * on the chunk's bytes, with no view of the line made.
   */
  passClean(rec: EventRecord, delta: boolean, emit: Emit, proved: boolean): boolean {
    const { engine } = this.run;
    if (delta) {
      // The delta string's body: from the proof's pass when it read one (no second read of the line).
      if (proved && this.provenBody >= 0) {
        const line = rec as LineRecord;
        if (!this.quietPiece(line.source, line.start, line.end, this.provenBody, this.provenClose)) return false;
      } else {
        const bytes = rec.raw!;
        const bounds = deltaBounds(bytes) ?? bodyOf(topLevelStringSpan(bytes, 'delta'));
        if (bounds !== undefined ? !this.quietPiece(bytes, 0, bytes.length, bounds[0], bounds[1]) : !this.holdsNothing(deltaTail(bytes, engine.longAnchors ? 120_000 : 12_000))) return false;
      }
    }
    if (!this.run.check) emit(rec);
    return true;
  }

  /** Whether the hold-back keeps nothing of a piece's decoded tail. */
  private holdsNothing(text: string | undefined): boolean {
    return text !== undefined && holdPoint(this.run.engine, text, this.run.engine.longAnchors) === text.length;
  }

  /**
   * Whether a clean delta piece holds nothing back: its body `source[body,
   * close)` in the line `source[start, end)`. Without a long anchor, most
   * pieces are judged on their raw tail bytes (quietTail), nothing decoded;
   * otherwise the hold-back reads at most the last 16.6K characters (the last
   * 1100 without a long anchor), from the line's own bytes.
   */
  private quietPiece(source: Buffer, start: number, end: number, body: number, close: number): boolean {
    const { engine } = this.run;
    if (!engine.longAnchors && quietTail(engine, source, body, close)) return true;
    const line = start === 0 && end === source.length ? source : source.subarray(start, end);
    return this.holdsNothing(deltaTail(line, engine.longAnchors ? 120_000 : 12_000, [body - start, close - start]));
  }

  /** Core.proves. */
  proves(rec: LineRecord): boolean {
    const { engine } = this.run;
    const track = this.track;
    this.proven = undefined;
    let verdict: number;
    if (rec.source === this.stopSource && rec.start === this.stopStart && rec.end === this.stopEnd) {
      // The line passLines stopped at, just proven there: its verdict is taken, not made again.
      verdict = this.stopVerdict;
      engine.longAnchors = this.stopLong;
    } else verdict = engine.proveRaw(rec.source, track, rec.start, rec.end);
    this.stopSource = undefined;
    this.provenBody = -1;
    if (verdict === PROVE_CLEAN) {
      this.provenHit = false;
      if (track.deltaKeys === 1 && track.deltaOpen >= 0) {
        this.provenBody = track.deltaOpen + 1;
        this.provenClose = track.deltaClose;
      }
    }
    // A line with a marker is validated alone (the pass stopped at the marker).
    else if (verdict === PROVE_HIT && isJsonEvent(rec.source, rec.start, rec.end)) this.provenHit = true;
    else return false;
    this.proven = rec;
    return true;
  }

  /**
   * The lines push would only write through (Core.passLines): proven clean
   * (no marker) while no delta piece is held, not of a type that teaches a
   * workspace, and a delta piece only when its raw tail holds nothing back
   * (quietTail, as passClean judges it). One proof per line, and nothing
   * else: no record, no sniffed type (the proof's track finds `type`).
   */
  passLines(source: Buffer, start: number, end: number, lines: LineRun): number {
    const { engine, streams, tally, check } = this.run;
    const track = this.track;
    this.stopSource = undefined;
    if (!this.shortcut || !streams.idle) return start;
    const max = lines.maxLineBytes;
    let at = start;
    let taken = 0;
    while (at < end) {
      let newline = source.indexOf(0x0a, at);
      if (newline < 0 || newline >= end) newline = end;
      if (newline - at > max) break;
      const verdict = engine.proveRaw(source, track, at, newline);
      const kind = verdict === PROVE_CLEAN ? typeKind(source, track) : OTHER_TYPE;
      if (kind === OTHER_TYPE || (kind === DELTA_TYPE && !(track.deltaKeys === 1 && track.deltaOpen >= 0 && this.quietPiece(source, at, newline, track.deltaOpen + 1, track.deltaClose)))) {
        this.stopSource = source;
        this.stopStart = at;
        this.stopEnd = newline;
        this.stopVerdict = verdict;
        this.stopLong = engine.longAnchors;
        break;
      }
      taken++;
      at = newline + 1;
    }
    if (taken > 0) {
      tally.events += taken;
      if (!check) lines.write(source, start, at - 1);
    }
    lines.lines = taken;
    return at;
  }
}

/**
 * The redactor's core. Throws a JsonPathError for an unusable path and a
 * RuleError for a bad rule (the CLI reports both as usage errors).
 */
export function createRedact(options: RedactOptions = {}): Core {
  const run = new Redaction(options);
  const { engine, streams, tally, check } = run;
  // Where the last line came from (for an invalid line without its own place): kept as two fields, no object per line.
  let lastFile = '-';
  let lastLine = 0;
  const shortcut = run.paths.length === 0;
  const lines = new CleanLines(run, shortcut);
  return {
    // Lines are read lazily: push decides whether a line needs parsing at all.
    needsParse: () => !shortcut,
    passesThrough: true,
    proves: (rec) => lines.proves(rec),
    passLines: (source, start, end, run) => lines.passLines(source, start, end, run),
    push(rec, emit) {
      tally.events++;
      lastFile = rec.file;
      lastLine = rec.line;
      const type = rec.type;
      const learns = LEARN_TYPES.has(type);
      const delta = DELTA_TYPES.has(type);
      // Proven a valid line by Core.proves (the runner's call just before), its marker test with it.
      const proved = lines.proven === rec;
      lines.proven = undefined;
      // Clean: no marker in the line's decoded text, so no string of it needs a scan.
      const clean = shortcut && !learns && (proved ? !lines.provenHit : rec.raw !== undefined && !engine.mayMatchRaw(rec.raw));
      if (clean && streams.idle && lines.passClean(rec, delta, emit, proved)) return;
      if (learns) {
        const event = rec.event as Record<string, unknown>; // parses; a bad line throws before anything is emitted
        for (const name of ['workspace_root', 'cwd']) {
          const value = event[name];
          if (typeof value === 'string') engine.learnWorkspace(value);
        }
      }
      run.flushFor(rec, emit);
      if (delta && !run.censorsDelta(rec) && run.pushDelta(rec, emit, clean, proved)) return;
      if (clean) {
        // Waits behind a held piece: a copy, the record's bytes may be a view of a reused chunk.
        streams.out(streams.idle ? rec : new LineRecord(Buffer.from(rec.raw!), rec.file, rec.line), emit);
        return;
      }
      run.redactWhole(rec, emit, proved);
    },
    invalid: (raw, emit, where) => run.invalid(raw, emit, where ?? { file: lastFile, line: lastLine }),
    oversize: (source, where, emit) => {
      tally.events++;
      return run.oversize(source, where, emit);
    },
    endFile(_file, emit) {
      streams.releaseAll(emit);
    },
    end(emit) {
      streams.releaseAll(emit);
      if (options.report) tally.summary();
    },
    status: () => (check && tally.findings > 0 ? 1 : 0),
  };
}

/** Object-mode stream version of {@link createRedact}. */
export function redact(options: RedactOptions = {}): Transform {
  return coreStream(createRedact(options));
}

/** The events as typed: for callers that build records in memory. */
export type { WuuEvent };
