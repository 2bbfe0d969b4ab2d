/**
 * The Markdown renderer: a transcript to share. Data is escaped (inline
 * text, paragraphs) or fenced (outputs, commands, errors), so the transcript's
 * own structure cannot be broken whatever the log holds. Long outputs are
 * folded in `<details>` with their size. Never colored.
 */
import { commandOf, summarizeArguments } from './arguments.js';
import { escapeControls } from '../text.js';
import { clip, firstLineMarked, formatBytes, plural } from './format.js';
import { htmlEscapeLine, mdCode, mdEscape, mdFenced, mdParagraphs, MdTextEscaper } from './escape.js';
import { toolStatusLabel, type FileChangeView, type ItemView, type Renderer, type ResultView, type RunTotals, type SessionView, type SubagentView, type TodoView, type ToolEnd, type TurnEnd, type TurnView } from './renderer.js';
import { describeUsage, hasUsage } from './token-usage.js';
import type { TextWriter } from './writer.js';

/** Options of the Markdown renderer. */
export interface MarkdownOptions {
  width: number;
  full: boolean;
  /** Outputs longer than this many lines are folded in `<details>`. */
  foldLines: number;
}

/** Renders a Markdown transcript; see the module comment. */
export class MarkdownRenderer implements Renderer {
  private lastKind = '';
  private workspace = '';
  private readonly message = new MdTextEscaper();

  constructor(
    private readonly w: TextWriter,
    private readonly o: MarkdownOptions,
  ) {}

  /** A block separated by a blank line (list items of one group stay together). */
  private block(text: string, kind = 'para'): void {
    if (this.w.wroteAny) {
      this.w.lineStart();
      if (!(kind.startsWith('list') && kind === this.lastKind)) this.w.blankLine();
    }
    this.w.write(text.endsWith('\n') ? text : `${text}\n`);
    this.lastKind = kind;
  }

  private showPath(path: string): string {
    if (this.workspace !== '' && path.startsWith(`${this.workspace}/`)) return path.slice(this.workspace.length + 1);
    return path;
  }

  fileHeading(name: string): void {
    // No rule before the first file: a leading `---` reads as front matter.
    this.block(`${this.w.wroteAny ? '---\n\n' : ''}**File: ${mdEscape(name)}**`);
  }

  session(s: SessionView): void {
    this.workspace = s.workspace;
    this.block(`# wuu run: ${mdEscape(s.model)}`, 'heading');
    const rows = [`- **Model:** ${mdEscape(s.model)}${s.facts.length > 0 ? ` (${mdEscape(s.facts.join(', '))})` : ''}`];
    if (s.workspace !== '') rows.push(`- **Workspace:** ${mdCode(s.workspace)}`);
    if (s.permissions.length > 0) rows.push(`- **Permissions:** ${mdEscape(s.permissions.map(([k, v]) => `${k}=${v}`).join(', '))}`);
    if (s.more.length > 0) rows.push(`- **Session:** ${mdEscape(s.more.join(', '))}`);
    this.block(rows.join('\n'), 'list-session');
  }

  thread(verb: string, id: string, cwd: string): void {
    const where = cwd !== '' && cwd !== this.workspace ? ` in ${mdCode(cwd)}` : '';
    this.block(`- **Thread:** ${id === '' ? '?' : mdCode(id)} (${mdEscape(verb)})${where}`, 'list-session');
  }

  turnStart(turn: TurnView): void {
    this.block(`## Turn ${turn.n}${turn.id === '' ? '' : ` · ${mdEscape(turn.id)}`}`, 'heading');
  }

  messageText(_turn: TurnView, text: string): void {
    if (this.lastKind !== 'message') {
      this.message.reset();
      const escaped = this.message.push(text.replace(/^\s+/, ''));
      if (escaped === '') return;
      if (this.w.wroteAny) {
        this.w.lineStart();
        this.w.blankLine();
      }
      this.w.write(escaped);
      this.lastKind = 'message';
      return;
    }
    this.w.write(this.message.push(text));
  }

  messageRest(turn: TurnView, rest: string): void {
    this.messageText(turn, this.lastKind === 'message' ? rest : rest.replace(/^\s+/, ''));
  }

  messageReplaced(turn: TurnView, message: string): void {
    this.block('*Final message (replaces the text above):*');
    if (message.trim() !== '') this.messageText(turn, message);
  }

  toolStart(): void {
    // A fenced block is written whole, at the call's end.
  }

  toolOutput(): void {}

