/**
 * wuu-redact's engine (issue 11): assignment shapes, settings kept, byte-exact
 * patching of encoded text, user names only from evidence, idempotence as a
 * property, big strings, linear user patterns, JSONPath, look-alikes.
 */
import t from 'tap';
import fc from 'fast-check';
import { createRedact, Redactor, type RedactOptions } from '../lib/redact/index.js';
import { parsePatternOption } from '../lib/redact/rule-spec.js';
import { LineRecord, type Output } from '../lib/jsonl.js';
import { spec } from '../bin/wuu-redact.js';
import { FC_SEED } from './helpers.js';
import { runIn } from './runner-harness.js';

/** Runs the core over JSONL lines; returns output lines as written and the status. */
function redactLines(lines: string[], options: RedactOptions = {}): { lines: string[]; status: number; log: string[] } {
  const log: string[] = [];
  const core = createRedact({ log: (l) => log.push(l), ...options });
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  lines.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'in.jsonl', i + 1), emit));
  core.endFile?.('in.jsonl', emit);
  core.end?.(emit);
  const text = out.map((o) => (typeof o === 'string' ? o.replace(/\n$/, '') : o.raw!.toString()));
  return { lines: text, status: core.status?.() ?? 0, log };
}

/** The binary in this process (test/runner-harness.ts). */
const bin = (argv: string[], input: string) => runIn(spec, argv, input);

const ev = (fields: Record<string, unknown>) => JSON.stringify(fields);
const S = 's3cr3tValue9x';

t.test('assignments the generic rules recognise', async (t) => {
  const table: Array<[string, string]> = [
    [`TOKEN          =  "${S}"`, 'TOKEN          =  "<secret:key-value>"'],
    [`creds = "${S}"`, 'creds = "<secret:key-value>"'],
    [`<add key="ApiToken" value="${S}"/>`, '<add key="ApiToken" value="<secret:key-value>"/>'],
    [`<config><xToken>${S}</xToken></config>`, '<config><xToken><secret:key-value></xToken></config>'],
    [`System.setProperty("X_TOKEN","${S}");`, 'System.setProperty("X_TOKEN","<secret:key-value>");'],
    [`$token .= "${S}";`, '$token .= "<secret:key-value>";'],
    [`TOKEN ::= ${S}`, 'TOKEN ::= <secret:key-value>'],
    [`API_TOKEN ?= ${S}`, 'API_TOKEN ?= <secret:key-value>'],
    [`var apiToken string = "${S}"`, 'var apiToken string = "<secret:key-value>"'],
    [`const token: string = "${S}";`, 'const token: string = "<secret:key-value>";'],
    [`curl -u admin:${S} https://example.com`, 'curl -u admin:<secret:cli-password> https://example.com'],
    [`mysql -u root -p ${S} db`, 'mysql -u root -p <secret:cli-password> db'],
    [`credential: password = ${S}`, 'credential: password = <secret:key-value>'],
    [`./deploy --api-token ${S} --verbose`, './deploy --api-token <secret:key-value> --verbose'],
    [`password = "${'a'.repeat(700)}TAIL"`, 'password = "<secret:key-value>"'],
    [`PASSWORD=${'b'.repeat(900)}TAIL next`, 'PASSWORD=<secret:key-value> next'],
    ['private_key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nq83vEF==\n-----END RSA PRIVATE KEY-----"', 'private_key = "<secret:private-key>"'],
    ['Authorization: Token 2|Xk3sPq9aLm4nBv7cZx1', 'Authorization: Token <secret:authorization>'],
    [`mongodb+srv://app:${S}@cluster0.example.net/db`, 'mongodb+srv://app:<secret:url-password>@cluster0.example.net/db'],
  ];
  const r = new Redactor();
  for (const [input, expected] of table) t.equal(r.text(input, []), expected, input.slice(0, 60));
});

