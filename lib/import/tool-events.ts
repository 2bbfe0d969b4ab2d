/**
 * The events of a tool call as every mapping writes them, so the three
 * producers' calls look alike downstream: `tool_started`, then its output as
 * one `tool_output_delta` (none when there is no text), `tool_completed`, and
 * the `file_changed` a successful file tool means. (Todo lists stay with each
 * mapping: Codex writes Go structs, the others plain maps of the same bytes.)
 */
import type { ImportedEvent } from './mapper.js';

/** The ids of a tool call's events. */
export interface ItemIds {
  thread_id: string;
  turn_id: string;
  item_id: string;
}

/** `tool_started`: wuu's tool name and its arguments as JSON text. */
export function toolStarted(at: ItemIds, name: string, args: string): ImportedEvent {
  return { type: 'tool_started', ...at, name, arguments: args };
}

/** The end of a call: its output text as one delta (left out when empty), then `tool_completed`. */
export function toolEnded(at: ItemIds, name: string, output: string, status: string, error: string): ImportedEvent[] {
  const events: ImportedEvent[] = [];
  if (output !== '') events.push({ type: 'tool_output_delta', ...at, delta: output });
  events.push({ type: 'tool_completed', ...at, name, status, error });
  return events;
}

/** `file_changed` for a file a call wrote; no `action` when the producer does not say which. */
export function fileChanged(at: ItemIds, toolName: string, path: string, action: string | undefined): ImportedEvent {
  const event: ImportedEvent = { type: 'file_changed', ...at, tool_name: toolName, path };
  if (action !== undefined) event.action = action;
  return event;
}