  private callText(item: ItemView): string {
    if (item.name === 'bash') {
      const command = commandOf(item.argumentsText) ?? summarizeArguments('bash', item.argumentsText, { max: Infinity });
      // A multi-line command gets the shell's continuation prompt, so it cannot pass for output.
      return command
        .trimEnd()
        .split('\n')
        .map((l, i) => `${i === 0 ? '$' : '>'} ${l}`)
        .join('\n');
    }
    const summary = summarizeArguments(item.name, item.argumentsText, { max: this.o.full ? Infinity : this.o.width, showPath: (p) => this.showPath(p) });
    return `▸ ${escapeControls(item.name) || '?'}${summary === '' ? '' : ` ${summary}`}`;
  }

  toolEnd(item: ItemView, end: ToolEnd): void {
    if (end.status === 'removed') return; // a withdrawn call is no part of the transcript
    const { view } = end;
    const lines: string[] = [];
    const clipLine = (l: string) => (this.o.full ? l : clip(l, this.o.width * 2));
    for (const l of view.head) lines.push(clipLine(l));
    if (view.hidden > 0) lines.push(`… ${plural(view.hidden, 'more line')}`);
    for (const l of view.tail) lines.push(clipLine(l));
    const tag = item.child ? `*◆ ${mdEscape(item.agent)} (sub-agent):*\n\n` : '';
    const info = item.name === 'bash' ? 'console' : 'text';
    const call = this.callText(item);
    if (view.lines > this.o.foldLines) {
      const summary = `Output: ${plural(view.lines, 'line')}, ${formatBytes(view.chars)}`;
      this.block(`${tag}${mdFenced(call, info)}\n\n<details><summary>${htmlEscapeLine(summary)}</summary>\n\n${mdFenced(lines.join('\n'), 'text')}\n\n</details>`, 'code');
    } else {
      this.block(`${tag}${mdFenced(lines.length === 0 ? call : `${call}\n${lines.join('\n')}`, info)}`, 'code');
    }
    if (end.status === 'open') this.block(`*${mdEscape(end.reason)}*`);
    else if (!end.ok) this.statusWithError(`✗ ${toolStatusLabel(end)}`, end.error);
  }

  /** `**✗ failed:** error`; a multi-line error is fenced whole, never cut. */
  private statusWithError(label: string, error: string, tail = ''): void {
    const text = error.trim();
    if (text === '') this.block(`**${mdEscape(label)}**${mdEscape(tail)}`);
    else if (!text.includes('\n')) this.block(`**${mdEscape(label)}:** ${mdEscape(text)}${mdEscape(tail)}`);
    else this.block(`**${mdEscape(label)}:**${mdEscape(tail)}\n\n${mdFenced(text, 'text')}`);
  }

  fileChanged(f: FileChangeView): void {
    const who = f.child ? ` *(${mdEscape(f.agent)}, sub-agent)*` : '';
    this.block(`- ✎ ${mdEscape(f.action)} ${mdCode(this.showPath(f.path))}${f.move === '' ? '' : ` → ${mdCode(this.showPath(f.move))}`}${who}`, 'list-files');
  }

  subagent(a: SubagentView): void {
    const kind = a.kind === '' ? '' : ` (${mdEscape(a.kind)})`;
    if (!a.terminal) {
      const description = a.description.replace(/\s+/g, ' ').trim();
      this.block(`◆ Subagent **${mdEscape(a.name)}**${kind} ${mdEscape(a.verb)}${description === '' ? '' : ` — ${mdEscape(description)}`}`);
      return;
    }
    const status = a.ok ? mdEscape(a.status) : `**✗ ${mdEscape(a.status)}**`;
    const error = a.error.trim() === '' ? '' : `: ${mdEscape(firstLineMarked(a.error))}`;
    this.block(`◆ Subagent **${mdEscape(a.name)}**${kind} ${status}${error}${a.usage ? ` · ${describeUsage(a.usage)}` : ''}`);
    const quoted: string[] = [];
    if (a.result !== '') {
      const all = a.result.split('\n');
      const max = this.o.full ? all.length : 20;
      const shown = all.slice(0, max).join('\n');
      for (const l of mdParagraphs(shown).split('\n')) quoted.push(l === '' ? '>' : `> ${l}`);
      if (all.length > max) quoted.push(`> *… ${plural(all.length - max, 'more line')}*`);
    }
    if (a.resultPath !== '') quoted.push(`> *full result: ${mdEscape(a.resultPath)}*`);
    if (quoted.length > 0) this.block(quoted.join('\n'));
  }