t.test('settings and references after a key name are not secrets', async (t) => {
  const r = new Redactor();
  for (const text of [
    'token_type: Bearer',
    'TOKEN_LIMIT=4000',
    'PASSWORD_MIN_LENGTH=12',
    'api_key_env: OPENAI_API_KEY',
    'password: ${DB_PASSWORD}',
    'token = process.env.GITHUB_TOKEN',
    'secret: ********',
    'auth: required',
    'git push -u origin main',
    'mkdir -p /tmp/build && tar -xzf x.tgz',
    'max_tokens: 4096',
  ]) {
    t.equal(r.text(text, []), text, text);
  }
});

t.test('a secret after a key is cut at every point across two deltas: nothing leaks', async (t) => {
  const texts = [
    'Authorization: Token 2|Xk3sPq9aLm4nBv7cZx1 ok',
    `url mongodb+srv://app:${S}@cluster0.example.net/db`,
    `credential: password = ${S} done`,
  ];
  for (const text of texts) {
    const secret = /2\|Xk3sPq9aLm4nBv7cZx1|s3cr3tValue9x/.exec(text)![0];
    for (let cut = 1; cut < text.length; cut++) {
      const pieces = [text.slice(0, cut), text.slice(cut)].map((delta) => ev({ delta, thread_id: 'th', turn_id: 'tu', type: 'agent_message_delta' }));
      const out = redactLines([...pieces, ev({ thread_id: 'th', turn_id: 'tu', type: 'turn_completed' })]).lines;
      const joined = out.map((l) => JSON.parse(l) as { delta?: string }).map((e) => e.delta ?? '').join('');
      for (let k = 0; k + 6 <= secret.length; k++) {
        if (joined.includes(secret.slice(k, k + 6))) {
          t.fail(`cut ${cut} of ${JSON.stringify(text)} leaks ${JSON.stringify(joined)}`);
          break;
        }
      }
    }
  }
  t.pass('every cut checked');
});

t.test('byte-exact: only the secret bytes change, JSON in strings is patched in its encoded text', async (t) => {
  const args = '{\n  "command": "export API_TOKEN=' + S + '",\n  "big": 12345678901234567890123,\n  "price": 1.50,\n  "e": 1E+2\n}\n';
  const line = `{"arguments":${JSON.stringify(args)},"item_id":"c1","name":"bash","thread_id":"th","turn_id":"tu","type":"tool_started"}`;
  const out = redactLines([line]).lines[0]!;
  t.equal(out, line.replace(S, '\\u003csecret:key-value\\u003e'), 'one span replaced, Go escaping kept, the rest byte for byte');
  const withLt = line.replace('"th"', '"<th>"');
  t.equal(redactLines([withLt]).lines[0], withLt.replace(S, '<secret:key-value>'), 'a line with literal < keeps literal placeholders');
  // Escapes inside the secret's neighbourhood: \u-escaped text maps back exactly.
  const escaped = '{"message":"key \\u0073k-proj-abc123def456ghi789jkl012mno345 \\u00e9t\\u00e9 1.50","type":"agent_message_final"}';
  t.equal(redactLines([escaped]).lines[0], '{"message":"key \\u003csecret:openai-key\\u003e \\u00e9t\\u00e9 1.50","type":"agent_message_final"}');
  // Top level: numbers and layout of the event itself survive too.
  const top = `{ "type": "tool_completed", "n": 123456789012345678901, "f": 2.10, "error": "password=${S}" }`;
  t.equal(redactLines([top]).lines[0], top.replace(S, '\\u003csecret:key-value\\u003e'));
  const clean = '{"arguments":"{\\"n\\": 1.50}","type":"tool_started","thread_id":"th"}';
  t.equal(redactLines([clean]).lines[0], clean, 'unchanged events stay byte for byte');
});

t.test('user names come only from evidence, never from common words', async (t) => {
  const lines = [
    ev({ type: 'session_configured', workspace_root: '/home/dev/src/app', cwd: '/home/dev/src/app' }),
    ev({ type: 'agent_message_final', message: 'see /home/dev/notes and C:\\Users\\you\\x and /Users/admin/y' }),
    ev({ type: 'agent_message_final', message: 'did you know the dev server is up? ask admin' }),
    ev({ type: 'agent_message_final', message: 'files in /home/margarethe/src; margarethe said hi' }),
  ];
  const out = redactLines(lines).lines.map((l) => (JSON.parse(l) as { message?: string }).message);
  t.equal(out[1], 'see ~/notes and ~\\x and ~/y', 'the paths themselves are still redacted');
  t.equal(out[2], 'did you know the dev server is up? ask admin', 'common words stay');
  t.equal(out[3], 'files in ~/src; <user> said hi', 'a real name is learned');
});

