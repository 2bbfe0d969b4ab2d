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
  /** Patches the delta literal in place for spans of `text` (byte-exact; it may move the spans, which are its own); undefined: re-encode. */
  inPlace?: (spans: readonly Span[]) => string;
  /** The output for the piece with this delta literal (the original record when nothing changed). */
  finish: (literal: string) => Output;
  /**
   * The output for the piece with spans of `text` patched into its delta in
   * place (it may move the spans): what `finish(inPlace(spans))` gives, made
   * without the literal's text (./line-bytes.ts).
   */
  patched?: (spans: readonly Span[]) => Output;
  /** Builds the output window by window (see {@link LONG_PIECE}); undefined: not for this piece. */
  patcher?: () => PiecePatcher | undefined;
  go: boolean;
  /** Rule names found in the other fields. */
  hits: string[];
  /** The findings in the other fields (for --report-path). */
  found?: readonly Span[];
  where: Where;
}

/** A piece's output patched window by window (./line-bytes.ts). */
export interface PiecePatcher {
  /** The next window's spans (offsets in the piece's text, which it may move), the window ending at `to`; false: it cannot. */
  add(spans: readonly Span[], to: number): boolean;
  /** The output, once every window is in. */
  finish(): Output;
}

/**
 * A piece this long, released alone, is scanned in windows of {@link WINDOW}
 * characters, each ending before any text that could begin a match (as
 * between pieces): its findings are patched in and dropped window by
 * window, where a whole scan held every finding of a 4 MiB piece at once
 * (200k spans, some 15 MB). Not with --report-path: its findings are
 * reported from the whole scan.
 */
const LONG_PIECE = 512 * 1024;
/**
 * Small: a window's findings then die young, where those of a 512K window
 * lived through several collections of the young generation, were moved
 * to the old one and piled up there as garbage. 16K rather than 64K: fewer
 * of them are alive at each collection, so the young generation is not
 * grown (a 4 MiB piece with 220k findings: 123-125 -> 103-105 MiB peak
 * RSS, CPU the same).
 */
const WINDOW = 16 * 1024;

/** One held piece of a chain. */
interface Item {
  piece: Piece;
  /** Its share of the chain's original text (the piece's delta unless a boundary moved). */
  text: string;
  entry: Entry;
}

/** The held pieces of one stream: consecutive pieces whose joined text still ends with a possible secret start. */
interface Held {
  key: string;
  /** Original text just before the first item (context for lookbehinds). */
  left: string;
  items: Item[];
  chars: number;
}

interface Entry {
  out?: Output;
  ready: boolean;
}

