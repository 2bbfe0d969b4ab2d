/**
 * The terminal renderer: colored (or not) text, written as events arrive.
 * Every piece of data goes through escapeControls / escapeControlsKeepNewlines
 * (lib/text.ts) before it is written: nothing from a log can move the cursor,
 * retitle the window or reorder text. In live mode (a terminal) it also shows
 * a status line for running tools, output lines as they arrive and elapsed
 * times by arrival.
 */
import { displayWidth, escapeControls, escapeControlsKeepNewlines } from '../text.js';
import { commandOf, summarizeArguments } from './arguments.js';
import { clip, expandTabs, firstLineMarked, formatDuration, plural } from './format.js';
import { LiveStatus, type LiveOptions } from './live.js';
import { isFileTool } from './file-result.js';
import { toolStatusLabel, type FileChangeView, type ItemView, type Renderer, type ResultView, type RunTotals, type SessionView, type SubagentView, type TodoView, type ToolEnd, type TurnEnd, type TurnView } from './renderer.js';
import { describeUsage, hasUsage } from './token-usage.js';
import type { TextWriter } from './writer.js';

/** Options of the terminal renderer. */
export interface TerminalOptions {
  color: boolean;
  width: number;
  full: boolean;
  /** Live view: status line, streamed output lines, elapsed times. */
  live?: Pick<LiveOptions, 'now' | 'write' | 'intervalMs'>;
}

type Styler = (text: string) => string;

/**
 * Shortest elapsed time shown. Times are measured by arrival: a stream read
 * from a file or a fast pipe arrives at once, and "0.0s" after every call
 * says nothing.
 */
export const MEANINGFUL_MS = 100;

/** Renders for a terminal; see the module comment. */
export class TerminalRenderer implements Renderer {
  private readonly paint: (code: string) => Styler;
  private readonly bold: Styler;
  private readonly dim: Styler;
  private readonly red: Styler;
  private readonly green: Styler;
  private readonly yellow: Styler;
  private readonly magenta: Styler;
  private readonly cyan: Styler;
  private readonly width: number;
  private readonly full: boolean;
  private workspace = '';
  /** The item whose call line (or live output) was the last thing written. */
  private lastAnnounced: ItemView | undefined;
  /** Head lines of each item already shown live. */
  private readonly liveShown = new Map<string, number>();
  private readonly live: LiveStatus | undefined;
  /** Whether message text was the last thing written (its own spacing is then kept). */
  private messageOpen = false;

  constructor(
    private readonly w: TextWriter,
    o: TerminalOptions,
  ) {
    this.paint = (code) => (text) => (o.color && text !== '' ? `\x1b[${code}m${text}\x1b[0m` : text);
    this.bold = this.paint('1');
    this.dim = this.paint('2');
    this.red = this.paint('31');
    this.green = this.paint('32');
    this.yellow = this.paint('33');
    this.magenta = this.paint('35');
    this.cyan = this.paint('36');
    this.width = o.width;
    this.full = o.full;
    if (o.live) {
      this.live = new LiveStatus({ ...o.live, width: o.width, style: this.dim, atLineStart: () => !w.wroteAny || w.trailingNewlines > 0 });
      w.beforeWrite = () => {
        const erase = this.live?.takeErase() ?? '';
        if (erase !== '') w.emit(erase);
      };
    }
  }

  private lines(lines: readonly string[]): void {
    this.w.lines(lines);
    this.lastAnnounced = undefined;
    this.messageOpen = false;
  }

  private clipTo(text: string, max: number): string {
    return this.full ? text : clip(text, max);
  }

  private rule(label: string, style: Styler): string {
    const text = `━━ ${label} `;
    const fill = Math.max(2, Math.min(this.width, 80) - displayWidth(text));
    return style(`${text}${'━'.repeat(fill)}`);
  }

  private showPath(path: string): string {
    if (this.workspace !== '' && path.startsWith(`${this.workspace}/`)) return path.slice(this.workspace.length + 1);
    return path;
  }

