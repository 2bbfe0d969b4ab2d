#!/usr/bin/env node
import fs from 'node:fs';
import { createRedact, DEFAULT_RULES, DEFAULT_SALT, JsonPathError, parsePatternOption, parseRuleFile, RuleError, type PathMode, type RuleSpec } from '../lib/redact/index.js';
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
      --salt TEXT        HMAC key for --pseudonymize (default: a public salt;
                         use a per-project secret)
      --report           print counts per rule and per event type on stderr
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
  wuu-redact --report '$..arguments' run.jsonl > share.jsonl`,
  flags: {
    string: ['pattern', 'rules', 'paths', 'salt'],
    boolean: ['remove', 'default-rules', 'pseudonymize', 'report', 'check'],
    repeatable: ['pattern', 'rules'],
    defaults: { 'default-rules': true },
  },
  create({ flags, positionals, warn }) {
    const paths = positionals.filter((arg) => arg.startsWith('$'));
    const inputs = positionals.filter((arg) => !arg.startsWith('$'));
    const mode = flags.string('paths') ?? 'home';
    if (mode !== 'home' && mode !== 'all' && mode !== 'none') throw new UsageError(`--paths takes home, all or none, not '${mode}'`);
    if (flags.has('salt') && !flags.bool('pseudonymize')) throw new UsageError('--salt only makes sense with --pseudonymize');
    if (flags.bool('remove') && paths.length === 0) throw new UsageError('--remove needs a JSONPath argument (such as $..arguments)');
    const salt = flags.string('salt');
    if (salt === '') throw new UsageError('--salt must not be empty');
    if (flags.bool('pseudonymize') && salt === undefined) {
      warn(`warning: --pseudonymize without --salt uses the public salt '${DEFAULT_SALT}': anyone can confirm a guessed value; pass --salt with a per-project secret`);
    }
    try {
      const rules: RuleSpec[] = [];
      for (const file of flags.list('rules')) {
        let text: string;
        try {
          text = fs.readFileSync(file, 'utf8');
        } catch (err) {
          throw new UsageError(`--rules ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file or directory' : (err as Error).message}`);
        }
        rules.push(...parseRuleFile(text, file));
      }
      for (const text of flags.list('pattern')) rules.push(parsePatternOption(text));
      const core = createRedact({
        paths,
        remove: flags.bool('remove'),
        rules,
        defaultRules: flags.bool('default-rules'),
        pathMode: mode as PathMode,
        pseudonymize: flags.bool('pseudonymize'),
        salt,
        report: flags.bool('report'),
        check: flags.bool('check'),
        log: warn,
      });
      return { core, inputs };
    } catch (err) {
      if (err instanceof JsonPathError || err instanceof RuleError) throw new UsageError(err.message);
      throw err;
    }
  },
};

runIfMain(spec, import.meta.url);