t.test('property: redact(redact(x)) == redact(x) and --check passes on any output', async (t) => {
  const words = [
    'Token := "', 'Authorization: Token ', '2|', 'Xk3sPq9aLm4nBv7cZx1', '"', ' ', '=', ':', 'password', 'creds', 'TOKEN_LIMIT=4000',
    'sk-proj-', 'abc123def456ghi789jkl012', 'Bearer ', '/home/', 'margarethe', '/x', '\\', '\n', '<', '>', 'secret', 'é', '{', '}',
    '-u ', 'root', '-p ', 'mongodb+srv:', '//u:', 'pw@h', '<apiToken>', '</apiToken>', '$t .= "',
  ];
  const text = fc.array(fc.constantFrom(...words), { maxLength: 10 }).map((w) => w.join(''));
  const event = fc.oneof(
    text.map((delta) => ({ type: 'agent_message_delta', thread_id: 'th', turn_id: 'tu', delta })),
    text.map((delta) => ({ type: 'command_output_delta', thread_id: 'th', turn_id: 'tu', item_id: 'it', delta })),
    text.map((message) => ({ type: 'agent_message_final', thread_id: 'th', turn_id: 'tu', message })),
    text.map((a) => ({ type: 'tool_started', item_id: 'it', arguments: JSON.stringify({ command: a, n: 1.5 }, null, 2) })),
    fc.record({ type: fc.constant('todo_updated'), todo: fc.dictionary(text, text, { maxKeys: 3 }) }),
  );
  fc.assert(
    fc.property(fc.array(event, { maxLength: 10 }), (events) => {
      const once = redactLines(events.map((e) => JSON.stringify(e))).lines;
      const twice = redactLines(once).lines;
      const check = redactLines(once, { check: true });
      return check.status === 0 && JSON.stringify(twice) === JSON.stringify(once);
    }),
    { numRuns: 400, seed: FC_SEED },
  );
  const out = redactLines([ev({ type: 'agent_message_final', message: 'Token := "abcdef123456" and Authorization: Token 2|Xk3sPq9aLm4nBv7cZx1' })]).lines;
  const r = await bin(['--check'], `${out.join('\n')}\n`);
  t.same([r.code, r.stderr], [0, ''], '--check exits 0 on the output');
});

t.test('big strings: no call-stack limits', async (t) => {
  const many = 'sk-proj-abc123def456ghi789jkl012mno345 '.repeat(125_000);
  const out = redactLines([ev({ type: 'agent_message_final', message: many })]);
  t.equal(out.lines.length, 1);
  t.equal((JSON.parse(out.lines[0]!) as { message: string }).message, '<secret:openai-key> '.repeat(125_000));
  const delta = 'password=k9w '.repeat(200_000).slice(0, 4 * 1024 * 1024);
  const d = redactLines([ev({ type: 'agent_message_delta', thread_id: 'th', turn_id: 'tu', delta }), ev({ type: 'turn_completed', thread_id: 'th', turn_id: 'tu' })]);
  const joined = d.lines.map((l) => (JSON.parse(l) as { delta?: string }).delta ?? '').join('');
  t.notMatch(joined, /password=k9w/, 'a 4 MiB delta with 200k hits is redacted');
  t.match(joined, /^(?:password=<secret:key-value> )+/);
});

t.test('user patterns run on RE2: a catastrophic pattern stays linear, what RE2 cannot do is refused', async (t) => {
  const rule = parsePatternOption('evil=x=(a+)+$');
  const text = `x=${'a'.repeat(200_000)}b`;
  const started = Date.now();
  const out = redactLines([ev({ type: 'agent_message_final', message: text })], { rules: [rule] });
  t.equal(out.lines.length, 1);
  t.ok(Date.now() - started < 20_000, 'finishes (a backtracking engine would not, in any lifetime)');
  const r = await bin(['--pattern', 'x=(a)\\1'], '');
  t.equal(r.code, 2);
  t.match(r.stderr, /linear-time engine/);
});

