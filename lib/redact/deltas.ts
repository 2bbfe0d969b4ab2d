/**
 * Delta streams: a secret can arrive cut across two `agent_message_delta`,
 * `tool_output_delta` or `command_output_delta` pieces of the same stream
 * (same type, thread, turn and item). When a piece ends with text that could
 * begin a match (./hold-back.ts), that tail is held back: the event is still
 * emitted at once, with the safe prefix as its `delta`, and the tail is
 * prepended to the next piece of the same stream. When the stream ends the
 * held text is emitted, redacted, as one extra delta piece of the same type
 * and ids, right before the event that ended the stream.
 */
import { TURN_END_TYPES } from '../events.js';
import type { Redactor } from './engine.js';
import { goEscape } from './walk.js';

/** Event types whose `delta` pieces form a stream. */
export const DELTA_TYPES: ReadonlySet<string> = new Set(['agent_message_delta', 'tool_output_delta', 'command_output_delta']);

/** Events that end delta streams (their held tails are flushed before them). */
export const FLUSH_TYPES: ReadonlySet<string> = new Set([
  'agent_message_final',
  'tool_completed',
  'tool_removed',
  'command_completed',
  'command_removed',
  'result',
  ...TURN_END_TYPES,
]);

const MAX_CARRIES = 1024;

/** The ids of a delta event that name its stream. */
export interface StreamIds {
  type: string;
  thread: string;
  turn: string;
  item: string;
}

/** A held tail. */
export interface Carry {
  key: string;
  /** The original text just before the held tail: context for lookbehinds. */
  left: string;
  ids: StreamIds;
  text: string;
  /** The emitted line's JSON text before and after its `delta` string literal. */
  before: string;
  after: string;
  go: boolean;
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

/** The held tails of every open delta stream. */
export class DeltaStreams {
  private readonly carries = new Map<string, Carry>();

  constructor(private readonly engine: Redactor) {}

  get size(): number {
    return this.carries.size;
  }

  get(key: string): Carry | undefined {
    return this.carries.get(key);
  }

  delete(key: string): void {
    this.carries.delete(key);
  }

  /** Holds a tail; when too many streams are open, the oldest is flushed first (returned). */
  hold(carry: Carry): Carry | undefined {
    let evicted: Carry | undefined;
    if (!this.carries.has(carry.key) && this.carries.size >= MAX_CARRIES) {
      evicted = this.carries.values().next().value as Carry;
      this.carries.delete(evicted.key);
    }
    this.carries.set(carry.key, carry);
    return evicted;
  }

  /** The held tail redacted as one extra piece: its line text; rule names go to `hits`. */
  release(carry: Carry, hits: string[]): string {
    this.carries.delete(carry.key);
    const text = this.engine.text(carry.left + carry.text, hits, carry.left.length);
    return carry.before + encodeDelta(text, carry.go) + carry.after;
  }

  /** The carries an event of `type` ends (thread and turn from the event; `key` for item ends). */
  endedBy(type: string, thread: string, turn: string, key: (streamType: string) => string): Carry[] {
    if (this.carries.size === 0 || !FLUSH_TYPES.has(type)) return [];
    const all = [...this.carries.values()];
    if (type === 'result') return all;
    if (TURN_END_TYPES.has(type)) return all.filter((c) => c.ids.thread === thread && c.ids.turn === turn);
    const streamType = type === 'agent_message_final' ? 'agent_message_delta' : type.startsWith('tool_') ? 'tool_output_delta' : 'command_output_delta';
    const carry = this.carries.get(key(streamType));
    return carry ? [carry] : [];
  }

  /** Every held tail (end of a file or of input). */
  all(): Carry[] {
    return [...this.carries.values()];
  }
}
