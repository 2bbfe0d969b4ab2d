/**
 * Delta streams: a secret can arrive cut across two or more
 * `agent_message_delta`, `tool_output_delta` or `command_output_delta` pieces
 * of one stream (same type, thread, turn and item).
 *
 * When a piece ENDS with text that could begin a match (./hold-back.ts:
 * `sk-pro`, `/home/al`, `password=`...), the piece is held (not yet written)
 * until the next piece of its stream arrives. Then both are redacted as one
 * text, and the boundary between them moves back to the start of any finding
 * that crosses it: the whole placeholder goes into the later piece. A held
 * piece is also released, redacted alone, when its stream ends (the item's or
 * message's end, the turn's end, `result`, the end of the input) or when too
 * much is held. Events that come after a held one wait behind it, so output
 * order is input order; the number and types of events never change, and
 * redacting an output again changes nothing (idempotence).
 */
import { TURN_END_TYPES } from '../events.js';
import type { Output } from '../jsonl.js';
import { applySpans, type Redactor, type Span } from './engine.js';
import { goEscape } from './walk.js';

/** Event types whose `delta` pieces form a stream. */
export const DELTA_TYPES: ReadonlySet<string> = new Set(['agent_message_delta', 'tool_output_delta', 'command_output_delta']);

/** Events that end delta streams (their held pieces are released before them). */
export const FLUSH_TYPES: ReadonlySet<string> = new Set([
  'agent_message_final',
  'tool_completed',
  'tool_removed',
  'command_completed',
  'command_removed',
  'result',
  ...TURN_END_TYPES,
]);

/** At most this many events wait behind held pieces; then the oldest held piece is released. */
const MAX_WAITING = 4096;
/** At most this many characters are held; then the oldest held piece is released. */
const MAX_HELD_CHARS = 16 * 1024 * 1024;
/** Original text kept before a piece as context for the rules' lookbehinds. */
const CONTEXT = 96;

/** The ids of a delta event that name its stream. */
export interface StreamIds {
  type: string;
  thread: string;
  turn: string;
  item: string;
}

/** The stream key of a delta event. */
export function streamKey(ids: StreamIds): string {
  const base = `${ids.type}\u0000${ids.thread}\u0000${ids.turn}`;
  return ids.type === 'agent_message_delta' ? base : `${base}\u0000${ids.item}`;
}

/** A delta string encoded as the producer would: JSON, Go's HTML escapes when the line had them. */
export function encodeDelta(text: string, go: boolean): string {
  const json = JSON.stringify(text);
  return go ? goEscape(json) : json;
}

/** Where a line came from, for messages. */
export interface Where {
  file: string;
  line: number;
}

/** One delta piece as the stream logic sees it. */
export interface Piece {
  ids: StreamIds;
  /** The decoded delta. */
  text: string;
  /** The delta literal as it came (quotes included). */
  literal: string;
  /** Patches the delta literal in place for spans of `text` (byte-exact); undefined: re-encode. */
  inPlace?: (spans: readonly Span[]) => string;
  /** The output for the piece with this delta literal (the original record when nothing changed). */
  finish: (literal: string) => Output;
  go: boolean;
  /** Rule names found in the other fields. */
  hits: string[];
  where: Where;
}

interface Held {
  key: string;
  piece: Piece;
  /** Original text just before the piece (context for lookbehinds). */
  left: string;
  /** The piece's text (original, possibly with a moved boundary). */
  text: string;
  /** Whether `text` is still the piece's own delta (the literal may be patched in place). */
  own: boolean;
  entry: Entry;
}

interface Entry {
  out?: Output;
  ready: boolean;
}

/** Counts findings: the core's report and check. */
export type Recorder = (type: string, hits: readonly string[] | ReadonlyMap<string, number>, where: Where) => void;

/** Every open delta stream's held piece, and the events waiting behind them. */
export class DeltaStreams {
  private readonly held = new Map<string, Held>();
  private queue: Entry[] = [];
  private head = 0;
  private heldChars = 0;

  constructor(
    private readonly engine: Redactor,
    private readonly holdPoint: (text: string) => number,
    private readonly record: Recorder,
    private readonly write: boolean,
  ) {}

  /** Whether nothing is held or waiting (an event may then be written at once). */
  get idle(): boolean {
    return this.held.size === 0 && this.head === this.queue.length;
  }

  /** Writes an output now, or behind the held pieces. */
  out(out: Output | undefined, emit: (o: Output) => void): void {
    if (this.idle) {
      if (out !== undefined && this.write) emit(out);
      return;
    }
    this.queue.push({ out, ready: true });
    if (this.queue.length - this.head > MAX_WAITING) this.releaseOldest(emit);
    this.drain(emit);
  }

