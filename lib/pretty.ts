/**
 * wuu-pretty: the event stream rendered for people, either live on a terminal
 * (optionally colored) or as a Markdown transcript to share.
 *
 * Text for an event is emitted when the event arrives: message deltas go out
 * as they come (no newline until the message ends), a tool call's line when it
 * starts, its folded output preview when it completes. Markdown mode writes a
 * tool's block at completion, since a fenced block must be written whole.
 *
 * Memory is bounded: an open tool keeps its first few lines and a ring of its
 * last few, each clipped (`--full` lifts both caps, and then holds a tool's
 * whole output until it completes).
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit } from './core.js';
import type { EventRecord } from './jsonl.js';

/** Options of {@link createPretty}. */
export interface PrettyOptions {
  /** Write a Markdown transcript instead of terminal text (never colored). */
  markdown?: boolean;
  /** Use ANSI colors (see {@link colorEnabled}). Ignored with `markdown`. */
  color?: boolean;
  /** Columns available; long lines are clipped to it with `…`. Default 100. */
  width?: number;
  /** Show every line of every output, unclipped. */
  full?: boolean;
  /** Also show the diagnostics (provider_state, request_context) and session details. */
  verbose?: boolean;
  /** Print a heading per input file (for several inputs). */
  showFileNames?: boolean;
  /** Lines shown from the start of a folded output. Default 3. */
  headLines?: number;
  /** Lines shown from the end of a folded output. Default 3. */
  tailLines?: number;
}

/** `--color` values. */
export type ColorMode = 'always' | 'never' | 'auto';

/**
 * Whether to color: `always` and `never` are obeyed as given (an explicit
 * command-line choice beats the environment, as no-color.org asks); `auto`
 * colors only a terminal, and not when NO_COLOR is set to a non-empty value
 * or TERM is `dumb`.
 */
export function colorEnabled(mode: ColorMode, isTTY: boolean, env: Record<string, string | undefined>): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  if (!isTTY) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

// ---------------------------------------------------------------------------
// Text helpers

// Escape sequences (CSI, OSC, two-byte) and other control characters in data
// must never reach a terminal: they could move the cursor, retitle the window
// or worse. Tabs and newlines are kept; carriage returns are handled per line.
const ANSI_RE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
const CONTROL_RE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Removes escape sequences and control characters (keeps `\n` and `\t`). */
export function sanitize(text: string): string {
  if (!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text)) return text;
  return text.replace(ANSI_RE, '').replace(CONTROL_RE, '');
}

/** Expands tabs to 8-column stops, as a terminal shows them. */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) {
    if (ch === '\t') out += ' '.repeat(8 - (out.length % 8));
    else out += ch;
  }
  return out;
}

/** Clips to `max` characters (code points), marking a cut with `…`. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** 12345 -> "12,345" (fixed format, whatever the locale). */
export function formatCount(n: number): string {
  const text = String(Math.trunc(n));
  return text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** A compact one-line rendering of any JSON value. */
function compactValue(value: unknown, max: number): string {
  if (typeof value === 'string') {
    if (value.includes('\n')) return `<${plural(value.split('\n').length, 'line')}>`;
    return clip(/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value), max);
  }
  if (value === undefined) return '';
  return clip(JSON.stringify(value) ?? String(value), max);
}

/** `key=value key=value`, skipping the given keys and empty values. */
function keyValues(object: Record<string, unknown>, skip: ReadonlySet<string>, valueMax: number): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (skip.has(key)) continue;
    if (value === '' || value === null || value === false || value === 0 || value === undefined) continue;
    parts.push(`${key}=${compactValue(value, valueMax)}`);
  }
  return parts.join(' ');
}