t.test('JSONPath censoring: deltas, unions, nested paths; a malformed path is a usage error', async (t) => {
  const delta = ev({ delta: 'hello', thread_id: 'th', turn_id: 'tu', type: 'agent_message_delta' });
  t.equal(JSON.parse(redactLines([delta], { paths: ['$..delta'] }).lines[0]!).delta, '<redacted>');
  const call = ev({ arguments: '{"x":1}', command: 'ls', item_id: 'c', name: 'bash', type: 'command_started', nested: { deep: { command: 'rm' } } });
  const union = JSON.parse(redactLines([call], { paths: ['$..["arguments","command"]'] }).lines[0]!);
  t.same([union.arguments, union.command, union.nested.deep.command], ['<redacted>', '<redacted>', '<redacted>']);
  const single = JSON.parse(redactLines([call], { paths: ["$..['arguments','command']"] }).lines[0]!);
  t.same([single.arguments, single.command, single.nested.deep.command, single.name], ['<redacted>', '<redacted>', '<redacted>', 'bash'], 'single quotes too');
  const cli = await bin(['$..["arguments","command"]'], `${call}\n`);
  t.same([cli.code, cli.stderr, JSON.parse(cli.stdout).command], [0, '', '<redacted>'], 'the binary takes a quoted union');
  t.same(JSON.parse(redactLines([call], { paths: ['$.nested.deep.command'] }).lines[0]!).nested, { deep: { command: '<redacted>' } });
  for (const bad of ['$[', '$..[', "$['a"]) {
    const r = await bin([bad], '');
    t.equal(r.code, 2, bad);
    t.match(r.stderr, /malformed/);
  }
});

t.test('clean streams full of look-alikes are not changed at all', async (t) => {
  const looks = [
    'commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)',
    'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'id 123e4567-e89b-12d3-a456-426614174000',
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    '"integrity": "sha512-9zUjAHQuLr5YbOUDpShr2N5zbGfIy8Z5UiQxVGK7N7IgpBs1u2+/pbSwg8ZYpfAI2F63NbJ5thK3f9pzfNZb/w=="',
    'golang.org/x/text v0.14.0 h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=',
    'version 1.2.3-beta.4+build.567, node v20.19.0',
    'color: #ff00aa; background: rgba(0,0,0,.5)',
    'tokens used: 1234, max_tokens: 4096, token_count=17',
    'git push -u origin main && npm test -- -u',
  ];
  const lines = looks.flatMap((text, i) => [
    ev({ delta: text, thread_id: 'th', turn_id: `tu${i}`, type: 'agent_message_delta' }),
    ev({ arguments: JSON.stringify({ command: `echo '${text}'` }), item_id: `c${i}`, name: 'bash', thread_id: 'th', turn_id: `tu${i}`, type: 'tool_started' }),
    ev({ message: text, thread_id: 'th', turn_id: `tu${i}`, type: 'agent_message_final' }),
  ]);
  const out = redactLines(lines);
  t.same(out.lines, lines);
});

t.test('a line beyond --max-line-bytes is redacted in a streaming pass, not dropped', async (t) => {
  const message = 'password=hunter22 sk-proj-abc123def456ghi789jkl012mno345 /home/margarethe/x é\n'.repeat(12_000);
  const big = `{"type":"agent_message_final","thread_id":"th","message":${JSON.stringify(message)},"n":123456789012345678901,"api_token":"q7w2xk9z4m1p","x":[1.50,true,null]}`;
  const before = ev({ type: 'turn_started', thread_id: 'th', turn_id: 'tu' });
  const after = ev({ type: 'turn_completed', thread_id: 'th', turn_id: 'tu' });
  const r = await bin(['--max-line-bytes', '64K'], `${before}\n${big}\n${after}\n`);
  t.equal(r.code, 0);
  t.equal(r.stderr, '');
  const lines = r.stdout.split('\n');
  t.equal(lines.length, 4, 'three lines and the final newline');
  t.equal(lines[0], before, 'the line before is untouched');
  t.equal(lines[2], after, 'the line after comes after it, untouched');
  const event = JSON.parse(lines[1]!) as { message: string; api_token: string };
  t.equal(event.message, 'password=<secret:key-value> <secret:openai-key> ~/x é\n'.repeat(12_000));
  t.equal(event.api_token, '<secret:key-value>', 'a value under a secret key');
  t.match(lines[1]!, /"n":123456789012345678901,/, 'numbers are written as they came');
  t.match(lines[1]!, /\[1\.50,true,null\]/);
  const bad = await bin(['--max-line-bytes', '1K'], `{"type":"x","a":"${'y'.repeat(5000)}`);
  t.equal(bad.code, 1, 'a cut oversize line is bad data');
  t.match(bad.stderr, /not valid JSON/);
});