  /** A delta piece of stream `key`. */
  push(key: string, piece: Piece, emit: (o: Output) => void): void {
    const previous = this.held.get(key);
    let left = '';
    let text = piece.text;
    let own = true;
    if (previous !== undefined) {
      this.held.delete(key);
      this.heldChars -= previous.text.length;
      // Both pieces as one text; a finding across the boundary goes wholly to the later piece.
      const whole = previous.left + previous.text + piece.text;
      const from = previous.left.length;
      let boundary = from + previous.text.length;
      const hits: string[] = [];
      const spans = this.engine.spans(whole, hits, from);
      for (const span of spans) if (span.start < boundary && span.end > boundary) boundary = span.start;
      const first = spans.filter((s) => s.end <= boundary);
      this.resolve(previous, whole, from, boundary, first, hits.slice(0, first.length));
      left = whole.slice(Math.max(0, boundary - CONTEXT), boundary);
      text = whole.slice(boundary);
      own = text === piece.text;
    }
    const context = left + text;
    const cut = this.holdPoint(context);
    const entry: Entry = { ready: false };
    if (cut < context.length && text !== '') {
      const held: Held = { key, piece, left, text, own, entry };
      this.held.set(key, held);
      this.heldChars += text.length;
      this.queue.push(entry);
      if (this.heldChars > MAX_HELD_CHARS) this.releaseOldest(emit);
      this.drain(emit);
      return;
    }
    const hits: string[] = [];
    const spans = this.engine.spans(context, hits, left.length);
    this.queue.push(entry);
    this.resolve({ key, piece, left, text, own, entry }, context, left.length, context.length, spans, hits);
    this.drain(emit);
  }

  /** Releases the held pieces that an event of `type` ends. */
  endedBy(type: string, thread: string, turn: string, keyOf: (streamType: string) => string, emit: (o: Output) => void): void {
    if (this.held.size === 0 || !FLUSH_TYPES.has(type)) return;
    let ended: Held[];
    if (type === 'result') ended = [...this.held.values()];
    else if (TURN_END_TYPES.has(type)) ended = [...this.held.values()].filter((h) => h.piece.ids.thread === thread && h.piece.ids.turn === turn);
    else {
      const streamType = type === 'agent_message_final' ? 'agent_message_delta' : type.startsWith('tool_') ? 'tool_output_delta' : 'command_output_delta';
      const one = this.held.get(keyOf(streamType));
      ended = one ? [one] : [];
    }
    for (const held of ended) this.release(held);
    this.drain(emit);
  }

  /** Releases everything (end of a file or of the input). */
  releaseAll(emit: (o: Output) => void): void {
    for (const held of [...this.held.values()]) this.release(held);
    this.drain(emit);
  }

  /** A held piece without continuation: redacted alone. */
  private release(held: Held): void {
    this.held.delete(held.key);
    this.heldChars -= held.text.length;
    const context = held.left + held.text;
    const hits: string[] = [];
    const spans = this.engine.spans(context, hits, held.left.length);
    this.resolve(held, context, held.left.length, context.length, spans, hits);
  }

  private releaseOldest(emit: (o: Output) => void): void {
    const oldest = this.held.values().next().value as Held | undefined;
    if (oldest) this.release(oldest);
    this.drain(emit);
  }

  /** Makes a piece's entry ready: `text[from, to)` with `spans` applied is its delta. */
  private resolve(held: Held, text: string, from: number, to: number, spans: readonly Span[], hits: readonly string[]): void {
    const { piece } = held;
    const all = piece.hits.concat(hits);
    this.record(piece.ids.type, all, piece.where);
    let literal: string;
    if (held.own && to - from === piece.text.length) {
      const shifted = spans.map((s) => ({ ...s, start: s.start - from, end: s.end - from }));
      literal = shifted.length === 0 ? piece.literal : piece.inPlace ? piece.inPlace(shifted) : encodeDelta(applySpans(piece.text, shifted), piece.go);
    } else {
      literal = encodeDelta(applySpans(text.slice(0, to), spans, from), piece.go);
    }
    held.entry.out = piece.finish(literal);
    held.entry.ready = true;
  }

  private drain(emit: (o: Output) => void): void {
    while (this.head < this.queue.length && this.queue[this.head]!.ready) {
      const entry = this.queue[this.head++]!;
      if (entry.out !== undefined && this.write) emit(entry.out);
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}