/** A fence of backticks longer than any run of backticks in `text` (at least 3). */
export function chooseFence(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Inline code that survives backticks inside. */
function mdCode(text: string): string {
  const one = text.replace(/\n/g, ' ');
  let longest = 0;
  for (const match of one.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const ticks = '`'.repeat(longest + 1);
  const pad = one.startsWith('`') || one.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${one}${pad}${ticks}`;
}

/**
 * Escapes Markdown syntax in inline text. An underscore inside a word needs
 * no escape (it cannot open emphasis), nor do `#` and `>` after the start.
 */
function mdEscape(text: string): string {
  return text
    .replace(/\n/g, ' ')
    .replace(/[\\`*[\]<~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|^[#>+-]/gu, '\\$&');
}

// ---------------------------------------------------------------------------
// Tool arguments

const PATH_KEYS = ['path', 'file_path', 'filepath', 'file', 'filename', 'target_file', 'notebook_path'];
const MOVE_KEYS = ['move_path', 'new_path', 'destination', 'to'];
const FILE_TOOL_RE = /file|patch|dir|^(read|write|edit|view|ls|cat|checkpoint)$/i;

/** Options of {@link summarizeArguments}. */
export interface SummaryOptions {
  /** Longest summary, in characters. Default 80. */
  max?: number;
  /** Shows a path (for example relative to the workspace). */
  showPath?: (path: string) => string;
}

/**
 * A one-line summary of a tool call's arguments (the JSON-encoded string of
 * tool_started): the command for bash, the path for file tools, else a compact
 * `key=value` list. Never throws.
 */
export function summarizeArguments(name: string, argumentsText: unknown, options: SummaryOptions = {}): string {
  const max = options.max ?? 80;
  const showPath = options.showPath ?? ((p: string) => p);
  let args: unknown = argumentsText;
  if (typeof argumentsText === 'string') {
    try {
      args = JSON.parse(argumentsText);
    } catch {
      return clip(sanitize(argumentsText).replace(/\s+/g, ' ').trim(), max);
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return args === undefined || args === '' ? '' : sanitize(compactValue(args, max));
  }
  const object = args as Record<string, unknown>;
  if (typeof object.command === 'string' && (name === 'bash' || name === 'shell' || name === '')) {
    return clip(commandLine(object.command), max);
  }
  if (FILE_TOOL_RE.test(name)) {
    const pathKey = PATH_KEYS.find((key) => typeof object[key] === 'string' && object[key] !== '');
    if (pathKey !== undefined) {
      const moveKey = MOVE_KEYS.find((key) => typeof object[key] === 'string' && object[key] !== '');
      const shown = showPath(sanitize(object[pathKey] as string));
      return clip(moveKey === undefined ? shown : `${shown} → ${showPath(sanitize(object[moveKey] as string))}`, max);
    }
    const patch = [object.patch, object.input, object.diff].find((v): v is string => typeof v === 'string');
    if (patch !== undefined) {
      const files = patchFiles(patch).map((f) => showPath(sanitize(f)));
      if (files.length > 0) return clip(files.length > 3 ? `${files.slice(0, 3).join(', ')} (+${files.length - 3} more)` : files.join(', '), max);
    }
  }
  return clip(sanitize(keyValues(object, new Set(), 40)), max);
}

/** The first line of a command, with a count of the lines left out. */
function commandLine(command: string): string {
  const lines = sanitize(command).trim().split('\n');
  return lines.length === 1 ? lines[0]! : `${lines[0]!.trimEnd()} …(+${plural(lines.length - 1, 'line')})`;
}

/** File names named by a patch (`*** Update File: x` or `+++ b/x` headers). */
function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^(?:\*\*\* (?:Add|Update|Delete) File: (.+)|\+\+\+ (?:b\/)?(.+))$/gm)) {
    const file = (match[1] ?? match[2] ?? '').trim();
    if (file !== '' && file !== '/dev/null' && !files.includes(file)) files.push(file);
  }
  return files;
}

// ---------------------------------------------------------------------------
// Folded output

/** What a fold shows: the first lines, how many are hidden, the last lines. */
export interface Folded {
  head: string[];
  hidden: number;
  tail: string[];
}

/**
 * Holds a bounded view of a growing output: the first `headMax` lines, a ring
 * of the last ones and the line count. Each line is clipped to `lineCap`
 * characters (a clipped line ends in `…`). A carriage return inside a line
 * keeps what follows it, as a terminal would show a progress bar.
 */
export class OutputFold {
  private head: string[] = [];
  private ring: string[] = [];
  private ringAt = 0;
  private lines = 0;
  private partial = '';
  private capped = false;
  private pendingCR = false;
  private readonly ringMax: number;

  constructor(
    private readonly headMax = 3,
    tailMax = 3,
    private readonly lineCap = Number.POSITIVE_INFINITY,
  ) {
    // One spare line in the ring: a fold that would hide a single line shows it instead.
    this.ringMax = tailMax + 1;
  }

  /** True when nothing was written. */
  get empty(): boolean {
    return this.lines === 0 && this.partial === '';
  }

  write(text: string): void {
    if (this.pendingCR) {
      this.pendingCR = false;
      if (!text.startsWith('\n')) this.resetPartial();
    }
    let from = 0;
    for (;;) {
      const newline = text.indexOf('\n', from);
      this.append(newline < 0 ? text.slice(from) : text.slice(from, newline), newline >= 0);
      if (newline < 0) break;
      this.commit();
      from = newline + 1;
    }
  }

  private resetPartial(): void {
    this.partial = '';
    this.capped = false;
  }

  private append(piece: string, lineEnds: boolean): void {
    if (piece.endsWith('\r')) {
      piece = piece.slice(0, -1);
      if (!lineEnds) this.pendingCR = true;
    }
    const cr = piece.lastIndexOf('\r');
    if (cr >= 0) {
      this.resetPartial();
      piece = piece.slice(cr + 1);
    }
    if (this.capped || piece === '') return;
    const room = this.lineCap - this.partial.length;
    if (piece.length > room) {
      this.partial += `${piece.slice(0, room)}…`;
      this.capped = true;
    } else {
      this.partial += piece;
    }
  }

  private commit(): void {
    const line = this.partial;
    this.resetPartial();
    this.lines++;
    if (this.head.length < this.headMax) {
      this.head.push(line);
    } else if (this.ring.length < this.ringMax) {
      this.ring.push(line);
    } else {
      this.ring[this.ringAt] = line;
      this.ringAt = (this.ringAt + 1) % this.ringMax;
    }
  }

  /** Ends the output (a last line without newline counts) and returns the view. */
  finish(): Folded {
    if (this.partial !== '') this.commit();
    const ordered = [...this.ring.slice(this.ringAt), ...this.ring.slice(0, this.ringAt)];
    const hidden = this.lines - this.head.length - ordered.length;
    if (hidden === 0) return { head: this.head, hidden: 0, tail: ordered };
    return { head: this.head, hidden: hidden + 1, tail: ordered.slice(1) };
  }
}

// ---------------------------------------------------------------------------
// The core

interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

interface Turn {
  id: string;
  n: number;
  /** The message as the screen shows it so far (deltas appended, finals replace). */
  message: string;
  /** Set when the message grew past the cap and is no longer held. */
  messageOverflow: boolean;
  /** Length of what was streamed, kept even past the cap. */
  messageLength: number;
  usage: Usage | undefined;
}

interface Item {
  id: string;
  turnId: string;
  name: string;
  argumentsText: unknown;
  /** Which twin supplies the output: tool_output_delta or command_output_delta. */
  source: 'tool' | 'command' | undefined;
  fold: OutputFold;
  /** Whether its call line was printed (text mode). */
  announced: boolean;
}

type Styler = (text: string) => string;

const MESSAGE_CAP = 1 << 20;
const MAX_OPEN_ITEMS = 256;
const MAX_CLOSED_IDS = 1024;
const MAX_AGENTS = 4096;
const MAX_OPEN_TURNS = 64;
const DIAGNOSTIC_TYPES = new Set(['provider_state', 'request_context']);
const HIDDEN_FIELDS = new Set(['type', 'thread_id', 'turn_id']);
const HIDDEN_WITH_STEP = new Set([...HIDDEN_FIELDS, 'step_index']);
const OK_STATUSES = new Set(['completed', 'complete', 'success', 'succeeded', 'ok', 'done']);

/**
 * The pretty-printer's core: events in, text out. It never changes an exit
 * status (a failed run is shown, not judged); bad input is the runner's.
 */
export function createPretty(options: PrettyOptions = {}): Core {
  const md = options.markdown === true;
  const color = options.color === true && !md;
  const width = Math.max(20, Math.trunc(options.width ?? 100));
  const full = options.full === true;
  const verbose = options.verbose === true;
  const headMax = full ? Number.POSITIVE_INFINITY : Math.max(0, options.headLines ?? 3);
  const tailMax = full ? 0 : Math.max(0, options.tailLines ?? 3);
  // Lines are held a little wider than shown, so a clip is always visible.
  const lineCap = full ? Number.POSITIVE_INFINITY : width + 16;
  const ruleWidth = Math.min(width, 80);

  const paint =
    (code: string): Styler =>
    (text) =>
      color && text !== '' ? `\x1b[${code}m${text}\x1b[0m` : text;
  const bold = paint('1');
  const dim = paint('2');
  const red = paint('31');
  const green = paint('32');
  const yellow = paint('33');
  const magenta = paint('35');
  const cyan = paint('36');
  const boldCyan = paint('1;36');
  const boldRed = paint('1;31');
  const boldGreen = paint('1;32');
  const boldYellow = paint('1;33');

  // ---- output state
  let out: Emit = () => {};
  let wroteAny = false;
  let trailingNewlines = 0;
  /** The item whose call line was the last thing written (text mode). */
  let lastAnnounced: Item | undefined;
  let lastMdKind = '';
  let currentFile: string | undefined;

  // ---- run state
  let workspace = '';
  let runActive = false;
  let turnCount = 0;
  let totals: Usage = zeroUsage();
  let turnsEnded = 0;
  let lastMessage = '';
  const turns = new Map<string, Turn>();
  let currentTurn: Turn | undefined;
  const items = new Map<string, Item>();
  const closed = new Set<string>();
  const agents = new Map<string, string>();

  function zeroUsage(): Usage {
    return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  }

  function write(text: string): void {
    if (text === '') return;
    out(text);
    wroteAny = true;
    const stripped = text.replace(/\n+$/, '');
    trailingNewlines = stripped.length === text.length ? 0 : text.length - stripped.length + (stripped === '' ? trailingNewlines : 0);
  }

  function lineStart(): void {
    if (wroteAny && trailingNewlines === 0) write('\n');
  }

  function blankLine(): void {
    lineStart();
    if (wroteAny && trailingNewlines < 2) write('\n');
  }

  /** Text mode: writes whole lines, after ending any open message line. */
  function lines(...text: string[]): void {
    lineStart();
    write(text.map((t) => `${t}\n`).join(''));
    lastAnnounced = undefined;
  }

  /**
   * Markdown: a block separated by a blank line (list items of one group stay
   * together). A message block is left open: its deltas follow as they come.
   */
  function mdBlock(text: string, kind = 'para'): void {
    if (wroteAny) {
      lineStart();
      if (!(kind.startsWith('list') && kind === lastMdKind)) blankLine();
    }
    write(kind === 'message' || text.endsWith('\n') ? text : `${text}\n`);
    lastMdKind = kind;
  }

  function showPath(path: string): string {
    if (workspace !== '' && path.startsWith(`${workspace}/`)) return path.slice(workspace.length + 1);
    return path;
  }

  function tokens(u: Usage): string {
    const parts = [`${formatCount(u.input)} in`, `${formatCount(u.output)} out`];
    if (u.cacheRead > 0) parts.push(`${formatCount(u.cacheRead)} cache read`);
    if (u.cacheWrite > 0) parts.push(`${formatCount(u.cacheWrite)} cache write`);
    return parts.join(' · ');
  }

  function usageOf(e: Record<string, unknown>): Usage {
    return {
      input: num(e.input_tokens),
      output: num(e.output_tokens),
      cacheRead: num(e.cache_read_tokens),
      cacheWrite: num(e.cache_creation_tokens),
    };
  }

  function rule(label: string, style: Styler): string {
    const text = `━━ ${label} `;
    const fill = Math.max(2, ruleWidth - Array.from(text).length);
    return style(`${text}${'━'.repeat(fill)}`);
  }

  // ---- file headings

  function noteFile(file: string): void {
    if (!options.showFileNames || file === currentFile) return;
    currentFile = file;
    if (md) {
      // No rule before the first file: a leading `---` reads as front matter.
      mdBlock(`${wroteAny ? '---\n\n' : ''}**File: ${mdEscape(file)}**`);
    } else {
      blankLine();
      lines(rule(file, bold));
    }
  }

  // ---- turns

  function ensureTurn(id: unknown, announce = true): Turn {
    const key = typeof id === 'string' ? id : undefined;
    if (key === undefined) {
      if (currentTurn) return currentTurn;
    } else {
      const known = turns.get(key);
      if (known) return known;
    }
    if (turns.size >= MAX_OPEN_TURNS) {
      const oldest = turns.values().next().value as Turn;
      endTurn(oldest, 'cut', '');
    }
    const turn: Turn = {
      id: key ?? '',
      n: ++turnCount,
      message: '',
      messageOverflow: false,
      messageLength: 0,
      usage: undefined,
    };
    turns.set(turn.id, turn);
    currentTurn = turn;
    if (announce) {
      const label = turn.id === '' ? `turn ${turn.n}` : `turn ${turn.n} · ${turn.id}`;
      if (md) mdBlock(`## Turn ${turn.n}${turn.id === '' ? '' : ` · ${mdEscape(turn.id)}`}`, 'heading');
      else {
        blankLine();
        lines(rule(label, boldCyan));
      }
    }
    return turn;
  }

  /** Closes a turn: flushes its open items and shows its status with the last usage snapshot. */
  function endTurn(turn: Turn, how: 'completed' | 'failed' | 'interrupted' | 'cut' | 'silent', detail: string, extra = ''): void {
    for (const item of [...items.values()]) if (item.turnId === turn.id) finishItem(item, 'open', '');
    turns.delete(turn.id);
    if (currentTurn === turn) currentTurn = undefined;
    const usage = turn.usage;
    if (usage) addUsage(usage);
    turnsEnded++;
    if (!turn.messageOverflow && turn.messageLength > 0) lastMessage = turn.message;
    if (how === 'silent') {
      if (!md) lineStart();
      return;
    }
    const parts: string[] = [];
    if (usage) parts.push(tokens(usage));
    if (extra !== '') parts.push(extra);
    const tail = parts.length > 0 ? ` · ${parts.join(' · ')}` : '';
    const name = `turn ${turn.n}`;
    if (md) {
      if (how === 'completed') mdBlock(`*${cap(name)} completed${mdEscape(tail)}*`);
      else if (how === 'cut') mdBlock(`*${cap(name)} cut off before it ended${mdEscape(tail)}*`);
      else mdBlock(`**✗ ${cap(name)} ${how}${detail === '' ? '' : `:** ${mdEscape(firstLine(detail))}`}${detail === '' ? '**' : ''}${mdEscape(tail)}`);
      return;
    }
    if (how === 'completed') lines(dim(`── ${name} completed${tail}`));
    else if (how === 'cut') lines(yellow(`── ${name} cut off before it ended`) + dim(tail));
    else lines(red(`── ✗ ${name} ${how}${detail === '' ? '' : `: ${firstLine(detail)}`}`) + dim(tail));
  }

  function hasTokens(u: Usage): boolean {
    return u.input + u.output + u.cacheRead + u.cacheWrite > 0;
  }

  function addUsage(u: Usage): void {
    totals = {
      input: totals.input + u.input,
      output: totals.output + u.output,
      cacheRead: totals.cacheRead + u.cacheRead,
      cacheWrite: totals.cacheWrite + u.cacheWrite,
    };
  }

  function cap(text: string): string {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function firstLine(text: string): string {
    const clean = sanitize(text).trim();
    const at = clean.indexOf('\n');
    return full || at < 0 ? clean : `${clean.slice(0, at)} …`;
  }

  // ---- messages

  function showMessageText(text: string): void {
    const clean = sanitize(text).replace(/\r/g, '');
    if (clean === '') return;
    if (md) {
      if (lastMdKind !== 'message') mdBlock(clean.replace(/^\n+/, ''), 'message');
      else write(clean);
    } else {
      write(lastAnnounced || trailingNewlines > 0 || !wroteAny ? clean.replace(/^\n+/, '') : clean);
      lastAnnounced = undefined;
    }
  }

  function onDelta(turn: Turn, delta: string): void {
    if (delta === '') return;
    turn.messageLength += delta.length;
    if (!turn.messageOverflow) {
      if (turn.message.length + delta.length > MESSAGE_CAP) {
        turn.messageOverflow = true;
        turn.message = '';
      } else turn.message += delta;
    }
    showMessageText(delta);
  }

  function onFinal(turn: Turn, message: string): void {
    const shown = turn.message;
    const known = !turn.messageOverflow;
    turn.messageLength = message.length;
    turn.messageOverflow = message.length > MESSAGE_CAP;
    turn.message = turn.messageOverflow ? '' : message;
    if (known && message.trimEnd() === shown.trimEnd()) return;
    if (known && shown === '') {
      showMessageText(message);
      return;
    }
    if (known && message.startsWith(shown)) {
      // The final text extends what was streamed: show only the rest.
      let rest = message.slice(shown.length);
      if (md ? lastMdKind !== 'message' : trailingNewlines > 0) rest = rest.replace(/^\s+/, '');
      showMessageText(rest);
      return;
    }
    if (md) {
      mdBlock('*Final message (replaces the text above):*');
      if (message.trim() !== '') mdBlock(sanitize(message), 'message');
    } else {
      lines(dim('↻ final message (replaces the text above):'));
      if (message.trim() !== '') showMessageText(message);
    }
  }

  // ---- tools

  function itemKey(e: Record<string, unknown>): string {
    return str(e.item_id);
  }

  function openItem(e: Record<string, unknown>, from: 'tool' | 'command', announce: boolean): Item {
    const id = itemKey(e);
    let item = items.get(id);
    if (item) {
      if (item.name === '' && str(e.name) !== '') item.name = str(e.name);
      if (item.argumentsText === undefined && e.arguments !== undefined) item.argumentsText = e.arguments;
      return item;
    }
    if (items.size >= MAX_OPEN_ITEMS) finishItem(items.values().next().value as Item, 'open', '');
    const turn = ensureTurn(e.turn_id);
    item = {
      id,
      turnId: turn.id,
      name: str(e.name),
      argumentsText: e.arguments ?? (typeof e.command === 'string' ? JSON.stringify({ command: e.command }) : undefined),
      source: undefined,
      fold: new OutputFold(headMax, tailMax, lineCap),
      announced: false,
    };
    if (item.name === '' && from === 'command') item.name = 'bash';
    items.set(id, item);
    closed.delete(id);
    if (announce && !md) announceItem(item);
    return item;
  }

  function isBash(item: Item): boolean {
    return item.name === 'bash';
  }

  function callLine(item: Item, max: number): string {
    const summary = summarizeArguments(item.name, item.argumentsText, { max, showPath });
    if (isBash(item)) return `$ ${summary}`;
    return summary === '' ? `▸ ${item.name || '?'}` : `▸ ${item.name || '?'} ${summary}`;
  }

  function announceItem(item: Item): void {
    let text: string;
    if (isBash(item) && full) {
      const command = bashCommand(item);
      const commandLines = sanitize(command).trimEnd().split('\n');
      lines(...commandLines.map((l, i) => (i === 0 ? `${boldCyan('$')} ${l}` : `  ${l}`)));
    } else {
      text = callLine(item, full ? Number.POSITIVE_INFINITY : width - 2 - (isBash(item) ? 0 : item.name.length + 1));
      if (isBash(item)) lines(`${boldCyan('$')} ${text.slice(2)}`);
      else lines(`${cyan('▸')} ${bold(item.name || '?')}${text.slice(2 + (item.name || '?').length)}`);
    }
    item.announced = true;
    lastAnnounced = item;
  }

  function bashCommand(item: Item): string {
    try {
      const args = typeof item.argumentsText === 'string' ? (JSON.parse(item.argumentsText) as unknown) : item.argumentsText;
      if (typeof args === 'object' && args !== null && typeof (args as { command?: unknown }).command === 'string') {
        return (args as { command: string }).command;
      }
    } catch {
      // fall through to the summary
    }
    return summarizeArguments(item.name, item.argumentsText, { max: Number.POSITIVE_INFINITY, showPath });
  }

  function onOutput(e: Record<string, unknown>, from: 'tool' | 'command'): void {
    const id = itemKey(e);
    if (closed.has(id) && !items.has(id)) return; // the twin of a finished item
    const item = openItem(e, from, false);
    // bash output arrives twice (tool_* and command_* twins): the first source seen wins.
    item.source ??= from;
    if (item.source !== from) return;
    const delta = str(e.delta);
    if (delta !== '') item.fold.write(delta);
  }

  /**
   * Shows a finished item: its folded output and a status line.
   * `status` 'removed' for a withdrawn call, 'open' when it never completed.
   */
  function finishItem(item: Item, status: string, error: string): void {
    items.delete(item.id);
    closed.add(item.id);
    if (closed.size > MAX_CLOSED_IDS) closed.delete(closed.values().next().value as string);
    const view = item.fold.finish();
    const ok = OK_STATUSES.has(status);
    const reason = status === 'open' ? (runActive ? 'no completion (turn ended)' : 'no completion (the run was cut)') : '';
    if (md) {
      if (status === 'removed') return; // a withdrawn call is no part of the transcript
      // A multi-line command gets the shell's continuation prompt, so it cannot pass for output.
      const call = isBash(item)
        ? sanitize(bashCommand(item)).trimEnd().split('\n').map((l, i) => `${i === 0 ? '$' : '>'} ${l}`).join('\n')
        : callLine(item, full ? Number.POSITIVE_INFINITY : width);
      const body = [call];
      for (const l of view.head) body.push(mdLine(l));
      if (view.hidden > 0) body.push(`… ${plural(view.hidden, 'more line')}`);
      for (const l of view.tail) body.push(mdLine(l));
      const text = body.join('\n');
      const fence = chooseFence(text);
      mdBlock(`${fence}${isBash(item) ? 'console' : 'text'}\n${text}\n${fence}`, 'code');
      if (status === 'open') mdBlock(`*${mdEscape(reason)}*`);
      else if (!ok) mdBlock(`**✗ ${mdEscape(status || 'unknown status')}${error === '' ? '**' : `:** ${mdEscape(firstLine(error))}`}`);
      return;
    }
    if (lastAnnounced !== item) announceItem(item);
    const shown: string[] = [];
    const avail = width - 4;
    const fmt = (l: string) => dim(`  │ ${full ? expandTabs(sanitize(l)) : clip(expandTabs(sanitize(l)), avail)}`);
    for (const l of view.head) shown.push(fmt(l));
    if (view.hidden > 0) shown.push(dim(`  │ … ${plural(view.hidden, 'more line')}`));
    for (const l of view.tail) shown.push(fmt(l));
    let end: string;
    if (status === 'removed') end = dim('  └ withdrawn');
    else if (status === 'open') end = yellow(`  └ ${reason}`);
    else if (ok) end = `  └ ${green('✓')} ${dim(status)}`;
    else {
      const detail = error === '' ? '' : `: ${firstLine(error)}`;
      end = red(`  └ ✗ ${status || 'unknown status'}${full ? detail : clip(detail, Math.max(10, width - 6 - status.length))}`);
    }
    lines(...shown, end);
  }

  function mdLine(line: string): string {
    const clean = sanitize(line);
    return full ? clean : clip(clean, width);
  }

  function onCompleted(e: Record<string, unknown>, from: 'tool' | 'command', removed: boolean): void {
    const id = itemKey(e);
    let item = items.get(id);
    if (!item) {
      if (closed.has(id)) return; // the twin already closed it
      item = openItem(e, from, false);
    }
    if (removed) finishItem(item, 'removed', '');
    else finishItem(item, str(e.status) || 'completed', str(e.error));
  }

  // ---- subagents

  function agentName(e: Record<string, unknown>): string {
    return sanitize(str(e.task_name) || str(e.agent_type) || str(e.agent_id) || 'subagent');
  }

  function onSubagent(e: Record<string, unknown>, type: string): void {
    const id = str(e.agent_id);
    const status = str(e.status) || (type === 'subagent_completed' ? 'completed' : 'running');
    const before = agents.get(id);
    const name = agentName(e);
    const kind = str(e.agent_type) !== '' && str(e.agent_type) !== name ? ` (${sanitize(str(e.agent_type))})` : '';
    const terminal = type === 'subagent_completed';
    if (terminal) agents.delete(id);
    else {
      if (before === status) return; // a progress update: tokens only
      if (agents.size >= MAX_AGENTS) agents.delete(agents.keys().next().value as string);
      agents.set(id, status);
    }
    if (!terminal) {
      const description = sanitize(str(e.description)).replace(/\s+/g, ' ').trim();
      const verb = before === undefined && type === 'subagent_started' ? 'started' : status;
      if (md) {
        mdBlock(`◆ Subagent **${mdEscape(name)}**${mdEscape(kind)} ${mdEscape(verb)}${description === '' || before !== undefined ? '' : ` — ${mdEscape(description)}`}`);
      } else {
        const head = `◆ ${name}${kind} ${verb}`;
        const desc = description === '' || before !== undefined ? '' : `: ${description}`;
        lines(`${magenta('◆')} ${bold(name)}${kind} ${verb}${dim(full ? desc : clip(desc, Math.max(0, width - head.length)))}`);
      }
      return;
    }
    const usage = usageOf(e);
    const hasTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite > 0;
    const ok = OK_STATUSES.has(status);
    const error = str(e.error);
    const result = sanitize(str(e.result)).replace(/\s+$/, '');
    const resultPath = str(e.result_path);
    const truncatedNote = e.result_truncated === true && resultPath !== '' ? `full result: ${sanitize(resultPath)}` : '';
    const fold = new OutputFold(headMax, tailMax, lineCap);
    if (result !== '') fold.write(result);
    const view = fold.finish();
    if (md) {
      const head = `◆ Subagent **${mdEscape(name)}**${mdEscape(kind)} ${ok ? mdEscape(status) : `**✗ ${mdEscape(status)}**`}${error === '' ? '' : `: ${mdEscape(firstLine(error))}`}${hasTokens ? ` · ${tokens(usage)}` : ''}`;
      mdBlock(head);
      const quoted = [...view.head, ...(view.hidden > 0 ? [`… ${plural(view.hidden, 'more line')}`] : []), ...view.tail];
      if (truncatedNote !== '') quoted.push(`*${mdEscape(truncatedNote)}*`);
      if (quoted.length > 0) mdBlock(quoted.map((l) => (l === '' ? '>' : `> ${full ? l : clip(l, width)}`)).join('\n'));
      return;
    }
    const mark = ok ? green('✓') : red('✗');
    const detail = error === '' ? '' : red(`: ${full ? firstLine(error) : clip(firstLine(error), width)}`);
    const shown = [`${magenta('◆')} ${bold(name)}${kind} ${mark} ${ok ? status : red(status)}${detail}${hasTokens ? dim(` · ${tokens(usage)}`) : ''}`];
    const fmt = (l: string) => dim(`  │ ${full ? expandTabs(l) : clip(expandTabs(l), width - 4)}`);
    for (const l of view.head) shown.push(fmt(l));
    if (view.hidden > 0) shown.push(dim(`  │ … ${plural(view.hidden, 'more line')}`));
    for (const l of view.tail) shown.push(fmt(l));
    if (truncatedNote !== '') shown.push(dim(`  │ ${truncatedNote}`));
    lines(...shown);
  }

  // ---- todo

  function todoItems(todo: unknown): Array<{ text: string; status: string }> | undefined {
    const list = Array.isArray(todo)
      ? todo
      : typeof todo === 'object' && todo !== null
        ? ((todo as Record<string, unknown>).items ?? (todo as Record<string, unknown>).todos)
        : undefined;
    if (!Array.isArray(list)) return undefined;
    return list.map((entry) => {
      if (typeof entry === 'string') return { text: entry, status: '' };
      const o = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
      const text = str(o.content) || str(o.text) || str(o.title) || str(o.description) || str(o.task) || compactValue(entry, 80);
      const status = str(o.status) || (o.done === true || o.completed === true ? 'completed' : '');
      return { text: sanitize(text).replace(/\s+/g, ' ').trim(), status: status.toLowerCase() };
    });
  }

  function onTodo(e: Record<string, unknown>): void {
    const list = todoItems(e.todo);
    if (list === undefined) {
      const raw = compactValue(e.todo, full ? Number.POSITIVE_INFINITY : width - 8);
      if (md) mdBlock(`**Todo:** ${mdEscape(sanitize(raw))}`);
      else lines(`${yellow('≡')} todo ${dim(sanitize(raw))}`);
      return;
    }
    const done = list.filter((t) => t.status === 'completed' || t.status === 'done').length;
    const limit = full ? list.length : Math.max(headMax + tailMax, 8);
    const shown = list.slice(0, limit);
    const more = list.length - shown.length;
    if (md) {
      const body = shown.map(({ text, status }) => {
        if (status === 'completed' || status === 'done') return `- [x] ${mdEscape(text)}`;
        if (status === 'cancelled' || status === 'canceled' || status === 'skipped') return `- [ ] ~~${mdEscape(text)}~~`;
        const note = status === '' || status === 'pending' ? '' : ` *(${mdEscape(status.replace(/_/g, ' '))})*`;
        return `- [ ] ${mdEscape(text)}${note}`;
      });
      if (more > 0) body.push(`- … ${plural(more, 'more item')}`);
      mdBlock(`**Todo** (${done}/${list.length} done)`);
      mdBlock(body.join('\n'), 'list-todo');
      lastMdKind = 'todo';
      return;
    }
    const rows = shown.map(({ text, status }) => {
      const t = full ? text : clip(text, width - 8);
      if (status === 'completed' || status === 'done') return `  ${green('[x]')} ${dim(t)}`;
      if (status === 'in_progress' || status === 'in-progress' || status === 'active' || status === 'running') return `  ${boldYellow('[>]')} ${bold(t)}`;
      if (status === 'cancelled' || status === 'canceled' || status === 'skipped') return `  ${dim(`[-] ${t}`)}`;
      return `  [ ] ${t}${status === '' || status === 'pending' ? '' : dim(` (${status})`)}`;
    });
    if (more > 0) rows.push(dim(`  … ${plural(more, 'more item')}`));
    lines(`${yellow('≡')} todo ${dim(`${done}/${list.length} done`)}`, ...rows);
  }

  // ---- files

  function onFileChanged(e: Record<string, unknown>): void {
    const action = sanitize(str(e.action)) || 'changed';
    const path = showPath(sanitize(str(e.path))) || '?';
    const move = str(e.move_path) === '' ? '' : showPath(sanitize(str(e.move_path)));
    if (md) {
      mdBlock(`- ✎ ${mdEscape(action)} ${mdCode(path)}${move === '' ? '' : ` → ${mdCode(move)}`}`, 'list-files');
      return;
    }
    const text = `${action} ${path}${move === '' ? '' : ` → ${move}`}`;
    lines(`  ${yellow('✎')} ${full ? text : clip(text, width - 4)}`);
  }

  // ---- session, result, others

  function onSession(e: Record<string, unknown>): void {
    workspace = sanitize(str(e.workspace_root)).replace(/\/+$/, '');
    const model = sanitize(str(e.model)) || 'unknown model';
    const facts = [sanitize(str(e.provider)), str(e.effort) === '' ? '' : `effort ${sanitize(str(e.effort))}`, str(e.variant) === '' ? '' : `variant ${sanitize(str(e.variant))}`].filter(Boolean);
    const permissionsText =
      typeof e.permissions === 'object' && e.permissions !== null && !Array.isArray(e.permissions)
        ? sanitize(
            Object.entries(e.permissions as Record<string, unknown>)
              .map(([k, v]) => `${k}=${compactValue(v, 40)}`)
              .join(' '),
          )
        : '';
    const more = verbose ? [`protocol ${compactValue(e.protocol_version, 20) || '?'}`, `max parallel ${num(e.max_parallel)}`] : [];
    if (md) {
      mdBlock(`# wuu run: ${mdEscape(model)}`, 'heading');
      const rows = [`- **Model:** ${mdEscape(model)}${facts.length > 0 ? ` (${mdEscape(facts.join(', '))})` : ''}`];
      if (workspace !== '') rows.push(`- **Workspace:** ${mdCode(workspace)}`);
      if (permissionsText !== '') rows.push(`- **Permissions:** ${mdEscape(permissionsText.replace(/ /g, ', '))}`);
      if (more.length > 0) rows.push(`- **Session:** ${mdEscape(more.join(', '))}`);
      mdBlock(rows.join('\n'), 'list-session');
      return;
    }
    const head = `${bold(model)}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}${workspace === '' ? '' : ` in ${workspace}`}`;
    const second = [permissionsText === '' ? '' : `permissions ${permissionsText}`, ...more].filter(Boolean).join(' · ');
    lines(`${cyan('●')} ${head}`, ...(second === '' ? [] : [dim(`  ${second}`)]));
  }

  function onThread(e: Record<string, unknown>, type: string): void {
    const verb = type.slice('thread_'.length);
    const id = sanitize(str(e.thread_id));
    const cwd = sanitize(str(e.cwd));
    const where = cwd !== '' && cwd !== workspace ? ` in ${cwd}` : '';
    if (md) {
      mdBlock(`- **Thread:** ${id === '' ? '?' : mdCode(id)} (${mdEscape(verb)})${where === '' ? '' : ` in ${mdCode(cwd)}`}`, 'list-session');
      return;
    }
    lines(dim(`  thread ${id || '?'} ${verb}${where}`));
  }

  function resetRun(): void {
    runActive = false;
    turnCount = 0;
    turnsEnded = 0;
    totals = zeroUsage();
    lastMessage = '';
    turns.clear();
    items.clear();
    closed.clear();
    agents.clear();
    currentTurn = undefined;
  }

  function runFacts(): string {
    const parts = [plural(turnsEnded, 'turn')];
    if (hasTokens(totals)) parts.push(tokens(totals));
    return parts.join(' · ');
  }

  function onResult(e: Record<string, unknown>): void {
    // A turn still open when the result arrives ended without its own event.
    for (const turn of [...turns.values()]) endTurn(turn, 'silent', '');
    for (const item of [...items.values()]) finishItem(item, 'open', '');
    const status = sanitize(str(e.status)) || 'unknown';
    const ok = status === 'completed';
    const error = str(e.error);
    const runId = sanitize(str(e.run_id));
    const trace = sanitize(str(e.trace_path));
    const finalMessage = str(e.final_message);
    const showFinal = finalMessage.trim() !== '' && finalMessage.trimEnd() !== lastMessage.trimEnd();
    const hasStructured = Object.hasOwn(e, 'structured_result');
    const facts = `${runId === '' ? '' : `run ${runId} · `}${runFacts()}`;
    if (md) {
      mdBlock(`## Result: ${ok ? '✓' : '✗'} ${mdEscape(status)}`, 'heading');
      const rows: string[] = [];
      if (error !== '') rows.push(`- **Error:** ${mdEscape(sanitize(error))}`);
      rows.push(`- **Run:** ${runId === '' ? '' : `${mdCode(runId)}, `}${plural(turnsEnded, 'turn')}`);
      if (hasTokens(totals)) rows.push(`- **Tokens:** ${tokens(totals)}`);
      if (trace !== '') rows.push(`- **Trace:** ${mdCode(trace)}`);
      mdBlock(rows.join('\n'), 'list-result');
      if (showFinal) {
        mdBlock('**Final message:**');
        mdBlock(sanitize(finalMessage), 'message');
      }
      if (hasStructured) {
        const json = JSON.stringify(e.structured_result, null, 2) ?? 'null';
        const fence = chooseFence(json);
        mdBlock('**Structured result:**');
        mdBlock(`${fence}json\n${json}\n${fence}`, 'code');
      }
    } else {
      blankLine();
      lines(rule(`${ok ? '✓' : '✗'} ${status}`, ok ? boldGreen : boldRed));
      const rows: string[] = [];
      if (error !== '') rows.push(red(full ? sanitize(error) : clip(firstLine(error), width)));
      if (showFinal) {
        rows.push(dim('final message:'));
        for (const l of sanitize(finalMessage).trimEnd().split('\n')) rows.push(l);
      }
      if (hasStructured) {
        const json = sanitize(JSON.stringify(e.structured_result) ?? 'null');
        rows.push(`structured result ${full ? json : clip(json, width - 18)}`);
      }
      rows.push(dim(facts));
      if (trace !== '') rows.push(dim(`trace ${trace}`));
      lines(...rows);
    }
    resetRun();
  }

  function onCut(): void {
    runActive = false; // so open items say the run was cut
    for (const turn of [...turns.values()]) endTurn(turn, 'cut', '');
    for (const item of [...items.values()]) finishItem(item, 'open', '');
    if (md) {
      mdBlock('## ✗ No result: the run was cut', 'heading');
      mdBlock(`*The input ended without a \`result\` event (${runFacts()} seen).*`);
    } else {
      blankLine();
      lines(rule('✗ no result: the run was cut', boldYellow), dim(`the input ended without a result event (${runFacts()} seen)`));
    }
    resetRun();
  }

  function onError(e: Record<string, unknown>): void {
    const message = sanitize(str(e.error)) || 'error';
    const retry = e.retrying === true ? ' (retrying)' : '';
    if (md) mdBlock(`**✗ Error:** ${mdEscape(message)}${retry}`);
    else lines(red(`✗ error: ${full ? message : clip(firstLine(message), width - 9)}${retry}`));
  }

  function onOther(e: Record<string, unknown>, type: string): void {
    // step_index 0 is a fact on a diagnostic, not an empty value.
    const step = typeof e.step_index === 'number' ? ` step ${e.step_index}` : '';
    const kv = sanitize(keyValues(e, step === '' ? HIDDEN_FIELDS : HIDDEN_WITH_STEP, 32));
    const text = `${sanitize(type)}${step}${kv === '' ? '' : ` ${kv}`}`;
    if (md) mdBlock(`*${mdEscape(full ? text : clip(text, width))}*`);
    else lines(dim(`· ${full ? text : clip(text, width - 2)}`));
  }

  function handle(rec: EventRecord): void {
    const type = rec.type;
    if (!verbose && DIAGNOSTIC_TYPES.has(type)) return;
    const e = rec.event as unknown as Record<string, unknown>;
    if (type !== 'result') runActive = true;
    switch (type) {
      case 'session_configured':
        onSession(e);
        return;
      case 'thread_started':
      case 'thread_resumed':
      case 'thread_forked':
        onThread(e, type);
        return;
      case 'turn_started':
        ensureTurn(e.turn_id);
        return;
      case 'agent_message_delta':
        onDelta(ensureTurn(e.turn_id), str(e.delta));
        return;
      case 'agent_message_final':
        onFinal(ensureTurn(e.turn_id), str(e.message));
        return;
      case 'usage_updated':
        ensureTurn(e.turn_id).usage = usageOf(e);
        return;
      case 'turn_completed': {
        const turn = ensureTurn(e.turn_id);
        turn.usage ??= num(e.input_tokens) + num(e.output_tokens) > 0 ? usageOf(e) : undefined;
        endTurn(turn, 'completed', '', e.awaiting_auto_continuation === true ? 'auto-continues' : '');
        return;
      }
      case 'turn_failed':
        endTurn(ensureTurn(e.turn_id), 'failed', str(e.error));
        return;
      case 'turn_interrupted':
        endTurn(ensureTurn(e.turn_id), 'interrupted', str(e.reason));
        return;
      case 'tool_started':
      case 'command_started':
        if (type === 'command_started' && (items.has(itemKey(e)) || closed.has(itemKey(e)))) return;
        openItem(e, type === 'tool_started' ? 'tool' : 'command', true);
        return;
      case 'tool_output_delta':
        onOutput(e, 'tool');
        return;
      case 'command_output_delta':
        onOutput(e, 'command');
        return;
      case 'tool_completed':
      case 'command_completed':
        onCompleted(e, type === 'tool_completed' ? 'tool' : 'command', false);
        return;
      case 'tool_removed':
      case 'command_removed':
        onCompleted(e, type === 'tool_removed' ? 'tool' : 'command', true);
        return;
      case 'file_changed':
        onFileChanged(e);
        return;
      case 'subagent_started':
      case 'subagent_updated':
      case 'subagent_completed':
        onSubagent(e, type);
        return;
      case 'todo_updated':
        ensureTurn(e.turn_id);
        onTodo(e);
        return;
      case 'error':
        onError(e);
        return;
      case 'result':
        onResult(e);
        return;
      default:
        onOther(e, type);
    }
  }

  return {
    needsParse: (type) => verbose || !DIAGNOSTIC_TYPES.has(type),
    push(rec, emit) {
      out = emit;
      noteFile(rec.file);
      handle(rec);
    },
    invalid(raw, emit) {
      out = emit;
      const preview = sanitize(raw.toString('utf8')).replace(/\s+/g, ' ').trim();
      if (md) mdBlock(`*[invalid line]* ${mdCode(clip(preview, width - 20) || ' ')}`);
      else lines(yellow('[invalid line]') + (preview === '' ? '' : dim(` ${clip(preview, width - 15)}`)));
    },
    endFile(_file, emit) {
      out = emit;
      if (runActive) onCut();
      lineStart();
    },
    status: () => 0,
  };
}

/** Object-mode stream version of {@link createPretty}: events in, text chunks out. */
export function pretty(options: PrettyOptions = {}): Transform {
  return coreStream(createPretty(options));
}
