/**
 * The HTML renderer: ONE self-contained page (inline CSS, no script, no
 * external asset, readable without JavaScript), written as the events arrive
 * so memory stays bounded. Every piece of data is HTML-escaped (text and
 * attributes) and a Content-Security-Policy forbids scripts and every
 * request, so a hostile log cannot run code in the reader's browser.
 */
import { commandOf, parseArguments, summarizeArguments } from './arguments.js';
import { formatBytes, formatCount, plural } from './format.js';
import { htmlEscape as h, htmlEscapeLine as h1 } from './escape.js';
import { HTML_CSS } from './html-css.js';
import { toolStatusLabel, type FileChangeView, type ItemView, type Renderer, type ResultView, type RunTotals, type SessionView, type SubagentView, type TodoView, type ToolEnd, type TurnEnd, type TurnView } from './renderer.js';
import { cacheHitRatio, promptTokens, type Tokens } from '../events.js';
import { hasUsage } from './token-usage.js';
import type { TextWriter } from './writer.js';

/** The page's policy: no script, no request of any kind; inline style and data: images only. */
export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** Options of the HTML renderer. */
export interface HtmlOptions {
  full: boolean;
  /** Outputs up to this many lines are shown open; longer ones folded. */
  foldLines: number;
}

const ARGUMENTS_CAP = 64 * 1024;

/** Renders an HTML page; see the module comment. */
export class HtmlRenderer implements Renderer {
  private started = false;
  private inTurn = false;
  private inMessage = false;
  private workspace = '';
  /** What names the run in the page's title, gathered before the page starts. */
  private readonly titleParts = { thread: '', model: '', file: '' };
  /** Header blocks (file heading, session) held until the title is known. */
  private readonly pending: string[] = [];

  constructor(
    private readonly w: TextWriter,
    private readonly o: HtmlOptions,
  ) {}

  /** The page title: the run's thread id, model and input file, when known. */
  private title(): string {
    const { thread, model, file } = this.titleParts;
    const parts = [thread === '' ? 'wuu run' : `wuu run ${thread}`, model, file].filter((p) => p !== '');
    return parts.length === 1 && thread === '' ? 'wuu run transcript' : parts.join(' · ');
  }