/** Counts findings: the core's report and check. */
export type Recorder = (type: string, hits: readonly string[] | ReadonlyMap<string, number>, where: Where, found?: readonly Span[] | (() => readonly Span[])) => void;

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
    /** Whether big pieces may be scanned in windows (see {@link LONG_PIECE}). */
    private readonly windows = false,
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
    let chain = this.held.get(key);
    if (chain === undefined) {
      chain = { key, left: '', items: [], chars: 0 };
      this.held.set(key, chain);
    }
    const entry: Entry = { ready: false };
    this.queue.push(entry);
    chain.items.push({ piece, text: piece.text, entry });
    chain.chars += piece.text.length;
    this.heldChars += piece.text.length;
    this.settle(chain, false);
    if (this.heldChars > MAX_HELD_CHARS) this.releaseOldest(emit);
    if (this.queue.length - this.head > MAX_WAITING) this.releaseOldest(emit);
    this.drain(emit);
  }

  /**
   * Releases the chain's pieces that end before anything that could still
   * begin a match (all of them when `final`). Boundaries between pieces move
   * only for a finding that crosses them (it goes wholly to the later piece),
   * never for a mere possibility: so redacting the output again moves nothing.
   */
  private settle(chain: Held, final: boolean): void {
    const whole = chain.left + chain.items.map((i) => i.text).join('');
    const from = chain.left.length;
    let limit = whole.length;
    if (!final) {
      const hold = this.holdPoint(whole);
      if (hold < whole.length) limit = Math.max(from, hold);
    }
    // Pieces that end at or before the limit go out.
    const ends: number[] = [];
    let end = from;
    for (const item of chain.items) {
      end += item.text.length;
      ends.push(end);
    }
    let count = 0;
    while (count < ends.length && ends[count]! <= limit) count++;
    if (count === 0) return;
    if (count === chain.items.length && count === 1 && this.windowed(chain.items[0]!, whole, from)) {
      this.heldChars -= chain.chars;
      this.held.delete(chain.key);
      return;
    }
    const hits: string[] = [];
    const spans = this.engine.spans(whole, hits, from);
    const bounds = ends.slice(0, count);
    for (const span of spans) {
      for (let j = 0; j < bounds.length; j++) if (span.start < bounds[j]! && span.end > bounds[j]!) bounds[j] = span.start;
    }
    for (let j = 1; j < bounds.length; j++) if (bounds[j]! < bounds[j - 1]!) bounds[j] = bounds[j - 1]!;
    let start = from;
    let spanAt = 0;
    for (let j = 0; j < count; j++) {
      const item = chain.items[j]!;
      const stop = bounds[j]!;
      const own: Span[] = [];
      const names: string[] = [];
      while (spanAt < spans.length && spans[spanAt]!.end <= stop) {
        const span = spans[spanAt++]!;
        if (span.start >= start) {
          own.push(span);
          names.push(span.rule);
        }
      }
      this.resolve(item, whole, start, stop, own, names);
      start = stop;
    }
    const released = chain.items.splice(0, count);
    for (const item of released) {
      chain.chars -= item.text.length;
      this.heldChars -= item.text.length;
    }
    if (chain.items.length > 0) {
      // Text that a crossing finding moved back joins the first held piece.
      const first = chain.items[0]!;
      const moved = whole.slice(start, ends[count - 1]!);
      first.text = moved + first.text;
      chain.chars += moved.length;
      this.heldChars += moved.length;
      chain.left = whole.slice(Math.max(0, start - CONTEXT), start);
    } else {
      this.held.delete(chain.key);
    }
  }

  /**
   * Resolves a long piece released alone (`whole` is its context and text)
   * window by window; false when it is not one, or when a window taught the
   * engine a user name (its earlier occurrences are then found by one scan).
   */
  private windowed(item: Item, whole: string, from: number): boolean {
    const { piece } = item;
    if (!this.windows || whole.length - from < LONG_PIECE || item.text !== piece.text) return false;
    const patcher = piece.patcher?.();
    if (patcher === undefined) return false;
    const engine = this.engine;
    const generation = engine.generation;
    const counts = new Map<string, number>();
    const count = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
    for (const name of piece.hits) count(name);
    for (let at = from; at < whole.length; ) {
      const start = Math.max(0, at - CONTEXT);
      let end = Math.min(whole.length, at + WINDOW);
      if (end < whole.length) {
        const hold = start + this.holdPoint(whole.slice(start, end));
        end = hold > at ? hold : whole.length; // all of it could begin a match: the rest at once
        // Not between the halves of a surrogate pair: each window is patched in the line's bytes.
        const code = whole.charCodeAt(end - 1);
        if (end < whole.length && code >= 0xd800 && code <= 0xdbff) end = end - 1 > at ? end - 1 : whole.length;
      }
      const spans = engine.spans(whole.slice(start, end), [], at - start);
      if (engine.generation !== generation) return false;
      for (const span of spans) {
        span.start += start - from;
        span.end += start - from;
        count(span.rule);
      }
      if (!patcher.add(spans, end - from)) return false;
      at = end;
    }
    this.record(piece.ids.type, counts, piece.where);
    item.entry.out = patcher.finish();
    item.entry.ready = true;
    return true;
  }

  /** Releases the held pieces that an event of `type` ends. */
  endedBy(type: string, thread: string, turn: string, keyOf: (streamType: string) => string, emit: (o: Output) => void): void {
    if (this.held.size === 0 || !FLUSH_TYPES.has(type)) return;
    let ended: Held[];
    if (type === 'result') ended = [...this.held.values()];
    else if (TURN_END_TYPES.has(type)) ended = [...this.held.values()].filter((h) => h.items[0]?.piece.ids.thread === thread && h.items[0]?.piece.ids.turn === turn);
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

  /** A chain without continuation: everything goes out. */
  private release(chain: Held): void {
    this.settle(chain, true);
    this.held.delete(chain.key);
  }

  private releaseOldest(emit: (o: Output) => void): void {
    const oldest = this.held.values().next().value as Held | undefined;
    if (oldest) this.release(oldest);
    this.drain(emit);
  }

  /** Makes a piece's entry ready: `text[from, to)` with `spans` applied is its delta. */
  private resolve(item: Item, text: string, from: number, to: number, spans: readonly Span[], hits: readonly string[]): void {
    const { piece } = item;
    this.record(piece.ids.type, piece.hits.concat(hits), piece.where, () => [...(piece.found ?? []), ...spans.map((s) => ({ ...s, path: '$.delta' }))]);
    let literal: string;
    if (text.slice(from, to) === piece.text) {
      // The spans are this settle's own (recorded above): shifted in place, so a
      // piece with 200k findings does not copy them.
      for (const span of spans) {
        span.start -= from;
        span.end -= from;
      }
      if (spans.length > 0 && piece.patched !== undefined) {
        item.entry.out = piece.patched(spans);
        item.entry.ready = true;
        return;
      }
      literal = spans.length === 0 ? piece.literal : piece.inPlace ? piece.inPlace(spans) : encodeDelta(applySpans(piece.text, spans), piece.go);
    } else {
      literal = encodeDelta(applySpans(text.slice(0, to), spans, from), piece.go);
    }
    item.entry.out = piece.finish(literal);
    item.entry.ready = true;
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
