/**
 * The walk's raw test per string (walk.ts WalkOptions.raw): on a line that
 * Core.proves proved valid, a string of the line whose bytes hold no marker
 * is neither decoded nor scanned. Outputs, findings, --check lines and
 * counts must be those of the walk that scans every string (the same lines
 * pushed without the proof).
 */
import t from 'tap';
import fc from 'fast-check';
import { createRedact, type Finding, type RedactOptions } from '../lib/redact/index.js';
import { LineRecord, type Output } from '../lib/jsonl.js';
import { FC_SEED } from './helpers.js';

/** Runs the core over lines; `prove`: ask Core.proves first, as the runner does. */
function run(lines: readonly string[], options: RedactOptions, prove: boolean): string[] {
  const log: string[] = [];
  const found: Finding[] = [];
  const core = createRedact({ ...options, log: (l) => log.push(l), findings: options.findings === undefined ? undefined : (f) => found.push(f) });
  const out: string[] = [];
  const emit = (o: Output) => out.push(typeof o === 'string' ? o : (o.raw ?? Buffer.from(JSON.stringify(o.event))).toString());
  lines.forEach((line, i) => {
    const rec = new LineRecord(Buffer.from(line), 'in.jsonl', i + 1);
    if (!prove || !core.proves?.(rec)) rec.validate();
    core.push(rec, emit);
  });
  core.end?.(emit);
  return [...out, ...log, ...found.map((f) => JSON.stringify(f)), `status ${core.status?.() ?? 0}`];
}

const PIECES = [
  'plain words',
  'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  'sk-proj-abc123def456ghi789jkl012mno345',
  'AKIAIOSFODNN7EXAMPLF',
  'glpat-abcdefghij0123456789',
  '/home/alice/src/app/x.ts',
  '/home/alice',
  'alice',
  '/Users/bob/work',
  'bob wrote',
  'mail carol@example.com',
  'password=hunter2xyz',
  '\u0073k-proj-abc123def456ghi789jkl012mno345',
  '\\u0073k-proj-abc123def456ghi789jkl012mno345',
  'path\\/to\\/home',
  '<secret:github-token>',
  'é café',
  '"quoted"',
  '\n',
];
const KEYS = ['note', 'path', 'password', 'api_key', 'token', 'x', 'home', 'ghp_0123456789abcdefghijABCDEFGHIJ012345', 'thread_id', 'type'];

const text = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 4 }).map((p) => p.join(' '));
const value: fc.Arbitrary<unknown> = fc.oneof(
  text,
  fc.integer(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...KEYS), text, { maxKeys: 3 }),
  // JSON inside a string (tool arguments).
  fc.dictionary(fc.constantFrom(...KEYS), text, { maxKeys: 3 }).map((o) => JSON.stringify(o)),
);
const event = fc
  .tuple(
    fc.constantFrom('tool_started', 'file_changed', 'turn_completed', 'agent_message_delta', 'session_configured', 'x_event'),
    fc.dictionary(fc.constantFrom(...KEYS, 'arguments', 'cwd', 'workspace_root', 'delta'), value, { maxKeys: 4 }),
  )
  .map(([type, fields]) => {
    const e: Record<string, unknown> = { ...fields, thread_id: 'th', turn_id: 'tu', type };
    if (type === 'agent_message_delta') e.delta = typeof fields.delta === 'string' ? fields.delta : 'piece ';
    if (type === 'session_configured') e.workspace_root = '/home/alice/src/app';
    return JSON.stringify(e);
  });

t.test('property: the raw test per string changes nothing', async (t) => {
  const options: Array<[string, RedactOptions]> = [
    ['default', {}],
    ['--report-path', { findings: () => {} }],
    ['--check', { check: true }],
    ['--paths all', { pathMode: 'all' }],
    ['--pseudonymize', { pseudonymize: true }],
  ];
  for (const [name, opts] of options) {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 6 }), (lines) => JSON.stringify(run(lines, opts, true)) === JSON.stringify(run(lines, opts, false))),
      { numRuns: 150, seed: FC_SEED },
    );
    t.pass(name);
  }
});

t.test('a key that names a secret: its value is redacted though it holds no marker', async (t) => {
  const line = '{"password":"hunter2xyzQ7","thread_id":"th","type":"x_event"}';
  const [out] = run([line], {}, true);
  t.notMatch(out, /hunter2/, 'redacted on the proven path');
  t.same(run([line], {}, true), run([line], {}, false));
});
