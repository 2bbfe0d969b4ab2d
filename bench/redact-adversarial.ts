/**
 * `node dist/bench/redact-adversarial.js`: runs every wuu-redact rule, and
 * the whole engine (redaction and the delta hold-back search), on 8 MiB
 * adversarial strings built from each rule's own markers: long runs of
 * almost-matches that a backtracking regex would choke on. Prints the time of
 * each; linear rules take well under a second per case. Not a test (timings
 * never go in tests): test/redact.test.ts checks the rules' structure instead.
 */
import { holdPoint, Redactor } from '../lib/redact/index.js';
import { DEFAULT_RULES, EMAIL_RULE, HOME_RULES, PATH_RULES } from '../lib/redact/rules.js';
import type { RuleSpec } from '../lib/redact/rule-spec.js';

const SIZE = 8 * 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

/** Inputs that keep a rule busy: its markers repeated, followed by near-misses. */
function adversarial(rule: RuleSpec): Array<[string, string]> {
  const marker = rule.markers?.[0] ?? 'x';
  return [
    ['marker repeated', fill(marker)],
    ['marker + 19 token chars', fill(`${marker}${'a'.repeat(19)} `)],
    ['marker + long run', `${marker}${fill('a')}`],
    ['marker + separator spam', fill(`${marker}= :"' `)],
  ];
}

const generic: Array<[string, string]> = [
  ['letters', fill('abcdefghij')],
  ['local@ parts', fill('a.b_c-d+e@')],
  ['slashes', fill('/home/')],
  ['backslashes', fill('\\u0073k-')],
  ['base64', fill('eyJhbGciOiJIUzI1NiJ9')],
  ['key words', fill('tokenpasswordsecret')],
  ['pem headers', fill('-----BEGIN RSA PRIVATE KEY-----\nAAAA\n')],
  ['url creds', fill('://user:pass')],
];

function time(label: string, fn: () => void): void {
  const started = process.hrtime.bigint();
  fn();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`${label.padEnd(58)} ${ms.toFixed(0).padStart(7)} ms`);
}

const rules = [...DEFAULT_RULES, ...HOME_RULES, EMAIL_RULE, ...PATH_RULES];
console.log(`every rule alone, then the engine, on ${SIZE} characters`);
for (const rule of rules) {
  const re = new RegExp(rule.pattern, 'g');
  for (const [what, text] of adversarial(rule)) time(`${rule.name}: ${what}`, () => text.replace(re, 'X'));
}
const engine = new Redactor({ pathMode: 'all' });
engine.learnUser('alice');
engine.learnWorkspace('/home/alice/src/app');
for (const [what, text] of generic) {
  time(`engine text: ${what}`, () => engine.text(text, []));
  time(`engine hold-back: ${what}`, () => holdPoint(engine, text));
}
