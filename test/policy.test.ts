/**
 * The bad-line policy (lib/cli/policy.ts) as a pure table, and its flood
 * rule; the runner's and wuu-usage's use of it are tested through the
 * binaries (runner-inputs, usage-cli, check).
 */
import t from 'tap';
import { BAD_STREAK, BadLineLog, judgeBadLine, type BadLinePolicy } from '../lib/cli/policy.js';

t.test('judgeBadLine: every policy against every kind of bad line', async (t) => {
  const plain = { terminated: true };
  const cut = { terminated: false };
  const oversize = { terminated: true, oversizeBytes: 500 };
  const cutOversize = { terminated: false, oversizeBytes: 500 };
  const table: Array<[BadLinePolicy, [string, string, string, string]]> = [
    // [policy, [plain, cut last line, oversize, oversize cut last line]]
    [{ strict: false, passInvalid: false }, ['count', 'count', 'count', 'count']],
    [{ strict: true, passInvalid: false }, ['count', 'count', 'count', 'count']],
    // An oversize line has no bytes left to copy: it counts even under --pass-invalid.
    [{ strict: false, passInvalid: true }, ['pass', 'pass', 'count', 'count']],
    [{ strict: false, passInvalid: false, cutLineIsWarning: true }, ['count', 'warn', 'count', 'count']],
    // A cut last line is a fact about the run before it is a line to pass through.
    [{ strict: false, passInvalid: true, cutLineIsWarning: true }, ['pass', 'warn', 'count', 'count']],
    [{ strict: true, passInvalid: false, cutLineIsWarning: true }, ['count', 'warn', 'count', 'count']],
  ];
  for (const [policy, want] of table) {
    t.same([plain, cut, oversize, cutOversize].map((line) => judgeBadLine(policy, line)), want, JSON.stringify(policy));
  }
});

t.test('BadLineLog: at most BAD_STREAK in a row listed, one note, then the count', async (t) => {
  const out: string[] = [];
  const log = new BadLineLog((m) => out.push(m));
  for (let i = 1; i <= BAD_STREAK + 5; i++) log.bad('f', i, 'bad');
  t.equal(out.length, BAD_STREAK + 1);
  t.equal(out[0], 'f:1: bad');
  t.equal(out[BAD_STREAK - 1], `f:${BAD_STREAK}: bad`);
  t.equal(out[BAD_STREAK], `f: this does not look like a 'wuu exec --json' stream (${BAD_STREAK} bad lines in a row); not listing further bad lines`);
  log.good();
  log.bad('f', 100, 'bad again');
  t.equal(out.at(-1), 'f:100: bad again', 'a good line ends the streak');
  t.equal(log.count, BAD_STREAK + 6);
  t.equal(log.summary(), `${BAD_STREAK + 6} bad lines in all, 5 not listed`);
  const quiet = new BadLineLog(() => undefined);
  quiet.bad('f', 1, 'bad');
  t.equal(quiet.summary(), undefined, 'no summary when every bad line was listed');
});