  /**
   * Starts the page. The head is written when the first block that is not
   * a header comes (the thread line, usually the second event), so the title
   * can name the run; header blocks wait in `pending` until then.
   */
  private open(): void {
    if (this.started) return;
    this.started = true;
    this.w.write(
      `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
        `<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">\n` +
        `<meta name="referrer" content="no-referrer">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
        `<meta name="color-scheme" content="light dark">\n<meta name="generator" content="wuu-pretty">\n` +
        `<title>${h1(this.title())}</title>\n<style>${HTML_CSS}</style>\n</head>\n<body>\n<main>\n`,
    );
    for (const html of this.pending.splice(0)) this.w.write(`${html}\n`);
  }

  /** A header block: written now, or held until the page starts. */
  private header(html: string): void {
    if (this.started) this.block(html);
    else this.pending.push(html);
  }

  input(name: string): void {
    // The first named file names the page; stdin does not.
    if (this.started || this.titleParts.file !== '' || name === '-' || name.startsWith('<')) return;
    this.titleParts.file = name.slice(name.lastIndexOf('/') + 1);
  }

  /** Writes a block of markup, closing an open message first. */
  private block(html: string): void {
    this.open();
    if (this.inMessage) {
      this.w.write('</div>\n');
      this.inMessage = false;
    }
    this.w.write(`${html}\n`);
  }

  private closeTurn(): void {
    if (!this.inTurn) return;
    this.block('</section>');
    this.inTurn = false;
  }

  private showPath(path: string): string {
    if (this.workspace !== '' && path.startsWith(`${this.workspace}/`)) return path.slice(this.workspace.length + 1);
    return path;
  }

  fileHeading(name: string): void {
    this.closeTurn();
    this.header(`<h1 class="file">${h1(name)}</h1>`);
  }

  session(s: SessionView): void {
    this.workspace = s.workspace;
    const rows = [`<dt>Model</dt><dd>${h1(s.model)}${s.facts.length > 0 ? ` (${h1(s.facts.join(', '))})` : ''}</dd>`];
    if (s.workspace !== '') rows.push(`<dt>Workspace</dt><dd><code>${h1(s.workspace)}</code></dd>`);
    if (s.permissions.length > 0) rows.push(`<dt>Permissions</dt><dd>${h1(s.permissions.map(([k, v]) => `${k}=${v}`).join(', '))}</dd>`);
    if (s.more.length > 0) rows.push(`<dt>Session</dt><dd>${h1(s.more.join(', '))}</dd>`);
    if (!this.started && this.titleParts.model === '') this.titleParts.model = s.model;
    this.header(`<header class="session"><h1>wuu run: ${h1(s.model)}</h1><dl class="session">${rows.join('')}</dl></header>`);
  }

  thread(verb: string, id: string, cwd: string): void {
    if (!this.started && this.titleParts.thread === '') this.titleParts.thread = id;
    const where = cwd !== '' && cwd !== this.workspace ? ` in <code>${h1(cwd)}</code>` : '';
    this.block(`<p class="thread">Thread <code>${h1(id) || '?'}</code> ${h1(verb)}${where}</p>`);
  }

  turnStart(turn: TurnView): void {
    this.closeTurn();
    this.block(`<section class="turn"><h2>Turn ${turn.n}${turn.id === '' ? '' : ` · <code>${h1(turn.id)}</code>`}</h2>`);
    this.inTurn = true;
  }

  messageText(_turn: TurnView, text: string): void {
    if (!this.inMessage) {
      const start = text.replace(/^\s+/, '');
      if (start === '') return;
      this.block('<div class="msg">');
      this.w.write(h(start.replace(/\r\n/g, '\n')));
      this.inMessage = true;
      return;
    }
    this.w.write(h(text.replace(/\r\n/g, '\n')));
  }

  messageRest(turn: TurnView, rest: string): void {
    this.messageText(turn, rest);
  }

  messageReplaced(turn: TurnView, message: string): void {
    this.block('<p class="note">Final message (replaces the text above):</p>');
    if (message.trim() !== '') this.messageText(turn, message);
  }

  toolStart(): void {
    // A call is written whole, at its end.
  }

  toolOutput(): void {}

  private argumentsHtml(item: ItemView): string {
    if (item.name === 'bash') {
      const command = commandOf(item.argumentsText);
      if (command !== undefined) return `<pre class="cmd">$ ${h(this.capText(command))}</pre>`;
    }
    const args = parseArguments(item.argumentsText);
    const text = args === undefined ? String(item.argumentsText ?? '') : (JSON.stringify(args, null, 2) ?? '');
    if (text === '' || text === '""' || text === '{}') return '';
    const size = formatBytes(text.length);
    return `<details class="args"><summary>Arguments (${h1(size)})</summary><pre>${h(this.capText(text))}</pre></details>`;
  }

  private capText(text: string): string {
    if (this.o.full || text.length <= ARGUMENTS_CAP) return text;
    return `${text.slice(0, ARGUMENTS_CAP)}\n… ${formatBytes(text.length - ARGUMENTS_CAP)} more`;
  }

  toolEnd(item: ItemView, end: ToolEnd): void {
    const { view } = end;
    const kind = end.status === 'removed' ? 'removed' : end.status === 'open' ? 'open' : end.ok ? 'done' : 'fail';
    // bash shows its whole command below; other tools a one-line summary here.
    const summary = item.name === 'bash' && commandOf(item.argumentsText) !== undefined ? '' : summarizeArguments(item.name, item.argumentsText, { max: 100, showPath: (p) => this.showPath(p) });
    let status: string;
    if (end.status === 'removed') status = '<span class="status warn">withdrawn</span>';
    else if (end.status === 'open') status = `<span class="status warn">${h1(end.reason)}</span>`;
    else if (end.ok) status = `<span class="status ok">✓ ${h1(end.status)}</span>`;
    else status = `<span class="status bad">✗ ${h1(toolStatusLabel(end))}</span>`;
    const tag = item.child ? `<span class="tag">${h1(item.agent)} (sub-agent)</span> ` : '';
    const parts = [
      `<div class="tool ${kind}${item.child ? ' child' : ''}">`,
      `<div class="call">${tag}<span class="name">${h1(item.name) || '?'}</span> <span class="mono">${h(summary)}</span>${status}</div>`,
      this.argumentsHtml(item),
    ];
    if (view.lines > 0) {
      const body: string[] = [];
      for (const l of view.head) body.push(h(l));
      if (view.hidden > 0) body.push(`<span class="muted">… ${plural(view.hidden, 'more line')}</span>`);
      for (const l of view.tail) body.push(h(l));
      const label = `Output: ${plural(view.lines, 'line')}, ${formatBytes(view.chars)}`;
      parts.push(`<details class="output"${view.lines <= this.o.foldLines ? ' open' : ''}><summary>${h1(label)}</summary><pre>${body.join('\n')}</pre></details>`);
    }
    if (!end.ok && end.error.trim() !== '') parts.push(`<pre class="error">${h(end.error.trim())}</pre>`);
    parts.push('</div>');
    this.block(parts.join('\n'));
  }

  fileChanged(f: FileChangeView): void {
    const move = f.move === '' ? '' : ` → <code>${h1(this.showPath(f.move))}</code>`;
    const who = f.child ? ` <span class="tag">(${h1(f.agent)}, sub-agent)</span>` : '';
    this.block(`<div class="file-change">✎ ${h1(f.action)} <code>${h1(this.showPath(f.path))}</code>${move}${who}</div>`);
  }

  subagent(a: SubagentView): void {
    const kind = a.kind === '' ? '' : ` (${h1(a.kind)})`;
    if (!a.terminal) {
      const description = a.description.replace(/\s+/g, ' ').trim();
      this.block(`<div class="agent">◆ Subagent <b>${h1(a.name)}</b>${kind} ${h1(a.verb)}${description === '' ? '' : ` — ${h1(description)}`}</div>`);
      return;
    }
    const status = a.ok ? `<span class="ok">✓ ${h1(a.status)}</span>` : `<span class="bad">✗ ${h1(a.status)}</span>`;
    const parts = [`<div class="agent">◆ Subagent <b>${h1(a.name)}</b>${kind} ${status}`];
    if (a.error.trim() !== '') parts.push(`<pre class="error">${h(a.error.trim())}</pre>`);
    if (a.usage) parts.push(usageTable(a.usage));
    if (a.result !== '') parts.push(`<blockquote>${h(this.capText(a.result))}</blockquote>`);
    if (a.resultPath !== '') parts.push(`<p class="note">Full result: <code>${h1(a.resultPath)}</code></p>`);
    parts.push('</div>');
    this.block(parts.join('\n'));
  }

  todo(t: TodoView, child: boolean, agent: string): void {
    const who = child ? ` <span class="tag">(${h1(agent)}, sub-agent)</span>` : '';
    if (t.items === undefined) {
      this.block(`<div class="todo">Todo${who}: <code>${h1(t.raw)}</code></div>`);
      return;
    }
    const items = t.items.map(({ text, status }) => {
      const done = status === 'completed' || status === 'done';
      const mark = done ? '☑' : status === 'in_progress' ? '▶' : '☐';
      const note = done || status === '' || status === 'pending' ? '' : ` <span class="muted">(${h1(status.replace(/_/g, ' '))})</span>`;
      return `<li${done ? ' class="done"' : ''}>${mark} ${h1(text)}${note}</li>`;
    });
    const explanation = t.explanation === '' ? '' : ` — ${h1(t.explanation)}`;
    this.block(`<div class="todo"><b>Todo</b> (${t.done}/${t.items.length} done)${who}${explanation}<ul>${items.join('')}</ul></div>`);
  }

  turnEnd(turn: TurnView, end: TurnEnd): void {
    if (end.how === 'silent') {
      if (!turn.child) this.closeTurn();
      return;
    }
    const cls = end.how === 'completed' ? 'ok' : end.how === 'cut' ? 'warn' : 'bad';
    const who = turn.child ? `<span class="tag">◆ ${h1(turn.agent)}</span> turn <code>${h1(turn.id)}</code>` : `Turn ${turn.n}`;
    const how = end.how === 'cut' ? 'cut off before it ended' : end.how;
    const extra = `${end.autoContinues ? ' · auto-continues' : ''}${turn.child ? ' (sub-agent)' : ''}`;
    const parts = [`<p class="turn-end"><span class="${cls}">${end.how === 'completed' ? '' : '✗ '}${who} ${h1(how)}</span>${extra}</p>`];
    if (end.detail.trim() !== '') parts.push(`<pre class="error">${h(end.detail.trim())}</pre>`);
    if (end.usage && hasUsage(end.usage)) parts.push(usageTable(end.usage));
    this.block(parts.join('\n'));
    if (!turn.child) this.closeTurn();
  }

  error(message: string, retrying: boolean): void {
    this.block(`<div class="error">✗ Error${retrying ? ' (retrying)' : ''}:<pre class="error">${h(message.trim())}</pre></div>`);
  }

  private totals(r: RunTotals, runId: string): string {
    const parts = [`<p>${runId === '' ? '' : `Run <code>${h1(runId)}</code> · `}${plural(r.turns, 'turn')}</p>`];
    if (hasUsage(r.usage)) parts.push(usageTable(r.usage, 'Main agent'));
    if (r.subagents > 0) parts.push(usageTable(r.subagentUsage, `${plural(r.subagents, 'subagent')}`));
    return parts.join('\n');
  }

  result(r: ResultView): void {
    this.closeTurn();
    const parts = [`<section class="result"><h2 class="${r.ok ? 'ok' : 'bad'}">Result: ${r.ok ? '✓' : '✗'} ${h1(r.status)}</h2>`];
    if (r.error.trim() !== '') parts.push(`<pre class="error">${h(r.error.trim())}</pre>`);
    parts.push(this.totals(r, r.runId));
    if (r.trace !== '') parts.push(`<p class="note">Trace: <code>${h1(r.trace)}</code></p>`);
    if (r.finalMessage !== '') parts.push(`<p class="note">Final message:</p><div class="msg">${h(r.finalMessage.trim())}</div>`);
    if (r.structured !== undefined) parts.push(`<p class="note">Structured result:</p><pre>${h(JSON.stringify(r.structured.value, null, 2) ?? 'null')}</pre>`);
    parts.push('</section>');
    this.block(parts.join('\n'));
  }

  cut(totals: RunTotals, stopped = false): void {
    this.closeTurn();
    const [title, note] = stopped
      ? ['■ Stopped reading: no result yet', 'The viewer was stopped before the run’s <code>result</code>.']
      : ['✗ No result: the run was cut', 'The input ended without a <code>result</code> event.'];
    this.block(`<section class="result"><h2 class="bad">${title}</h2><p class="note">${note}</p>\n${this.totals(totals, '')}</section>`);
  }

  other(text: string): void {
    this.block(`<p class="other">· ${h1(text)}</p>`);
  }

  invalid(preview: string): void {
    this.block(`<p class="other warn">[invalid line] <code>${h1(preview.slice(0, 200))}</code></p>`);
  }

  endFile(): void {
    this.closeTurn();
  }

  end(): void {
    this.open();
    this.closeTurn();
    this.block('</main>\n</body>\n</html>');
  }
}

/** Usage as a table in the producer's convention. */
function usageTable(u: Tokens, caption = 'Usage'): string {
  const hit = cacheHitRatio(u);
  const cells = [
    formatCount(u.input_tokens),
    formatCount(u.cache_creation_tokens),
    formatCount(u.cache_read_tokens),
    formatCount(promptTokens(u)),
    formatCount(u.output_tokens),
    hit === null ? '–' : `${(hit * 100).toFixed(1)}%`,
  ];
  return (
    `<table class="usage"><caption class="note">${h1(caption)}</caption><tr><th>uncached input</th><th>cache write</th><th>cache read</th><th>prompt</th><th>output</th><th>cache hit</th></tr>` +
    `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr></table>`
  );
}