  todo(t: TodoView, child: boolean, agent: string): void {
    const who = child ? ` *(${mdEscape(agent)}, sub-agent)*` : '';
    if (t.items === undefined) {
      this.block(`**Todo:**${who} ${mdEscape(t.raw)}`);
      return;
    }
    const body = t.items.map(({ text, status }) => {
      if (status === 'completed' || status === 'done') return `- [x] ${mdEscape(text)}`;
      if (status === 'cancelled' || status === 'canceled' || status === 'skipped') return `- [ ] ~~${mdEscape(text)}~~`;
      const note = status === '' || status === 'pending' ? '' : ` *(${mdEscape(status.replace(/_/g, ' '))})*`;
      return `- [ ] ${mdEscape(text)}${note}`;
    });
    this.block(`**Todo** (${t.done}/${t.items.length} done)${who}${t.explanation === '' ? '' : ` — ${mdEscape(t.explanation)}`}`);
    if (body.length > 0) this.block(body.join('\n'), 'list-todo');
  }

  turnEnd(turn: TurnView, end: TurnEnd): void {
    if (end.how === 'silent') return;
    const parts: string[] = [];
    if (end.usage && hasUsage(end.usage)) parts.push(describeUsage(end.usage));
    if (end.autoContinues) parts.push('auto-continues');
    const tail = parts.length > 0 ? ` · ${parts.join(' · ')}` : '';
    if (turn.child) {
      const label = `◆ ${turn.agent} turn ${turn.id} ${end.how}`;
      if (end.how === 'completed') this.block(`*${mdEscape(`${label}${tail} (sub-agent)`)}*`);
      else this.statusWithError(`✗ ${label}`, end.detail, `${tail} (sub-agent)`);
      return;
    }
    const name = `Turn ${turn.n}`;
    if (end.how === 'completed') this.block(`*${name} completed${mdEscape(tail)}*`);
    else if (end.how === 'cut') this.block(`*${name} cut off before it ended${mdEscape(tail)}*`);
    else this.statusWithError(`✗ ${name} ${end.how}`, end.detail, tail);
  }

  error(message: string, retrying: boolean): void {
    this.statusWithError('✗ Error', message, retrying ? ' (retrying)' : '');
  }

  private totalRows(r: RunTotals, runId: string): string[] {
    const rows = [`- **Run:** ${runId === '' ? '' : `${mdCode(runId)}, `}${plural(r.turns, 'turn')}`];
    if (hasUsage(r.usage)) rows.push(`- **Tokens:** ${describeUsage(r.usage)}`);
    if (r.subagents > 0) rows.push(`- **Subagents:** ${plural(r.subagents, 'subagent')}, ${describeUsage(r.subagentUsage)}`);
    return rows;
  }

  result(r: ResultView): void {
    this.block(`## Result: ${r.ok ? '✓' : '✗'} ${mdEscape(r.status)}`, 'heading');
    const rows: string[] = [];
    const error = r.error.trim();
    if (error !== '' && !error.includes('\n')) rows.push(`- **Error:** ${mdEscape(error)}`);
    for (const row of this.totalRows(r, r.runId)) rows.push(row);
    if (r.trace !== '') rows.push(`- **Trace:** ${mdCode(r.trace)}`);
    this.block(rows.join('\n'), 'list-result');
    if (error.includes('\n')) this.block(`**Error:**\n\n${mdFenced(error, 'text')}`);
    if (r.finalMessage !== '') {
      this.block('**Final message:**');
      this.block(mdParagraphs(r.finalMessage.trim()));
    }
    if (r.structured !== undefined) {
      this.block('**Structured result:**');
      this.block(mdFenced(JSON.stringify(r.structured.value, null, 2) ?? 'null', 'json'), 'code');
    }
  }

  cut(totals: RunTotals, stopped = false): void {
    this.block(stopped ? '## ■ Stopped reading: no result yet' : '## ✗ No result: the run was cut', 'heading');
    const seen = `${plural(totals.turns, 'turn')}${hasUsage(totals.usage) ? ` · ${describeUsage(totals.usage)}` : ''}`;
    const why = stopped ? "The viewer was stopped before the run's `result`" : 'The input ended without a `result` event';
    this.block(`*${why}; seen: ${mdEscape(seen)}.*`);
  }

  other(text: string): void {
    this.block(`*${mdEscape(this.o.full ? text : clip(text, this.o.width))}*`);
  }

  invalid(preview: string): void {
    this.block(`*[invalid line]* ${mdCode(clip(preview, this.o.width - 20) || ' ')}`);
  }

  endFile(): void {
    this.w.lineStart();
  }

  end(): void {}
}