  private agentTag(child: boolean, agent: string): string {
    return child ? this.magenta(`[${escapeControls(agent)}] `) : '';
  }

  /** Columns the agent tag takes (measured without its color codes). */
  private tagWidth(child: boolean, agent: string): number {
    return child ? displayWidth(`[${escapeControls(agent)}] `) : 0;
  }

  /** ` · 1.2s`, or '' when the time is unknown or too short to mean anything (a replayed file). */
  private elapsed(ms: number | undefined): string {
    return ms === undefined || ms < MEANINGFUL_MS ? '' : ` · ${formatDuration(ms)}`;
  }

  /** Follow mode, the input does not exist yet: say so rather than show an empty screen. */
  waiting(file: string): void {
    this.lines([this.dim(`· waiting for ${this.clipTo(escapeControls(file), this.width - 30)} to appear (following it)`)]);
  }

  fileHeading(name: string): void {
    this.w.blankLine();
    this.lines([this.rule(escapeControls(name), this.bold)]);
  }

  session(s: SessionView): void {
    this.workspace = escapeControls(s.workspace);
    const facts = s.facts.map(escapeControls);
    const head = `${this.bold(escapeControls(s.model))}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}${this.workspace === '' ? '' : ` in ${this.workspace}`}`;
    const permissions = s.permissions.map(([k, v]) => `${escapeControls(k)}=${v}`).join(' ');
    const second = [permissions === '' ? '' : `permissions ${permissions}`, ...s.more.map(escapeControls)].filter(Boolean).join(' · ');
    this.lines([`${this.cyan('●')} ${head}`, ...(second === '' ? [] : [this.dim(`  ${second}`)])]);
  }

  thread(verb: string, id: string, cwd: string): void {
    const where = cwd !== '' && escapeControls(cwd) !== this.workspace ? ` in ${escapeControls(cwd)}` : '';
    this.lines([this.dim(`  thread ${escapeControls(id) || '?'} ${escapeControls(verb)}${where}`)]);
  }

  turnStart(turn: TurnView): void {
    const label = turn.id === '' ? `turn ${turn.n}` : `turn ${turn.n} · ${escapeControls(turn.id)}`;
    this.w.blankLine();
    this.lines([this.rule(label, this.paint('1;36'))]);
  }

  private text(text: string): void {
    const clean = escapeControlsKeepNewlines(text.replace(/\r\n/g, '\n'));
    const w = this.w;
    // Deltas concatenate without separators: a message resuming after other output starts clean.
    const resume = this.messageOpen && w.wroteAny;
    const shown = resume ? clean : clean.replace(/^\s+/, '');
    if (shown === '') return;
    if (!resume) w.lineStart();
    w.write(shown);
    this.lastAnnounced = undefined;
    this.messageOpen = true;
  }

  messageText(_turn: TurnView, text: string): void {
    this.text(text);
  }

  messageRest(_turn: TurnView, rest: string): void {
    this.text(this.w.trailingNewlines > 0 ? rest.replace(/^\s+/, '') : rest);
  }

  messageReplaced(_turn: TurnView, message: string): void {
    this.lines([this.dim('↻ final message (replaces the text above):')]);
    if (message.trim() !== '') this.text(message);
  }

  private callLine(item: ItemView): string[] {
    const tag = this.agentTag(item.child, item.agent);
    const name = escapeControls(item.name) || '?';
    if (item.name === 'bash') {
      const command = commandOf(item.argumentsText);
      if (this.full && command !== undefined) {
        const lines = escapeControlsKeepNewlines(command).trimEnd().split('\n');
        return lines.map((l, i) => (i === 0 ? `${tag}${this.paint('1;36')('$')} ${l}` : `  ${l}`));
      }
      const summary = summarizeArguments('bash', item.argumentsText, { max: this.full ? Infinity : this.width - 2 - this.tagWidth(item.child, item.agent) });
      return [`${tag}${this.paint('1;36')('$')} ${summary}`];
    }
    const room = this.width - 3 - displayWidth(name) - this.tagWidth(item.child, item.agent);
    const summary = summarizeArguments(item.name, item.argumentsText, { max: this.full ? Infinity : room, showPath: (p) => this.showPath(p) });
    return [`${tag}${this.cyan('▸')} ${this.bold(name)}${summary === '' ? '' : ` ${summary}`}`];
  }

