/**
 * The runner's option grammar and its answers to --help/--version, in process.
 */
import t from 'tap';
import { parseArgs, UsageError, type ToolSpec } from '../lib/cli/index.js';
import { spec as filter } from '../bin/wuu-filter.js';
import { spec as pretty } from '../bin/wuu-pretty.js';
import { spec as redact } from '../bin/wuu-redact.js';
import { spec as usage } from '../bin/wuu-usage.js';
import { failingStdout, runIn } from './runner-harness.js';

const EVENT = '{"thread_id":"t","type":"thread_started"}\n';

t.test('flags named like Object members are unknown options, not TypeErrors', async (t) => {
  for (const flag of ['--constructor', '--toString', '--__proto__', '--valueOf=1', '--hasOwnProperty', '--no-constructor', '-_']) {
    const r = await runIn(filter, [flag], EVENT);
    t.equal(r.code, 2, `${flag}: exit 2`);
    t.match(r.stderr, /^wuu-filter: (unknown option|option) .*\nTry 'wuu-filter --help' for more information\.\n$/, `${flag}: one usage message`);
    t.notMatch(r.stderr, /TypeError|internal error|\n\s+at /, `${flag}: no crash`);
  }
});

t.test('strict grammar: booleans take no value, --no-X only where negatable, value flags once', async (t) => {
  const cases: Array<[ToolSpec, string[], string]> = [
    [filter, ['--count=yes'], 'option --count takes no value'],
    [filter, ['--count=true'], 'option --count takes no value'],
    [filter, ['--no-count'], 'option --count cannot be negated (--no-count)'],
    [filter, ['--no-strict'], 'option --strict cannot be negated (--no-strict)'],
    [filter, ['--max-line-bytes', '1K', '--max-line-bytes', '2K'], 'option --max-line-bytes given more than once'],
    [filter, ['--max-line-bytes=1K', '--max-line-bytes=1K'], 'option --max-line-bytes given more than once'],
    [filter, ['--max-line-bytes'], 'option --max-line-bytes needs a value'],
    [filter, ['--max-line-bytes', '-x'], 'option --max-line-bytes needs a value'],
    [filter, ['-x'], 'unknown option -x'],
    [filter, ['-vx'], 'unknown option -x'],
    [filter, ['--max-line-bytes=0'], '--max-line-bytes must be at least 1'],
    [filter, ['--max-line-bytes=99999999999999999999'], "--max-line-bytes is too large: '99999999999999999999'"],
    [usage, ['-j', '2', '--jobs=3'], 'option --jobs given more than once'],
    [redact, ['--no-default-rules=1'], 'option --no-default-rules takes no value'],
    [usage, ['--breakdwn'], "unknown option --breakdwn; did you mean '--breakdown'?"],
    [filter, ['--invrt'], "unknown option --invrt; did you mean '--invert'?"],
    [filter, ['--keep-reslt=1'], "unknown option --keep-reslt; did you mean '--keep-result'?"],
    [pretty, ['--colour'], "unknown option --colour; did you mean '--color'?"],
    [filter, ['--zzzzzz'], 'unknown option --zzzzzz'],
    [filter, ['--v'], "unknown option --v"],
  ];
  for (const [spec, argv, message] of cases) {
    const r = await runIn(spec, argv, EVENT);
    t.equal(r.code, 2, `${argv.join(' ')}: exit 2`);
    t.equal(r.stderr.split('\n')[0], `${spec.name}: ${message}`, argv.join(' '));
  }
});

t.test('what stays allowed: repeatable flags, negatable flags, clusters, attached values, --', async (t) => {
  const spec = { flags: { string: ['where', 'jobs', 'color'], boolean: ['invert', 'default-rules'], alias: { v: 'invert', j: 'jobs' }, repeatable: ['where'], negatable: ['color'], defaults: { 'default-rules': true } } };
  const { flags, positionals } = parseArgs(spec, ['--where', 'a', '--where=b', '-vj4', '--no-default-rules', '--no-color', '--', '--where', '-']);
  t.same(flags.list('where'), ['a', 'b']);
  t.equal(flags.bool('invert'), true);
  t.equal(flags.string('jobs'), '4');
  t.equal(flags.bool('default-rules'), false);
  t.equal(flags.string('color'), 'false');
  t.same(positionals, ['--where', '-']);
  t.equal(flags.has('constructor'), false, 'Object members are no flags');
  t.equal(flags.string('toString'), undefined);
  t.throws(() => parseArgs(spec, ['--no-invert']), UsageError);
  const r = await runIn(pretty, ['--no-color'], EVENT);
  t.equal(r.code, 0, 'wuu-pretty --no-color');
});

t.test('a value flag whose value may be left out: the next argument only when the test takes it', async (t) => {
  const spec = { flags: { string: ['where'], boolean: ['invert'], optionalValue: { report: (next: string) => next.endsWith('.out') } } };
  const cases: Array<[string[], string | undefined, string[]]> = [
    [['--report', 'a.out', 'in.jsonl'], 'a.out', ['in.jsonl']],
    [['--report', 'in.jsonl'], '', ['in.jsonl']],
    [['--report'], '', []],
    [['--report', '--invert', 'x.out'], '', ['x.out']],
    [['--report', '-'], '', ['-']],
    [['--report=in.jsonl', 'x'], 'in.jsonl', ['x']],
    [['--report='], '', []],
    [['x.out'], undefined, ['x.out']],
    [['--', '--report', 'a.out'], undefined, ['--report', 'a.out']],
  ];
  for (const [argv, value, positionals] of cases) {
    const parsed = parseArgs(spec, argv);
    t.same([parsed.flags.string('report'), parsed.positionals], [value, positionals], argv.join(' '));
  }
  t.equal(parseArgs(spec, ['--report']).flags.has('report'), true, 'bare: given');
  t.throws(() => parseArgs(spec, ['--report', 'a.out', '--report']), /option --report given more than once/);
});

t.test('--help and --version: output errors are reported, a closed pipe is quiet', async (t) => {
  for (const flag of ['--help', '--version']) {
    const full = await runIn(filter, [flag], '', { stdout: failingStdout('ENOSPC') });
    t.equal(full.code, 1, `${flag} into /dev/full: non-zero`);
    t.equal(full.stderr, 'wuu-filter: write error: No space left on device\n', `${flag}: says why`);
    const closed = await runIn(filter, [flag], '', { stdout: failingStdout('EPIPE') });
    t.equal(closed.code, 0, `${flag} into a closed pipe: exit 0`);
    t.equal(closed.stderr, '', `${flag} into a closed pipe: quiet`);
  }
  const version = await runIn(filter, ['--version']);
  t.match(version.stdout, /^wuu-filter \d+\.\d+\.\d+\n$/);
});

t.test('a tool whose set-up fails says why in one line, exit 2, no stack', async (t) => {
  const broken: ToolSpec = {
    name: 'wuu-broken',
    summary: '',
    usage: 'Usage: wuu-broken',
    create() {
      throw new Error('rules.json: \u001b]0;pwned\u0007 is not a rule file');
    },
  };
  const { code, stderr: text } = await runIn(broken, [], '', { env: {} });
  t.equal(code, 2);
  t.equal(text, 'wuu-broken: rules.json: \\e]0;pwned\\x07 is not a rule file\n');
});
