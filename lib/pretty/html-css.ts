/**
 * The HTML transcript's only style sheet (inline: the page has no external
 * asset). Light by default, dark under `prefers-color-scheme: dark`.
 */
export const HTML_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #656d76; --line: #d0d7de;
  --code-bg: #f6f8fa; --accent: #0969da; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --agent: #8250df; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d;
    --code-bg: #161b22; --accent: #4493f8; --ok: #3fb950; --bad: #f85149; --warn: #d29922; --agent: #a371f7; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
main { max-width: 960px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 1.6em; margin: 0 0 8px; }
h2 { font-size: 1.25em; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
code { background: var(--code-bg); padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
  margin: 4px 0; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
dl.session { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px; }
dl.session dt { color: var(--muted); }
dl.session dd { margin: 0; }
.thread, .other, .turn-end, .muted { color: var(--muted); }
.msg { white-space: pre-wrap; overflow-wrap: anywhere; margin: 10px 0; }
.tool { border-left: 3px solid var(--accent); padding: 2px 0 2px 10px; margin: 10px 0; }
.tool.fail { border-left-color: var(--bad); }
.tool.open, .tool.removed { border-left-color: var(--warn); }
.tool.child, .agent, .child-note { border-left-color: var(--agent); }
.call { font-weight: 600; }
.call .name { color: var(--accent); }
.status { font-weight: normal; margin-left: 6px; }
.ok { color: var(--ok); }
.bad, .error { color: var(--bad); }
.warn { color: var(--warn); }
.tag { color: var(--agent); font-weight: 600; }
details > summary { cursor: pointer; color: var(--muted); }
.agent { border-left: 3px solid var(--agent); padding: 2px 0 2px 10px; margin: 10px 0; }
.agent blockquote { margin: 4px 0; padding: 0 10px; border-left: 2px solid var(--line); white-space: pre-wrap; }
.todo ul { list-style: none; padding-left: 8px; margin: 4px 0; }
.todo li.done { color: var(--muted); text-decoration: line-through; }
.file-change { margin: 2px 0; }
table.usage { border-collapse: collapse; margin: 6px 0; font-size: 13px; }
table.usage th, table.usage td { border: 1px solid var(--line); padding: 2px 8px; text-align: right; }
table.usage th { color: var(--muted); font-weight: normal; }
.result { margin-top: 28px; }
.result h2.ok { color: var(--ok); }
.result h2.bad { color: var(--bad); }
.note { color: var(--muted); font-size: 13px; }
`;