  toolStart(item: ItemView): void {
    this.lines(this.callLine(item));
    this.lastAnnounced = item;
    if (this.live) {
      const summary = summarizeArguments(item.name, item.argumentsText, { max: 60 });
      this.live.add(item.key, `${item.name || '?'}${summary === '' ? '' : ` ${summary}`}`, item.startedAt);
    }
  }

  private outputLine(line: string): string {
    return this.dim(`  │ ${this.clipTo(escapeControls(expandTabs(line)), this.width - 4)}`);
  }

  toolOutput(item: ItemView): void {
    // A file tool's result is shown at its end, read whole (file-result.ts), not as raw lines.
    if (!this.live || this.lastAnnounced !== item || isFileTool(item.name)) return;
    // Live: the head lines are shown as they arrive, under the call line.
    const shown = this.liveShown.get(item.key) ?? 0;
    const view = item.fold.peekHead();
    if (view.length <= shown) return;
    const fresh: string[] = [];
    for (let i = shown; i < view.length; i++) fresh.push(this.outputLine(view[i] ?? ''));
    this.w.lines(fresh);
    this.liveShown.set(item.key, view.length);
  }

  toolEnd(item: ItemView, end: ToolEnd): void {
    this.live?.remove(item.key);
    const alreadyShown = this.lastAnnounced === item ? (this.liveShown.get(item.key) ?? 0) : 0;
    this.liveShown.delete(item.key);
    if (this.lastAnnounced !== item) this.lines(this.callLine(item));
    const { view } = end;
    const shown: string[] = [];
    for (let i = alreadyShown; i < view.head.length; i++) shown.push(this.outputLine(view.head[i] ?? ''));
    if (view.hidden > 0) shown.push(this.dim(`  │ … ${plural(view.hidden, 'more line')}`));
    for (const l of view.tail) shown.push(this.outputLine(l));
    const time = this.elapsed(end.elapsedMs);
    const status = escapeControls(toolStatusLabel(end));
    if (end.status === 'removed') shown.push(this.dim(`  └ withdrawn${time}`));
    else if (end.status === 'open') shown.push(this.yellow(`  └ ${end.reason}`));
    else if (end.ok) shown.push(`  └ ${this.green('✓')} ${this.dim(`${status}${time}`)}`);
    else {
      // `  └ ✗ STATUS: ERROR · TIME` within the width: the error is clipped to what is left.
      const room = this.width - displayWidth(`  └ ✗ ${status}: `) - displayWidth(time);
      const error = end.error.trim() === '' ? '' : this.errorText(end.error, Math.max(10, room));
      shown.push(this.red(`  └ ✗ ${status}${error === '' ? '' : `: ${error}`}`) + this.dim(time));
    }
    this.lines(shown);
  }

  /** An error: its first line with a marker for the rest, or every line with --full. */
  private errorText(error: string, max: number): string {
    if (this.full) return escapeControlsKeepNewlines(error.trim()).replace(/\n/g, '\n    ');
    return clip(escapeControls(firstLineMarked(error)), max);
  }

  fileChanged(f: FileChangeView): void {
    const move = f.move === '' ? '' : ` → ${this.showPath(escapeControls(f.move))}`;
    const text = `${escapeControls(f.action)} ${this.showPath(escapeControls(f.path))}${move}`;
    this.lines([`  ${this.agentTag(f.child, f.agent)}${this.yellow('✎')} ${this.clipTo(text, this.width - 4)}`]);
  }

