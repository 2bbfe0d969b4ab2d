/**
 * The HTML transcript in a real browser: Debian's chromium driven headless by
 * playwright-core. Every example stream and a hostile one are loaded from a
 * file:// URL; the test checks the DOM text (turn headings, tool names, final
 * status), that no script ran (a `window.__pwned` probe, console, page errors,
 * dialogs), that no request left the page, and that a screenshot is not blank
 * (its pixels are counted by decoding it in a second, script-enabled page).
 *
 * When no browser is found the test says so, and fails under CI (.ci/run
 * installs chromium and sets CI=1).
 */
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { escapeControls } from '../lib/text.js';
import { spec } from '../bin/wuu-pretty.js';
import { ROOT } from './helpers.js';
import { runIn } from './runner-harness.js';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const executablePath = CANDIDATES.find((p): p is string => p !== undefined && p !== '' && fs.existsSync(p));
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The page wuu-pretty --html writes for a file, run in-process (test/runner-harness.ts). */
async function htmlOf(file: string): Promise<string> {
  return (await runIn(spec, ['--html', file], '', { env: {} })).stdout;
}

/** What the page must show, read from the stream itself (not from the renderer). */
function expectations(file: string): { turns: number; tools: string[]; status: string } {
  const events: Array<Record<string, unknown>> = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    try {
      const e = JSON.parse(line) as unknown;
      if (typeof e === 'object' && e !== null) events.push(e as Record<string, unknown>);
    } catch {
      // a cut last line
    }
  }
  const turns = new Set(events.filter((e) => e.type === 'turn_started').map((e) => `${String(e.thread_id)}/${String(e.turn_id)}`)).size;
  const tools = [...new Set(events.filter((e) => e.type === 'tool_started' && e.name !== '').map((e) => String(e.name)))];
  const result = events.filter((e) => e.type === 'result').at(-1);
  return { turns, tools, status: result === undefined ? 'No result: the run was cut' : `Result: ${result.status === 'completed' ? '✓' : '✗'} ${String(result.status)}` };
}

/**
 * Distinct colours of a PNG, decoded by the browser itself in a separate
 * page (scripts allowed there, unlike in the transcript), one page for every
 * screenshot: a page costs the browser a context of its own.
 */
async function distinctColours(decoder: Page, png: Buffer): Promise<number> {
  return decoder.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, img.width, img.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < data.length; i += 4) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return seen.size;
  }, png.toString('base64'));
}

interface Watch {
  requests: string[];
  console: string[];
  errors: string[];
  dialogs: string[];
}

function watch(page: Page): Watch {
  const w: Watch = { requests: [], console: [], errors: [], dialogs: [] };
  page.on('request', (r) => w.requests.push(r.url()));
  page.on('console', (m) => w.console.push(m.text()));
  page.on('pageerror', (e) => w.errors.push(e.message));
  page.on('dialog', (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  return w;
}

t.test('the HTML transcript in chromium', async (t) => {
  if (executablePath === undefined) {
    const message = `no chromium found (looked for ${CANDIDATES.filter(Boolean).join(', ')}); install Debian's chromium or set CHROMIUM_PATH`;
    if (process.env.CI) t.fail(message);
    else t.comment(`SKIPPED: ${message}`);
    return;
  }
  const browser = await chromium.launch({ executablePath, args: ARGS });
  t.teardown(() => browser.close());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pretty-browser-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const examples = fs
    .readdirSync(path.join(ROOT, 'examples'))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => path.join(ROOT, 'examples', f));
  const hostile = path.join(ROOT, 'test', 'fixtures', 'pretty', 'hostile.jsonl');
  // A producer-faithful run with a sub-agent thread; the README's screenshot is taken from it.
  const faithful = path.join(ROOT, 'test', 'fixtures', 'pretty', 'run.jsonl');
  t.ok(examples.length >= 3, 'example streams found');
  const decoder = await browser.newPage();

  for (const file of [...examples, faithful, hostile]) {
    const name = file === faithful ? 'fixture-run.jsonl' : path.basename(file);
    const htmlFile = path.join(dir, `${name}.html`);
    if (fs.existsSync(htmlFile)) throw new Error(`two streams named ${name}`);
    fs.writeFileSync(htmlFile, await htmlOf(file));
    const url = pathToFileURL(htmlFile).href;
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width: 900, height: 900 }, colorScheme });
      const w = watch(page);
      await page.goto(url, { waitUntil: 'load' });
      const want = expectations(file);
      const headings = await page.locator('h2').allTextContents();
      t.same(
        headings.filter((h) => /^Turn \d+/.test(h)).length,
        want.turns,
        `${name} (${colorScheme}): one heading per turn`,
      );
      t.ok(headings.some((h) => h.includes(want.status)), `${name}: the final status "${want.status}"`);
      const toolNames = await page.locator('.call .name').allTextContents();
      for (const tool of want.tools) t.ok(toolNames.includes(escapeControls(tool)), `${name}: tool ${JSON.stringify(tool)} shown`);
      t.equal(await page.locator('script').count(), 0, `${name}: no script element`);
      t.equal(await page.locator('meta[http-equiv]').count(), 1, `${name}: one policy, no forged meta`);
      t.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined, `${name}: no script ran`);
      t.same([w.console, w.errors, w.dialogs], [[], [], []], `${name}: no console output, page error or dialog`);
      t.same(w.requests, [url], `${name}: no request but the document itself`);
      const png = await page.screenshot({ fullPage: false });
      const colours = await distinctColours(decoder, png);
      t.ok(colours > 20, `${name} (${colorScheme}): the screenshot is not blank (${colours} colours)`);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      t.equal(background, colorScheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)', `${name}: ${colorScheme} theme`);
      if (file === faithful && colorScheme === 'light' && process.env.UPDATE_DOCS_SCREENSHOT) {
        fs.writeFileSync(path.join(ROOT, 'docs', 'transcript.png'), await page.screenshot({ fullPage: false }));
      }
      await page.close();
    }
  }

  // The hostile page shows the attack as text.
  const page = await browser.newPage();
  await page.goto(pathToFileURL(path.join(dir, 'hostile.jsonl.html')).href);
  const text = (await page.locator('main').textContent()) ?? '';
  t.match(text, /<script>window\.__pwned=1<\/script>/, 'hostile markup shown as text');
  t.match(text, /\[click me\]\(javascript:window\.__pwned=3\)/);
  t.equal(await page.locator('a, img, iframe, svg, link, base').count(), 0, 'no element from the data');
  await page.close();
});
