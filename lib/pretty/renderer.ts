/**
 * What the pretty-printer's state hands to a renderer: views of turns, tool
 * calls, subagents and the result, with raw (unescaped) data. Each renderer
 * (terminal, Markdown, HTML) makes the data safe for its medium itself.
 */
import type { Tokens } from '../events.js';
import type { Folded, OutputFold } from './fold.js';

/** A turn of the main agent, or of a sub-agent's thread (`child`). */
export interface TurnView {
  /** turnKey(thread, turn). */
  key: string;
  id: string;
  threadId: string;
  /** 1-based number among the run's root turns (0 for a child thread's turn). */
  n: number;
  /** A sub-agent thread's turn: shown under that sub-agent, never as a main turn. */
  child: boolean;
  /** Who a child turn belongs to (task name or agent id). */
  agent: string;
  /** Arrival time of its first event (ms, from the clock). */
  startedAt: number;
}

/** One tool call. */
export interface ItemView {
  key: string;
  id: string;
  threadId: string;
  turnId: string;
  name: string;
  argumentsText: unknown;
  /** A call made by a sub-agent's thread. */
  child: boolean;
  agent: string;
  startedAt: number;
  fold: OutputFold;
}

/** How a turn ended. */
export type TurnHow = 'completed' | 'failed' | 'interrupted' | 'cut' | 'silent';

export interface TurnEnd {
  how: TurnHow;
  /** The error or the interruption reason (raw, maybe multi-line). */
  detail: string;
  usage: Tokens | undefined;
  autoContinues: boolean;
  /** Elapsed time by arrival (live mode only). */
  elapsedMs: number | undefined;
}

export interface ToolEnd {
  /** The tool's status, or `removed` (withdrawn) or `open` (never completed). */
  status: string;
  /** False for a failed status, and for a bash call whose output ends in a non-zero `Exit code N`. */
  ok: boolean;
  /** A bash call's exit code from its output's trailer (lib/exit-code.ts); null when unknown or not bash. */
  exitCode: number | null;
  error: string;
  view: Folded;
  /** Why an open call is shown as such. */
  reason: string;
  elapsedMs: number | undefined;
}

export interface SessionView {
  model: string;
  facts: string[];
  workspace: string;
  permissions: Array<[string, string]>;
  /** Shown with --verbose. */
  more: string[];
}

export interface SubagentView {
  id: string;
  name: string;
  /** agent_type when it differs from the name. */
  kind: string;
  status: string;
  terminal: boolean;
  /** For a non-terminal event: `started` or the new status. */
  verb: string;
  /** Shown with the first report only. */
  description: string;
  ok: boolean;
  error: string;
  usage: Tokens | undefined;
  result: string;
  resultPath: string;
}

export interface TodoItem {
  text: string;
  status: string;
}

export interface TodoView {
  /** undefined when the todo was not a list (shown raw). */
  items: TodoItem[] | undefined;
  raw: string;
  done: number;
  explanation: string;
}

export interface FileChangeView {
  action: string;
  path: string;
  move: string;
  child: boolean;
  agent: string;
}

export interface RunTotals {
  turns: number;
  usage: Tokens;
  /** Sum of the last report of each sub-agent (never added to `usage`). */
  subagentUsage: Tokens;
  subagents: number;
}

export interface ResultView extends RunTotals {
  status: string;
  ok: boolean;
  error: string;
  runId: string;
  trace: string;
  /** The final message when it differs from what was shown, else ''. */
  finalMessage: string;
  /** structured_result when the key is present (its value may be null). */
  structured: { value: unknown } | undefined;
}

/** The output side of the state: one method per thing to show. */
export interface Renderer {
  /** The input file the next events come from (every input, headings or not). */
  input?(name: string): void;
  fileHeading(name: string): void;
  session(s: SessionView): void;
  thread(verb: string, id: string, cwd: string): void;
  turnStart(turn: TurnView): void;
  /** Streamed message text of a root turn. */
  messageText(turn: TurnView, text: string): void;
  /** The final message extends the streamed text: show only the rest. */
  messageRest(turn: TurnView, rest: string): void;
  /** The final message replaces the text shown. */
  messageReplaced(turn: TurnView, message: string): void;
  toolStart(item: ItemView): void;
  /** A piece of a tool's output as it arrives (already written to item.fold). */
  toolOutput(item: ItemView): void;
  toolEnd(item: ItemView, end: ToolEnd): void;
  fileChanged(f: FileChangeView): void;
  subagent(a: SubagentView): void;
  todo(t: TodoView, child: boolean, agent: string): void;
  turnEnd(turn: TurnView, end: TurnEnd): void;
  error(message: string, retrying: boolean): void;
  result(r: ResultView): void;
  /**
   * A run without its result at the end of the input: cut (the producer was
   * killed), or `stopped` (this viewer was stopped by a signal; the run may go on).
   */
  cut(totals: RunTotals, stopped?: boolean): void;
  other(text: string): void;
  invalid(preview: string): void;
  /** End of one input file. */
  endFile(): void;
  /** End of all input. */
  end(): void;
}

/** What a finished call's status line says: `failed (exit code N)` for a failed command, else its status. */
export function toolStatusLabel(end: Pick<ToolEnd, 'status' | 'exitCode'>): string {
  if (end.exitCode !== null && end.exitCode !== 0) return `failed (exit code ${end.exitCode})`;
  return end.status || 'unknown status';
}