  subagent(a: SubagentView): void {
    const name = escapeControls(a.name);
    const kind = a.kind === '' ? '' : ` (${escapeControls(a.kind)})`;
    if (!a.terminal) {
      const head = `◆ ${name}${kind} ${escapeControls(a.verb)}`;
      const description = escapeControls(a.description.replace(/\s+/g, ' ').trim());
      const desc = description === '' ? '' : `: ${description}`;
      this.lines([`${this.magenta('◆')} ${this.bold(name)}${kind} ${escapeControls(a.verb)}${this.dim(this.clipTo(desc, Math.max(0, this.width - displayWidth(head))))}`]);
      return;
    }
    const mark = a.ok ? this.green('✓') : this.red('✗');
    const status = escapeControls(a.status);
    const error = a.error.trim() === '' ? '' : this.red(`: ${this.errorText(a.error, this.width)}`);
    const usage = a.usage ? this.dim(` · ${describeUsage(a.usage)}`) : '';
    const shown = [`${this.magenta('◆')} ${this.bold(name)}${kind} ${mark} ${a.ok ? status : this.red(status)}${error}${usage}`];
    if (a.result !== '') {
      const fold = a.result.split('\n');
      const max = this.full ? fold.length : 6;
      for (let i = 0; i < fold.length && i < max; i++) shown.push(this.outputLine(fold[i] ?? ''));
      if (fold.length > max) shown.push(this.dim(`  │ … ${plural(fold.length - max, 'more line')}`));
    }
    if (a.resultPath !== '') shown.push(this.dim(`  │ full result: ${escapeControls(a.resultPath)}`));
    this.lines(shown);
  }

  todo(t: TodoView, child: boolean, agent: string): void {
    const tag = this.agentTag(child, agent);
    if (t.items === undefined) {
      this.lines([`${tag}${this.yellow('≡')} todo ${this.dim(this.clipTo(escapeControls(t.raw), this.width - 8))}`]);
      return;
    }
    const list = t.items;
    const limit = this.full ? list.length : 8;
    const explanation = t.explanation === '' ? '' : ` · ${escapeControls(t.explanation.replace(/\s+/g, ' ').trim())}`;
    const head = `≡ todo ${t.done}/${list.length} done`;
    const rows = [`${tag}${this.yellow('≡')} todo ${this.dim(`${t.done}/${list.length} done${this.clipTo(explanation, Math.max(0, this.width - displayWidth(head) - this.tagWidth(child, agent)))}`)}`];
    for (const item of list.slice(0, limit)) {
      const text = this.clipTo(escapeControls(item.text), this.width - 8);
      const status = item.status;
      if (status === 'completed' || status === 'done') rows.push(`  ${this.green('[x]')} ${this.dim(text)}`);
      else if (status === 'in_progress' || status === 'in-progress' || status === 'active' || status === 'running') rows.push(`  ${this.paint('1;33')('[>]')} ${this.bold(text)}`);
      else if (status === 'cancelled' || status === 'canceled' || status === 'skipped') rows.push(`  ${this.dim(`[-] ${text}`)}`);
      else rows.push(`  [ ] ${text}${status === '' || status === 'pending' ? '' : this.dim(` (${escapeControls(status)})`)}`);
    }
    if (list.length > limit) rows.push(this.dim(`  … ${plural(list.length - limit, 'more item')}`));
    this.lines(rows);
  }

