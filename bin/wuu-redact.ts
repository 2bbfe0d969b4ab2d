#!/usr/bin/env node
import fs from 'node:fs';
import { Allowlist, createRedact, DEFAULT_RULES, DEFAULT_SALT, JsonPathError, parsePatternOption, parseRuleFile, RuleError, type Finding, type PathMode, type RuleSpec } from '../lib/redact/index.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/cli/index.js';

const ruleNames = [...new Set(DEFAULT_RULES.map((r) => r.name))];

/** Words joined with ', ' and wrapped at 78 columns (the rule list in --help). */
function wrapList(lead: string, words: readonly string[]): string {
  const lines: string[] = [];
  let line = lead;
  words.forEach((word, i) => {
    const item = `${word}${i === words.length - 1 ? '.' : ','}`;
    if (line.length + 1 + item.length > 78) {
      lines.push(line);
      line = `  ${item}`;
    } else line = line === '' ? item : `${line} ${item}`;
  });
  lines.push(line);
  return lines.join('\n');
}

/** A file's error as a user reads it. */
function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'No such file or directory' : code === 'EACCES' ? 'Permission denied' : code === 'EISDIR' ? 'Is a directory' : (err as Error).message;
}

/** The text of a file an option names; a usage error when it cannot be read. */
function readOption(option: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${option} ${file}: ${describe(err)}`);
  }
}

/** Names of the process's own standard output and error: never an input after `--report`. */
const STDOUT_NAMES: ReadonlySet<string> = new Set(['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']);
const STDERR_NAMES: ReadonlySet<string> = new Set(['/dev/stderr', '/dev/fd/2', '/proc/self/fd/2']);

/**
 * Whether the argument after `--report` is the findings file rather than an
 * input. `--report` alone (counts on stderr) came first, so an argument that
 * can be read as an input stays one: a JSONPath, a directory, a file with
 * events. A new file, an empty one or an earlier findings report is the
 * report's: no command line that worked changes meaning, no input is
 * overwritten.
 */
function isReportFile(next: string): boolean {
  if (next.startsWith('$')) return false;
  // The tool's own output devices: as an input each would read what the tool writes (and wait forever).
  if (STDOUT_NAMES.has(next) || STDERR_NAMES.has(next)) return true;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(next);
  } catch {
    return true; // nothing there: as an input it would have been an error
  }
  if (!stat.isFile()) return false;
  if (stat.size === 0) return true;
  const head = Buffer.alloc(Math.min(stat.size, 4096));
  try {
    const fd = fs.openSync(next, 'r');
    try {
      fs.readSync(fd, head, 0, head.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false; // unreadable: reported as an input
  }
  return /^\{"file":.*"fingerprint":"[0-9a-f]{16}"/.test(head.toString('latin1'));
}

export const spec: ToolSpec = {
  name: 'wuu-redact',
  summary: 'remove secrets and private paths, keep the stream valid',
  usage: `Usage: wuu-redact [OPTION]... [JSONPATH]... [FILE]...
Make a log safe to share: the same events, in the same order and structure,
with secrets, home directories, user names, the workspace path and e-mail
addresses replaced by placeholders (<secret:RULE>, ~, <user>, <workspace>,
<email>). Every string is checked at any depth, inside JSON-encoded strings
(arguments) too. Events with nothing to redact are written byte for byte.
An argument starting with '$' is a JSONPath whose values are censored
("<redacted>"); other arguments are input files.

${wrapList('Built-in rules:', ruleNames)}

Options:
      --remove           delete the fields the JSONPATHs select instead
      --pattern NAME=RE  add a rule: matches of the RE2 regex RE become
                         <secret:NAME> (repeatable)
      --rules FILE       add the rules of a JSON file: [{"name": ..,
                         "pattern": .., "flags": ..}] (repeatable)
      --no-default-rules use only the rules given with --pattern and --rules
      --paths MODE       home (default): home dirs, user names, workspace and
                         e-mail; all: also every absolute path; none: neither
      --pseudonymize     stable placeholders per distinct value
                         (<secret:RULE:1a2b3c4d>), keyed by --salt
      --salt TEXT        HMAC key for --pseudonymize and fingerprints (default:
                         a public salt; use a per-project secret)
      --report [FILE]    with FILE: write every finding to FILE as JSON lines:
                         {"file", "line", "path", "rule", "fingerprint"}; never
                         the secret, only 16 hex digits of HMAC-SHA256(salt,
                         value). FILE is a new file, an empty one, an earlier
                         report or /dev/stderr (an existing file of events is
                         an input; use --report=FILE to overwrite it). Without
                         FILE: print counts per rule and per event type on
                         stderr
      --report-path FILE the same as --report=FILE
      --allow FILE       leave alone the values FILE lists (repeatable): one
                         per line, a literal value or a fingerprint from
                         --report; blank lines and '#' lines are ignored
      --check            write nothing; print FILE:LINE: RULE on stderr for
                         each finding and exit 1 when there is any

A secret split across delta pieces of one stream is caught: a piece that
ends with a possible secret start waits for the next piece of its stream;
the event count and order never change. User patterns run on RE2 (linear
time). Lines over --max-line-bytes are redacted in a streaming pass.
Invalid lines are dropped (the default) or, with --pass-invalid, redacted as
text.

Examples:
  wuu exec --json "fix the tests" | wuu-redact > share.jsonl
  wuu-redact --check run.jsonl
  wuu-redact --report '$..arguments' run.jsonl > share.jsonl
  wuu-redact --report findings.jsonl run.jsonl > share.jsonl`,
  flags: {
    string: ['pattern', 'rules', 'paths', 'salt', 'report-path', 'allow'],
    boolean: ['remove', 'default-rules', 'pseudonymize', 'check'],
    optionalValue: { report: isReportFile },
    repeatable: ['pattern', 'rules', 'allow'],
    defaults: { 'default-rules': true },
  },
  create({ flags, positionals, warn }) {
    const paths = positionals.filter((arg) => arg.startsWith('$'));
    const inputs = positionals.filter((arg) => !arg.startsWith('$'));
    const mode = flags.string('paths') ?? 'home';
    if (mode !== 'home' && mode !== 'all' && mode !== 'none') throw new UsageError(`--paths takes home, all or none, not '${mode}'`);
    const reportFile = flags.string('report') || undefined;
    if (reportFile !== undefined && flags.has('report-path')) throw new UsageError('--report FILE and --report-path FILE name the same report; give one');
    const reportPath = reportFile ?? flags.string('report-path');
    const reportOption = reportFile !== undefined ? '--report' : '--report-path';
    if (flags.has('salt') && !flags.bool('pseudonymize') && reportPath === undefined && flags.list('allow').length === 0) {
      throw new UsageError('--salt only makes sense with --pseudonymize');
    }
    if (flags.bool('remove') && paths.length === 0) throw new UsageError('--remove needs a JSONPath argument (such as $..arguments)');
    const salt = flags.string('salt');
    if (salt === '') throw new UsageError('--salt must not be empty');
    if (flags.bool('pseudonymize') && salt === undefined) {
      warn(`warning: --pseudonymize without --salt uses the public salt '${DEFAULT_SALT}': anyone can confirm a guessed value; pass --salt with a per-project secret`);
    }
    try {
      const rules: RuleSpec[] = [];
      for (const file of flags.list('rules')) rules.push(...parseRuleFile(readOption('--rules', file), file));
      for (const text of flags.list('pattern')) rules.push(parsePatternOption(text));
      const entries: string[] = [];
      for (const file of flags.list('allow')) entries.push(...Allowlist.parse(readOption('--allow', file), salt ?? DEFAULT_SALT).entries());
      const allow = entries.length > 0 ? new Allowlist(entries, salt ?? DEFAULT_SALT) : undefined;
      let findings: ((finding: Finding) => void) | undefined;
      if (reportPath !== undefined) {
        if (reportPath === '') throw new UsageError(`${reportOption} needs a file name`);
        if (STDOUT_NAMES.has(reportPath)) throw new UsageError(`${reportOption} ${reportPath}: the redacted events go to standard output; name another file, or /dev/stderr`);
        let fd = -1;
        try {
          // Standard error by name: written through the process's own stream (a socket there cannot be opened by name).
          if (!STDERR_NAMES.has(reportPath)) fd = fs.openSync(reportPath, 'w');
        } catch (err) {
          throw new UsageError(`${reportOption} ${reportPath}: ${describe(err)}`);
        }
        findings = fd < 0 ? (finding) => process.stderr.write(`${JSON.stringify(finding)}\n`) : (finding) => fs.writeSync(fd, `${JSON.stringify(finding)}\n`);
      }
      const core = createRedact({
        paths,
        remove: flags.bool('remove'),
        rules,
        defaultRules: flags.bool('default-rules'),
        pathMode: mode as PathMode,
        pseudonymize: flags.bool('pseudonymize'),
        salt,
        report: flags.string('report') === '',
        check: flags.bool('check'),
        log: warn,
        findings,
        allow,
      });
      return { core, inputs };
    } catch (err) {
      if (err instanceof JsonPathError || err instanceof RuleError) throw new UsageError(err.message);
      throw err;
    }
  },
};

runIfMain(spec, import.meta.url);
