/**
 * The contract between wuu-import's shell and one producer's mapping.
 *
 * A mapper turns one parsed line of a producer's stream (Claude Code
 * stream-json, Codex exec --json, Gemini CLI stream-json) into zero or more
 * wuu events, in order, as plain objects; the import core encodes them the way
 * the wuu producer does (sorted keys, Go's HTML escaping) and writes them at
 * once, so the import is live. State (thread id, turn counter, running usage
 * totals, open tool calls) lives inside the mapper and is bounded by the open
 * turn, never by the stream's length.
 */

/** A wuu event as a plain object; `type` is the wuu event type. */
export interface ImportedEvent {
  type: string;
  [key: string]: unknown;
}

/** One producer's mapping, created fresh for each input stream. */
export interface Mapper {
  /** The producer's name as `--from` spells it. */
  readonly producer: 'claude' | 'codex' | 'gemini';
  /**
   * One parsed producer line (a JSON object). Returns the wuu events it
   * stands for, in order; an empty array for a line that carries nothing wuu
   * has a field for.
   */
  line(obj: Record<string, unknown>): ImportedEvent[];
  /**
   * End of input. Returns events owed at the end (for example a `result`
   * Codex only implies by its last `turn.completed`). A stream cut before the
   * producer's final event gets no `result`, like a killed wuu run.
   */
  end(): ImportedEvent[];
}