  turnEnd(turn: TurnView, end: TurnEnd): void {
    if (end.how === 'silent') {
      this.w.lineStart();
      return;
    }
    const parts: string[] = [];
    if (end.usage && hasUsage(end.usage)) parts.push(describeUsage(end.usage));
    if (end.autoContinues) parts.push('auto-continues');
    if (end.elapsedMs !== undefined && end.elapsedMs >= MEANINGFUL_MS) parts.push(formatDuration(end.elapsedMs));
    const tail = parts.length > 0 ? ` · ${parts.join(' · ')}` : '';
    const detail = end.detail.trim() === '' ? '' : `: ${this.errorText(end.detail, this.width)}`;
    if (turn.child) {
      // A sub-agent's own turn end: its tokens are the sub-agent's, not the main agent's.
      const label = `${this.magenta('◆')} ${this.bold(escapeControls(turn.agent))} turn ${escapeControls(turn.id)}`;
      const how = end.how === 'completed' ? 'completed' : this.red(`✗ ${end.how}${detail}`);
      this.lines([`${label} ${how}${this.dim(` (sub-agent)${tail}`)}`]);
      return;
    }
    const name = `turn ${turn.n}`;
    if (end.how === 'completed') this.lines([this.dim(`── ${name} completed${tail}`)]);
    else if (end.how === 'cut') this.lines([this.yellow(`── ${name} cut off before it ended`) + this.dim(tail)]);
    else this.lines([this.red(`── ✗ ${name} ${end.how}${detail}`) + this.dim(tail)]);
  }

  error(message: string, retrying: boolean): void {
    this.lines([this.red(`✗ error: ${this.errorText(message, this.width - 9)}${retrying ? ' (retrying)' : ''}`)]);
  }

  private totals(r: RunTotals, runId: string): string[] {
    const head = `${runId === '' ? '' : `run ${escapeControls(runId)} · `}${plural(r.turns, 'turn')}${hasUsage(r.usage) ? ` · ${describeUsage(r.usage)}` : ''}`;
    const rows = [this.dim(head)];
    if (r.subagents > 0) rows.push(this.dim(`${plural(r.subagents, 'subagent')} · ${describeUsage(r.subagentUsage)}`));
    return rows;
  }

  result(r: ResultView): void {
    this.live?.clear();
    const status = escapeControls(r.status);
    this.w.blankLine();
    const rows = [this.rule(`${r.ok ? '✓' : '✗'} ${status}`, this.paint(r.ok ? '1;32' : '1;31'))];
    if (r.error !== '') rows.push(this.red(this.errorText(r.error, this.width)));
    if (r.finalMessage !== '') {
      rows.push(this.dim('final message:'));
      for (const l of escapeControlsKeepNewlines(r.finalMessage.replace(/\r\n/g, '\n')).trimEnd().split('\n')) rows.push(l);
    }
    if (r.structured !== undefined) {
      const json = escapeControls(JSON.stringify(r.structured.value) ?? 'null');
      rows.push(`structured result ${this.clipTo(json, this.width - 18)}`);
    }
    for (const row of this.totals(r, r.runId)) rows.push(row);
    if (r.trace !== '') rows.push(this.dim(`trace ${escapeControls(r.trace)}`));
    this.lines(rows);
  }

  cut(totals: RunTotals, stopped = false): void {
    this.live?.clear();
    this.w.blankLine();
    const seen = `${plural(totals.turns, 'turn')}${hasUsage(totals.usage) ? ` · ${describeUsage(totals.usage)}` : ''}`;
    if (stopped) this.lines([this.rule('■ stopped reading: no result yet', this.paint('1;33')), this.dim(`the viewer was stopped before the run's result; seen: ${seen}`)]);
    else this.lines([this.rule('✗ no result: the run was cut', this.paint('1;33')), this.dim(`the input ended without a result event; seen: ${seen}`)]);
  }

  other(text: string): void {
    this.lines([this.dim(`· ${this.clipTo(escapeControls(text), this.width - 2)}`)]);
  }

  invalid(preview: string): void {
    this.lines([this.yellow('[invalid line]') + (preview === '' ? '' : this.dim(` ${clip(escapeControls(preview), this.width - 15)}`))]);
  }

  endFile(): void {
    this.live?.clear();
    const erase = this.live?.takeErase() ?? '';
    if (erase !== '') this.w.emit(erase);
    this.w.lineStart();
  }

  end(): void {
    this.live?.clear();
  }
}
