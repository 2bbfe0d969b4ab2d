import t from 'tap';
import { exitCodeOf, isShellTool, OutputTrailer } from '../lib/exit-code.js';
import { literalEnd } from '../lib/accumulate/read.js';

/** The exit code of `pieces` as one output, appended in order. */
function codeOf(pieces: string[], status = 'completed'): number | null {
  const trailer = new OutputTrailer();
  for (const piece of pieces) trailer.append(piece);
  return exitCodeOf(trailer, status);
}

const SANDBOX =
  'The sandbox blocked a write outside the workspace boundary; do not retry it through another command. Use a workspace path, ask the user to add the directory as a workspace, or explain that the session must be switched to unconfined mode.';

t.test('the trailer rule: a table written from the producer\'s model view', async (t) => {
  const table: Array<[string, string[], string, number | null]> = [
    ['exit line at the end', ['FAIL test/cart.test.js\nExit code 1\n'], 'completed', 1],
    ['exit line without a newline', ['boom\nExit code 2'], 'completed', 2],
    ['exit line alone', ['Exit code 127\n'], 'completed', 127],
    ['trailing blank lines and spaces', ['x\nExit code 3\n\n  \r\n'], 'completed', 3],
    ['CRLF output', ['x\r\nExit code 4\r\n'], 'completed', 4],
    ['a negative code', ['killed\nExit code -1\n'], 'completed', -1],
    ['an explicit 0', ['migrated\nExit code 0\n'], 'completed', 0],
    ['the sandbox line follows the exit line', [`touch /etc/x\nExit code 1\n${SANDBOX}`], 'completed', 1],
    ['a success: output without an exit line', ['Tests: 42 passed\n'], 'completed', 0],
    ['a silent success', ['(no output)'], 'completed', 0],
    ['an exit line in the middle is output text', ['Exit code 2\nretrying... ok\n'], 'completed', 0],
    ['an exit line inside a line is output text', ['echo Exit code 2\n'], 'completed', 0],
    ['indented: not the status line', ['  Exit code 2\n'], 'completed', 0],
    ['lower case: not the status line', ['exit code 2\n'], 'completed', 0],
    ['a number too long to be a code', ['Exit code 1234567890123\n'], 'completed', 0],
    ['a background start', ['Running in background as process 4242. You will be notified when it exits.'], 'completed', null],
    ['a timeout', ['step 1\nTimed out after 2m00s; the command was stopped. Rerun a long-lived command with run_in_background.'], 'completed', null],
    ['no output at all', [], 'completed', null],
    ['blank output', ['\n  \n'], 'completed', null],
    ['a failed item without an exit line', ['curl: (6) Could not resolve host\n'], 'failed', null],
    ['a failed item with one', ['x\nExit code 6\n'], 'failed', 6],
    ['an incomplete item', ['seeding users... done\n'], 'incomplete', null],
    ['an incomplete item that already says', ['x\nExit code 9\n'], 'incomplete', 9],
  ];
  for (const [what, pieces, status, expected] of table) t.equal(codeOf(pieces, status), expected, what);
});

t.test('the trailer is read the same whatever the pieces', async (t) => {
  const text = 'line one\nline two\nExit code 12\n\n';
  for (const size of [1, 2, 3, 7, 100]) {
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
    t.equal(codeOf(pieces), 12, `pieces of ${size}`);
  }
  t.equal(codeOf(['Exit code 2\n', 'more\n']), 0, 'text after the exit line in a later piece');
  t.equal(codeOf(['Exit code 2', '\n', '\n']), 2, 'blank pieces after it');
  t.equal(codeOf(['Exit code 2', ' \n', 'x']), 0, 'a blank then text');
  t.equal(codeOf(['Exit', ' code 2']), 2, 'split inside the line');
});

t.test('memory stays bounded; a huge last line is never a trailer', async (t) => {
  const trailer = new OutputTrailer();
  for (let i = 0; i < 10_000; i++) trailer.append(`line ${i} ${'x'.repeat(50)}\n`);
  trailer.append('Exit code 5\n');
  t.equal(exitCodeOf(trailer, 'completed'), 5);
  t.ok(trailer.lastLines(1000).join('\n').length <= 2048, 'at most the window is held');
  // A 5000-character last line that ends like an exit line is not one.
  t.equal(codeOf([`${'y'.repeat(5000)}Exit code 2`]), 0);
  t.equal(codeOf(['a\n', `${'y'.repeat(5000)}`, 'Exit code 2\n']), 0);
});

t.test('appendEnd: the end of a piece read without its start', async (t) => {
  const trailer = new OutputTrailer();
  trailer.append('Exit code 1\n');
  trailer.appendEnd('tail of a long piece\nExit code 3\n', true);
  t.equal(exitCodeOf(trailer, 'completed'), 3);
  const cut = new OutputTrailer();
  cut.appendEnd('xExit code 3', true);
  t.equal(exitCodeOf(cut, 'completed'), 0, 'the first line of a partial end may be cut: not a trailer');
  const whole = new OutputTrailer();
  whole.appendEnd('Exit code 3', false);
  t.equal(exitCodeOf(whole, 'completed'), 3);
});

t.test('isShellTool', async (t) => {
  t.same(['bash', ' bash ', 'Bash', 'shell', '', null, undefined].map(isShellTool), [true, true, false, false, false, false, false]);
});

t.test('literalEnd decodes the end of a JSON string literal, outside escapes', async (t) => {
  const texts = [
    'plain ascii text that goes on and on\nExit code 2\n',
    'é'.repeat(40) + '\n' + '日本'.repeat(20) + '\nExit code 7\n',
    '\\'.repeat(33) + '"quoted"\n\t\u0001\u2028 \ud83d\ude00'.repeat(5) + '\nExit code 9\n',
    'a\\nb'.repeat(30),
  ];
  for (const text of texts) {
    const line = Buffer.from(JSON.stringify({ delta: text }));
    const open = line.indexOf('"', 9);
    const close = line.length - 2;
    for (let max = 1; max < line.length + 2; max++) {
      const end = literalEnd(line, open, close, max);
      if (end === undefined) {
        t.fail(`undefined at ${max} for ${JSON.stringify(text.slice(0, 20))}`);
        break;
      }
      // The decoded end is a suffix of the text (a lone low surrogate may open it).
      const suffix = end.text.replace(/^[\udc00-\udfff]/, '');
      if (!text.endsWith(suffix) || end.partial !== end.text.length < text.length) {
        t.fail(`max ${max}: ${JSON.stringify(end)}`);
        break;
      }
    }
  }
  t.equal(literalEnd(Buffer.from('"a\u0001b"'), 0, 4, 100), undefined, 'a raw control character is not JSON text');
  t.equal(literalEnd(Buffer.from(`"${'a'.repeat(50)}\u0001b"`), 0, 53, 5), undefined, 'nor in a partial end');
});
