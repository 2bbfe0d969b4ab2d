/**
 * The idempotence property of wuu-redact on 200 seeds, not one: redacting an
 * output again changes nothing, and --check passes on it. Each seed draws
 * fresh streams from the words that made properties fail before (key words,
 * separators, quotes, escapes, homes, placeholders' own characters, e-mail
 * parts split across pieces).
 */
import t from 'tap';
import fc from 'fast-check';
import { createRedact, type RedactOptions } from '../lib/redact/index.js';
import { LineRecord, type Output } from '../lib/jsonl.js';

function redactLines(lines: string[], options: RedactOptions = {}): { lines: string[]; status: number } {
  const core = createRedact({ log: () => {}, ...options });
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  lines.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'in.jsonl', i + 1), emit));
  core.endFile?.('in.jsonl', emit);
  core.end?.(emit);
  return { lines: out.map((o) => (typeof o === 'string' ? o.replace(/\n$/, '') : o.raw!.toString())), status: core.status?.() ?? 0 };
}

const words = [
  'Token := "', 'Authorization: Token ', '2|', 'Xk3sPq9aLm4nBv7cZx1', '"', "'", ' ', '=', ':', 'password', 'creds', 'TOKEN_LIMIT=4000',
  'sk-proj-', 'abc123def456ghi789jkl012', 'ghp_', '0123456789abcdefghijABCDEFGHIJ012345', 'Bearer ', '/home/', 'margarethe', '/x', '\\', '\n',
  '<', '>', 'secret', 'é', '{', '}', '-u ', 'root', '-p ', 'mongodb+srv:', '//u:', 'pw@h', '<apiToken>', '</apiToken>', '$t .= "',
  'alice.smith', '@', 'example.com', '\u001b[0m', 'path', 'pat', 'AKIA', 'IOSFODNN7EXAMPLE', 'eyJ', 'hbGciOiJIUzI1NiJ9', '.', '--',
  // Typed runs (`abc`, `789`) that the verdict leaves after a key, alone or glued to other pieces.
  'abc', '789', 'xoxp-1234-1234-1234-',
];
const text = fc.array(fc.constantFrom(...words), { maxLength: 10 }).map((w) => w.join(''));
const event = fc.oneof(
  text.map((delta) => ({ type: 'agent_message_delta', thread_id: 'th', turn_id: 'tu', delta })),
  text.map((delta) => ({ type: 'command_output_delta', thread_id: 'th', turn_id: 'tu', item_id: 'it', delta })),
  text.map((message) => ({ type: 'agent_message_final', thread_id: 'th', turn_id: 'tu', message })),
  text.map((a) => ({ type: 'tool_started', item_id: 'it', arguments: JSON.stringify({ command: a, n: 1.5 }, null, 2) })),
  fc.record({ type: fc.constant('todo_updated'), todo: fc.dictionary(text, text, { maxKeys: 3 }) }),
  text.map((cwd) => ({ type: 'thread_started', thread_id: 'th', cwd: `/home/margarethe/${cwd.slice(0, 8)}` })),
);

t.test('idempotent and --check-clean on 200 seeds', async (t) => {
  const failed: number[] = [];
  for (let seed = 1; seed <= 200; seed++) {
    const result = fc.check(
      fc.property(fc.array(event, { maxLength: 10 }), (events) => {
        const once = redactLines(events.map((e) => JSON.stringify(e))).lines;
        const twice = redactLines(once).lines;
        return redactLines(once, { check: true }).status === 0 && JSON.stringify(twice) === JSON.stringify(once);
      }),
      { numRuns: 25, seed },
    );
    if (result.failed) {
      failed.push(seed);
      t.comment(`seed ${seed}: ${JSON.stringify(result.counterexample)}`);
    }
  }
  t.same(failed, [], 'no seed fails');
});
