/**
 * Which producer wrote a stream, from its first lines (shared/PRODUCERS.md
 * section 6). Each rule looks for keys only one producer writes:
 * `protocol_version`/wuu's snake_case types and `run_id`, Codex's dotted
 * types, Claude Code's `session_id` + `uuid`, Gemini CLI's ISO `timestamp`
 * without `uuid`, and the camelCase keys or `payload` of session files.
 */
import { KNOWN_TYPES } from '../events.js';
import type { Mapper } from './mapper.js';

/** A producer wuu-import can map, as `--from` spells it. */
export type Producer = Mapper['producer'];

/** Every `--from` value. */
export const FROM_VALUES = ['auto', 'claude', 'codex', 'gemini'] as const;
export type From = (typeof FROM_VALUES)[number];

/** Whether `value` is a `--from` value. */
export function isFrom(value: string): value is From {
  return FROM_VALUES.some((from) => from === value);
}

/** What one line says about its stream. */
export type Detection =
  /** A `wuu exec --json` stream: passed through byte for byte. */
  | { kind: 'wuu' }
  | { kind: 'producer'; producer: Producer }
  /** A format recognised but not converted (session files, legacy streams): why, and what to use instead. */
  | { kind: 'unsupported'; what: string; hint: string }
  /** Nothing decisive in this line: read another. */
  | { kind: 'unknown' };

/** The producers and the commands whose output wuu-import reads, for messages. */
export const KNOWN_PRODUCERS = [
  "wuu ('wuu exec --json', passed through unchanged)",
  "codex ('codex exec --json')",
  "claude ('claude -p --output-format stream-json --verbose')",
  "gemini ('gemini --output-format stream-json')",
] as const;

/** How many lines auto-detection reads before it gives up. */
export const SNIFF_LINES = 5;

/** wuu event types no other producer uses (result and error are shared names). */
const WUU_TYPES: ReadonlySet<string> = new Set(KNOWN_TYPES.filter((t) => t !== 'result' && t !== 'error'));

/** Claude Code's SDKMessage types (sdk.d.ts `SDKMessage` union), the ones that can open a stream. */
const CLAUDE_TYPES: ReadonlySet<string> = new Set(['system', 'assistant', 'user', 'result', 'stream_event', 'tool_progress', 'rate_limit_event', 'auth_status', 'tool_use_summary']);

/** Gemini CLI stream-json event types (packages/core/src/output/types.ts `JsonStreamEventType`). */
const GEMINI_TYPES: ReadonlySet<string> = new Set(['init', 'message', 'tool_use', 'tool_result', 'error', 'result']);

/** Claude Code transcript line types that are not stream-json messages. */
const CLAUDE_TRANSCRIPT_TYPES: ReadonlySet<string> = new Set(['queue-operation', 'summary', 'file-history-snapshot', 'attachment', 'last-prompt', 'cost-state']);

/** Codex rollout-file line types (`RolloutItem`). */
const CODEX_ROLLOUT_TYPES: ReadonlySet<string> = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted', 'world_state', 'token_usage_record']);

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sessionFile(line: Record<string, unknown>): Detection | undefined {
  const type = line.type;
  if (isObject(line.payload) && isString(type) && CODEX_ROLLOUT_TYPES.has(type)) {
    return { kind: 'unsupported', what: 'a Codex rollout (session) file', hint: "pipe 'codex exec --json' instead" };
  }
  if (isString(line.sessionId) && isString(line.projectHash)) {
    return { kind: 'unsupported', what: 'a Gemini CLI session file', hint: "pipe 'gemini --output-format stream-json' instead" };
  }
  if (isString(line.sessionId) && ('parentUuid' in line || (isString(type) && CLAUDE_TRANSCRIPT_TYPES.has(type)))) {
    return { kind: 'unsupported', what: 'a Claude Code transcript (session file)', hint: "pipe 'claude -p --output-format stream-json --verbose' instead" };
  }
  if ('id' in line && isObject(line.msg) && isString(line.msg.type) && !('type' in line)) {
    return { kind: 'unsupported', what: "a Codex stream in the legacy {id, msg} format (Codex before 0.44)", hint: 'upgrade Codex' };
  }
  return undefined;
}

/** What one parsed line says about the producer of its stream. */
export function detectLine(line: Record<string, unknown>): Detection {
  const type = line.type;
  if (isString(line.protocol_version) && line.protocol_version.startsWith('wuu-app-server/')) return { kind: 'wuu' };
  const file = sessionFile(line);
  if (file !== undefined) return file;
  if (!isString(type)) return { kind: 'unknown' };
  if (WUU_TYPES.has(type)) return { kind: 'wuu' };
  if ((type === 'result' || type === 'error') && isString(line.run_id)) return { kind: 'wuu' };
  // exec_events.rs `ThreadEvent`: dotted names; a bare {"type":"error","message"} alone is not decisive.
  if (type === 'thread.started' || /^(turn|item)\./.test(type)) return { kind: 'producer', producer: 'codex' };
  if (CLAUDE_TYPES.has(type) && isString(line.session_id) && (isString(line.uuid) || isString(line.claude_code_version))) {
    return { kind: 'producer', producer: 'claude' };
  }
  if (GEMINI_TYPES.has(type) && isString(line.timestamp) && ISO_TIME.test(line.timestamp) && !('uuid' in line)) {
    return { kind: 'producer', producer: 'gemini' };
  }
  return { kind: 'unknown' };
}

/** The message for a stream no rule recognised. */
export function unrecognisedMessage(file: string, lines: number): string {
  const read = lines === 1 ? 'its first line' : `its first ${lines} lines`;
  return `${file}: cannot tell which producer wrote this stream from ${read}; known producers: ${KNOWN_PRODUCERS.join(', ')}; name it with --from claude, codex or gemini`;
}