t.test('raw prefilter: one automaton over fixed and learned markers, rebuilt as names are learned', async (t) => {
  const engine = new Redactor();
  const line = (text: string) => Buffer.from(JSON.stringify({ type: 'x', text }));
  t.notOk(engine.mayMatchRaw(line('hello zoltan, see proj7')), 'nothing learned: a clean line');
  t.equal(engine.compiled().rawTests?.length, 1);
  engine.learnWorkspace('/home/zoltan/src/proj7');
  t.equal(engine.compiled().rawTests?.length, 1, 'still one automaton after learning');
  t.ok(engine.mayMatchRaw(line('hello zoltan')), 'a learned user name is a marker');
  t.ok(engine.mayMatchRaw(line('cd /home/zoltan/src/proj7')), 'a learned workspace is one');
  t.ok(engine.mayMatchRaw(line('key sk-proj-abc123def456ghi789jkl012mno345')), 'fixed markers still count');
  t.notOk(engine.mayMatchRaw(line('hello world')), 'others stay clean');
  engine.learnUser('yvonne');
  t.ok(engine.mayMatchRaw(line('hi \\u0079vonne')), 'a second name, spelled by an escape');
  t.equal(engine.text('zoltan and yvonne', []), '<user> and <user>', 'redacted as before');
});

t.test('scan: one marker automaton over fixed and learned markers, with the same findings', async (t) => {
  const engine = new Redactor();
  engine.learnWorkspace('/home/zoltan/src/proj7');
  engine.learnUser('yvonne');
  const tables = engine.compiled();
  t.equal(tables.scanners.length, 1, 'one automaton: a scanned string costs one pass');
  t.equal(tables.markerTests?.length, 1);
  const hits: string[] = [];
  t.equal(
    engine.text('cd /home/zoltan/src/proj7/a.ts; ask yvonne; key sk-proj-abc123def456ghi789jkl012mno345; <secret:x>', hits),
    'cd <workspace>/a.ts; ask <user>; key <secret:openai-key>; <secret:x>',
  );
  t.same(hits, ['workspace', 'user', 'openai-key'], 'fixed and learned rules, in text order');
  t.notOk(engine.mayMatch('hello world'), 'a clean string stays clean');
  t.ok(engine.mayMatch('YVONNE'), 'a learned marker counts, case-insensitively');
});

t.test('workspaces: add says whether the markers or anchors may change (the learned tables are listed again only then)', async (t) => {
  const { Workspaces } = await import('../lib/redact/workspaces.js');
  const w = new Workspaces();
  const table: Array<[string, boolean, string]> = [
    ['/home/ann/src/proj1', true, 'a new marker'],
    ['/home/ann/src/proj2', false, 'same marker, same length'],
    ['/home/ann/src/p3', false, 'same marker, shorter'],
    ['/home/ann/src/proj10', true, 'same marker, longer: its place may move'],
    ['/home/ann/src/proj10', false, 'known'],
    ['/w', true, 'a short root: its own marker'],
    ['C:\\work', true, 'a new first character: a new anchor'],
  ];
  for (const [root, changed, why] of table) {
    const before = JSON.stringify([w.markers(), w.anchors()]);
    t.equal(w.add(root), changed, why);
    if (!changed) t.equal(JSON.stringify([w.markers(), w.anchors()]), before, `${why}: unchanged indeed`);
  }
});
