import t from 'tap';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { createRedact, redact, Redactor, type RedactOptions } from '../lib/redact/index.js';
import { analyzePattern, checkRule, numberedPattern, parsePatternOption, parseRuleFile, prefixPattern, RuleError } from '../lib/redact/rule-spec.js';
import { DEFAULT_RULES, EMAIL_RULE, HOME_RULES, PATH_RULES } from '../lib/redact/rules.js';
import { GITLEAKS_RULES, SECRETLINT_RULES } from '../lib/redact/peer-rules.js';
import { accept, entropy, isKeyedValueSecret, isPlaceholder, tokenBody } from '../lib/redact/verdict.js';
import { parse, stringify } from '../lib/jsonl.js';
import { LineRecord, type Output } from '../lib/jsonl.js';
import { loadCorpus } from './redact-corpus-lib.js';
import { chunked, example, FC_SEED, jsonl, pipeThrough, readExample, readmeSection, ROOT, runBin, runShell } from './helpers.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'redact');
const CORPUS = fs.readFileSync(path.join(FIXTURES, 'secrets.jsonl'), 'utf8');
const PLANTED = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'planted.json'), 'utf8')) as {
  secrets: string[];
  users: string[];
  private: string[];
};

/** Runs the core over JSONL text; returns output lines (as written) and the core's status. */
function run(text: string, options: RedactOptions = {}): { lines: string[]; status: number; log: string[] } {
  const log: string[] = [];
  const core = createRedact({ log: (l) => log.push(l), ...options });
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  text
    .split('\n')
    .filter((l) => l !== '')
    .forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'in.jsonl', i + 1), emit));
  core.endFile?.('in.jsonl', emit);
  core.end?.(emit);
  const lines = out.map((o) => (typeof o === 'string' ? o.replace(/\n$/, '') : (o.raw ?? Buffer.from(JSON.stringify(o.event))).toString()));
  return { lines, status: core.status?.() ?? 0, log };
}

/** Every string of a JSON value, decoded, including inside JSON-encoded strings. */
function allText(value: unknown): string {
  if (typeof value === 'string') {
    try {
      const inner = JSON.parse(value) as unknown;
      if (inner !== null && typeof inner === 'object') return `${value}\n${allText(inner)}`;
    } catch {
      // plain text
    }
    return value;
  }
  if (Array.isArray(value)) return value.map(allText).join('\n');
  if (value !== null && typeof value === 'object') return Object.entries(value).map(([k, v]) => `${k}\n${allText(v)}`).join('\n');
  return String(value);
}

/** Concatenated delta text per stream (type, thread, turn, item). */
function streams(lines: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines) {
    const e = JSON.parse(line) as Record<string, string>;
    if (!/_delta$/.test(e.type!)) continue;
    const key = `${e.type}/${e.thread_id}/${e.turn_id}/${e.item_id ?? ''}`;
    map.set(key, (map.get(key) ?? '') + e.delta);
  }
  return map;
}

const types = (lines: string[]) => lines.map((l) => (JSON.parse(l) as { type: string }).type);

t.test('rules are data with a safe structure: bounded quantifiers, no nested repetition, markers', async (t) => {
  const all = [...DEFAULT_RULES, ...HOME_RULES, EMAIL_RULE, ...PATH_RULES];
  t.ok(all.length >= 20);
  for (const rule of all) {
    const a = analyzePattern(rule.pattern);
    t.notOk(a.unbounded, `${rule.name}: no *, + or {n,}`);
    t.notOk(a.nestedRepetition, `${rule.name}: no repeated group that repeats`);
    t.ok(a.maxBound <= 65536, `${rule.name}: bounds stay small`);
    t.ok(rule.markers && rule.markers.length > 0, `${rule.name}: has markers`);
    t.doesNotThrow(() => new RegExp(rule.pattern, 'yd'), `${rule.name}: compiles`);
    if (rule.partial !== undefined) {
      const p = analyzePattern(rule.partial);
      t.notOk(p.unbounded || p.nestedRepetition, `${rule.name}: partial is bounded too`);
    }
  }
  // The analyser itself must be able to fail.
  t.ok(analyzePattern('a+').unbounded);
  t.ok(analyzePattern('(?:a{1,5}){1,5}').nestedRepetition);
  t.notOk(analyzePattern('(?:a{1,5})?').nestedRepetition, 'an optional group is not a repetition');
  t.same(analyzePattern('(?<x>a)\\k<x>(b)\\2', 'r_', 3).renamed, '(?<r_x>a)\\k<r_x>(b)\\5');
  t.equal(analyzePattern('[(]a(?:b)(c)').captures, 1, 'classes and non-capturing groups do not count');
});

t.test('numberedPattern: named groups made plain, same numbers, same matches', async (t) => {
  const table: Array<[string, string, Array<[string, number]>]> = [
    ['(?<x>a)\\k<x>(b)\\2', '(a)(?:\\1)(b)\\2', [['x', 1]]],
    ['(b)(?<secret>[(]c)\\k<secret>0', '(b)([(]c)(?:\\2)0', [['secret', 2]]],
    ['(?<=(?<lead>a))(?<!b)(?:c)(?<name>d)', '(?<=(a))(?<!b)(?:c)(d)', [['lead', 1], ['name', 2]]],
    ['\\(?<x>a)', '\\(?<x>a)', []],
  ];
  for (const [source, numbered, numbers] of table) t.same(numberedPattern(source), { source: numbered, numbers: new Map(numbers) }, source);
  // Every built-in rule, over the peers' samples: the same groups where the named ones were.
  const { secrets, falsePositives } = loadCorpus();
  const text = [...secrets.map((s) => `${s.context ?? ''}\n${s.secret}`), ...falsePositives.map((s) => s.text)].join('\n');
  for (const rule of [...DEFAULT_RULES, ...HOME_RULES, EMAIL_RULE, ...PATH_RULES]) {
    const { source, numbers } = numberedPattern(rule.pattern);
    if (numbers.size === 0) continue;
    const groups = (re: RegExp, at: (m: RegExpExecArray, name: string, n: number) => unknown) =>
      [...text.matchAll(re)].map((m) => [m.index, m[0], ...[...numbers].map(([name, n]) => at(m, name, n) ?? null)]);
    const a = groups(new RegExp(rule.pattern, `dg${rule.flags ?? ''}`), (m, name) => m.indices?.groups?.[name]);
    const b = groups(new RegExp(source, `dg${rule.flags ?? ''}`), (m, _, n) => m.indices?.[n]);
    t.same(b, a, `${rule.name}: ${a.length} matches`);
  }
});

t.test('prefixPattern matches every non-empty prefix and nothing else', async (t) => {
  const re = new RegExp(`^(?:${prefixPattern(['sk-', 'ghp_'], { caseless: true })})$`);
  for (const s of ['s', 'SK', 'sk-', 'g', 'gH', 'ghp_']) t.ok(re.test(s), s);
  for (const s of ['', 'k', 'sk-x', 'gp']) t.notOk(re.test(s), JSON.stringify(s));
});

t.test('each secret kind, plainly written', async (t) => {
  const table: Array<[string, string]> = [
    ['key sk-ant-api03-v11K9B8xEabV2isDDf304eQ-oVctlpc6uRZ_txe8EjzAjp8XzRs0LU5XO_XIdlu-a_iCOoxvSQSNFnviw2VueE0ubS_WFAA end', 'key <secret:anthropic-key> end'],
    ['sk-proj-abc123def456ghi789jkl012mno345', '<secret:openai-key>'],
    ['ghp_0123456789abcdefghijABCDEFGHIJ012345,gho_0123456789abcdefghijABCDEFGHIJ012345', '<secret:github-token>,<secret:github-token>'],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', '<secret:github-token>'],
    ['glpat-abcdefghij0123456789', '<secret:gitlab-token>'],
    ['xoxb-1234567890-abcdefghij', '<secret:slack-token>'],
    ['AKIA2E0A8F3B244C9986 ASIAY34FZKBOKMUTVV7A', '<secret:aws-access-key> <secret:aws-access-key>'],
    ['aws_secret_access_key = Fui409hKgHLe1FvYiRst9gGr9dBUtV2/9NrJrbWq', 'aws_secret_access_key = <secret:aws-secret-key>'],
    ['"SecretAccessKey": "Fui409hKgHLe1FvYiRst9gGr9dBUtV2/9NrJrbWq"', '"SecretAccessKey": "<secret:aws-secret-key>"'],
    ['AIzaSyA1234567890abcdefghijklmnopqrstuv', '<secret:google-api-key>'],
    ['sk_live_4eC39HqLyjWDarjtT1zdp7dc rk_live_abcdefghij1234', '<secret:stripe-key> <secret:stripe-key>'],
    ['npm_abcdefghijklmnopqrstuvwxyz0123456789', '<secret:npm-token>'],
    ['hf_abcdefghijklmnopqrstuvwxyzABCDEFGH', '<secret:huggingface-token>'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', '<secret:jwt>'],
    ['Authorization: Bearer abc.def-ghi_123', 'Authorization: Bearer <secret:authorization>'],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic <secret:authorization>'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\ndHPF1GZrrsmYmxd5sjpKqMPY+CvxxWzfhbX7iYwDGOfFXtNL/mhPNLyiPzTiO1nj\n-----END OPENSSH PRIVATE KEY-----\nafter', '<secret:private-key>\nafter'],
    ['https://bob:hunter2@example.com/x', 'https://bob:<secret:url-password>@example.com/x'],
    ['PASSWORD=hunter2 next', 'PASSWORD=<secret:key-value> next'],
    ['export GITHUB_TOKEN=q7w2xk9z', 'export GITHUB_TOKEN=<secret:key-value>'],
    ['password: "my pass phrase"', 'password: "<secret:key-value>"'],
    ['{"api_key":"a8Kd03mZ"}', '{"api_key":"<secret:key-value>"}'],
    ['apiKey: f00x; accessToken=b4rq', 'apiKey: <secret:key-value>; accessToken=<secret:key-value>'],
    ['mail alice.smith@example.com now', 'mail <email> now'],
    ['cd /home/alice/src && ls /Users/Bob/x C:\\Users\\carol\\x /root/x /rootfs', 'cd ~/src && ls ~/x ~\\x ~/x /rootfs'],
    // Not secrets: these must stay.
    ['author: alice', 'author: <user>'],
    ['input_tokens: 1500, tokens: 5, secretary: x, basic tests, Bearer tokens', 'input_tokens: 1500, tokens: 5, secretary: x, basic tests, Bearer tokens'],
    ['shop@1.0.0 test and ask-me-later task-management-system-overview', 'shop@1.0.0 test and ask-me-later task-management-system-overview'],
  ];
  const r = new Redactor();
  for (const [input, expected] of table) t.equal(r.text(input, []), expected, input);
  t.same(r.knownUsers(), ['alice', 'Bob', 'carol'], 'user names were learned from the home paths');
  t.equal(r.text('then alice@host and BOB said', []), 'then <user>@host and <user> said');
});

t.test('issue 21 families and URL parameters are redacted', async (t) => {
  const table: Array<[string, string]> = [
    ['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', '<secret:intra42-secret>'],
    ['client p8e-IEJOzjKBrQ67h7EVWDm38H3156zXMqZs end', 'client <secret:adobe-client-secret> end'],
    ['license 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.', 'license <secret:maxmind-key>.'],
    ['cfk_OFkVnMuoCLPZ4ygaZeLu3os5V2cC4GEPTpoZ9R0U6437a2cb', '<secret:cloudflare-token>'],
    ['AZ: gWO8Q~I0l3HI5~ob41sYBc9WxAig4nVsQ7LAsuFn', 'AZ: <secret:azure-client-secret>'],
    ['EAAM1OQdZevhE5daT79hEIIOLawJSC9iokizQGreunmuZE7NdtWhgrUpAQKXQ7T4zWKiX68e4ffBmuXFRSkjb7quiNGtoYhcG2CXKJp9ztjv1CAb1e92209kyOmd', '<secret:facebook-token>'],
    ['rubygems_f19a2362f22df8f909f8e379fa02c6c3f6df4ded7d8109b1', '<secret:rubygems-token>'],
    ['sgp_e9c2feb7f6834a14_09f85a345faedb6c547e25ae9376cac25ffbfc90', '<secret:sourcegraph-token>'],
    ['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', '<secret:huggingface-token>'],
    ['https://contoso.webhook.office.com/webhookb2/1c3f2a4e-9d1b-4b8a-8c7d-2f1e3a4b5c6d@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/5544d9bc5c63fb3c536ee2119f5849a1/5e6f7a8b-1c2d-4e3f-9a0b-1c2d3e4f5a6b', 'https://contoso.webhook.office.com/webhookb2/<secret:teams-webhook>'],
    ['bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29tg6tlQbeDUkCUtqmZ+mVq/fRPimQo/IyEdGcpppSFRfjlRStA6Q+YZSCqiWIo/Cke8DLlvN8VlGU4ZpcBFgEijy/TKV6aNYbUOlz5PltfIaziAlaSIkkSsU9B', '<secret:aws-bedrock-key>'],
    ['ewogICJhbGciOiAiSFMyNTYiLAogICJ0eXAiOiAiSldUIgp9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.YvrKe8HPZ11cqqHShl3nCTKASz0Zs2XDtfJ6wI3SMQc', '<secret:jwt>'],
    ['GET https://x.blob.core.windows.net/c/f.txt?sv=2022-11-02&sr=b&sig=MEfyxFDRJNuoJEKtY2HegeHyn6HRqUGCcAG1l7IQqog%3D 200', 'GET https://x.blob.core.windows.net/c/f.txt?sv=2022-11-02&sr=b&sig=<secret:url-parameter> 200'],
    ['curl "https://maps.example.com/api?key=Zx81bQ0pLm&q=x"', 'curl "https://maps.example.com/api?key=<secret:url-parameter>&q=x"'],
    ['/callback#state=1&access_token=ya29.a0AfB_byC8Qm8xPq-T3kW9xLm2&expires_in=3600', '/callback#state=1&access_token=<secret:key-value>&expires_in=3600'],
    ['/login?user=u1&password=s3cr3tPw1', '/login?user=u1&password=<secret:key-value>'],
    ['?apiKey=9f8e7d6c5b4a&sig=Zm9vYmFyMTIz', '?apiKey=<secret:key-value>&sig=<secret:url-parameter>'],
  ];
  const r = new Redactor();
  for (const [input, expected] of table) t.equal(r.text(input, []), expected, input);
});

t.test('placeholders, examples and look-alikes the peers do not flag are left alone (issue 21)', async (t) => {
  const texts = [
    'AKIAXXXXXXXXXXXXXXXX',
    'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'API_KEY="glc_111111111111111111111111111111111111111111"',
    '.btn { color: #123abc; } secret: #a1b2c3',
    '<xsd:element name="password" type="xsd:string"/>',
    'password: vault:kv/data/app#db',
    'password = "${aws_db_instance.default.password}"',
    'token: ENC[AES256_GCM,data:W3PiZ6lD6bpfAdI=,iv:2qF98Z,tag:Fzo]',
    'api_key = "insert_key_here"',
    'password: real_key',
    'author = "james"',
    'Authentication-Results: mx.example.com',
    'LLM_SECRET_NAME = "NEXUS-GPT4-API-KEY"',
    'slack_token = "xoxb-12345-abcd234"',
    'telegram_api_token = "28249462:Ahello4k0nheaioyfb4bl0lcvaxafj5w6fc-b2lf"',
    'sk-ant-api03-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA',
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    '-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----',
    'pk_live_j5krY8XTgIcDaHDb3YrsAfCl publishable',
    'hf_FakeFakeFakeFakeFakeFakeFakeFakeFa',
    'key AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs published',
  ];
  const r = new Redactor();
  for (const text of texts) t.equal(r.text(text, []), text, text);
});

t.test('escaped text does not hide a secret', async (t) => {
  const r = new Redactor();

  t.equal(r.text('\\u0073k-proj-abc123def456ghi789jkl012mno345', []), '<secret:openai-key>');
  t.equal(r.text('plain \\n text', []), 'plain \\n text', 'other escapes are left alone');
});

t.test('redaction is idempotent on placeholders, plain and pseudonymized', async (t) => {
  for (const options of [{}, { pseudonymize: true, salt: 's' }]) {
    const r = new Redactor(options);
    const once = r.text('GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345 token: ghp_0123456789abcdefghijABCDEFGHIJ012345 Bearer abcdefgh12 https://u:p4ss@h.io /home/al/x a@b.io', []);
    const hits: string[] = [];
    t.equal(r.text(once, hits), once, JSON.stringify(options));
    t.same(hits, [], 'nothing found the second time');
  }
});

t.test('--pseudonymize: keyed HMAC-SHA256, stable per value and salt', async (t) => {
  const secret = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
  const hmac = (salt: string, id: string) => crypto.createHmac('sha256', salt).update(id).digest('hex').slice(0, 8);
  const r = new Redactor({ pseudonymize: true, salt: 'pepper' });
  t.equal(r.text(`${secret} and ${secret}`, []), `<secret:github-token:${hmac('pepper', `secret\u0000${secret}`)}> and <secret:github-token:${hmac('pepper', `secret\u0000${secret}`)}>`);
  t.equal(r.text('/home/Alice/x alice', []), `<home:${hmac('pepper', 'user\u0000alice')}>/x <user:${hmac('pepper', 'user\u0000alice')}>`);
  t.not(new Redactor({ pseudonymize: true, salt: 'other' }).text(secret, []), r.text(secret, []), 'another salt, another placeholder');
  t.equal(new Redactor({ pseudonymize: true }).text(secret, []), `<secret:github-token:${hmac('wuu-redact/v1', `secret\u0000${secret}`)}>`, 'documented default salt');
});

t.test('corpus: zero survivors, same events in the same order', async (t) => {
  const input = CORPUS.split('\n').filter(Boolean);
  const { lines } = run(CORPUS);
  // Decoded text of every output event, plus each delta stream concatenated (split secrets).
  const text = [...lines, ...lines.map((l) => allText(JSON.parse(l))), ...streams(lines).values()].join('\n');
  for (const secret of PLANTED.secrets) t.notOk(text.includes(secret), `secret gone: ${secret.slice(0, 12)}...`);
  for (const item of PLANTED.private) t.notOk(text.includes(item), `private gone: ${item}`);
  for (const user of PLANTED.users) t.notOk(text.toLowerCase().includes(user.toLowerCase()), `user name gone: ${user}`);
  // The input really held them (the assertions above can fail).
  const inputText = [...input, ...input.map((l) => allText(JSON.parse(l))), ...streams(input).values()].join('\n');
  for (const secret of PLANTED.secrets) t.ok(inputText.includes(secret), `planted: ${secret.slice(0, 12)}...`);
  // Same events, order, types: a split secret moves wholly into the later piece, no event is added.
  t.same(types(lines), types(input));
  for (const line of lines) t.doesNotThrow(() => JSON.parse(line));
  t.equal(lines[3], input[3], 'a piece with nothing to redact keeps its bytes');
  t.match(lines[0], /"workspace_root":"\\u003cworkspace\\u003e"/, 'Go escaping kept for changed events');
});

t.test('events with nothing to redact are byte-identical (examples/structured.jsonl)', async (t) => {
  const input = readExample('structured.jsonl').split('\n').filter(Boolean);
  const { lines } = run(input.join('\n'));
  t.equal(lines.length, input.length);
  // Only the workspace (session_configured, thread_started) and the home in trace_path
  // (turn_completed, result) are there to redact; the 7 events between are clean.
  const clean = input.filter((line) => !line.includes('/home/'));
  t.equal(clean.length, 7);
  for (let i = 0; i < input.length; i++) {
    const expected = input[i]!.replaceAll('/home/alice/src/shop', '\\u003cworkspace\\u003e').replaceAll('/home/alice/', '~/');
    t.equal(lines[i], expected, `line ${i + 1}${clean.includes(input[i]!) ? ': byte-identical' : ''}`);
  }
});

t.test("exec's [REDACTED] mask and provider error messages are not secrets", async (t) => {
  // Producer-faithful text that holds no secret must come out as it came.
  const texts = [
    "curl -sf -H 'Authorization: [REDACTED] [REDACTED]' https://api.example.com/deploy",
    'OPENAI_API_KEY=[REDACTED] npm run deploy',
    'password="[REDACTED]"',
    'openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd',
    'anthropic: 401 authentication_error: invalid x-api-key',
    'invalid_token: The access token expired',
  ];
  const input = texts.map((error) => JSON.stringify({ error, type: 'turn_failed' }));
  t.same(run(input.join('\n')).lines, input);
  // The exceptions are narrow: a value after an error code that is not prose is still taken.
  const still: Array<[string, string]> = [
    ['invalid_password: hunter2x', 'invalid_password: <secret:key-value>'],
    ['invalid_api_key: sk-live-abcdefgh12345678 given', 'invalid_api_key: <secret:key-value> given'],
    ['api_key: Incorr3ct value', 'api_key: <secret:key-value> value'],
  ];
  for (const [text, expected] of still) {
    const { lines } = run(JSON.stringify({ error: text, type: 'turn_failed' }));
    t.equal((JSON.parse(lines[0]!) as { error: string }).error, expected, text);
  }
});

t.test('examples/run.jsonl: only path-bearing lines change, exactly as sed would change them', async (t) => {
  const input = readExample('run.jsonl');
  const expected = input
    .replaceAll('/home/alice/src/shop', '\\u003cworkspace\\u003e')
    .replaceAll('/home/alice/', '~/')
    .split('\n')
    .filter(Boolean);
  t.same(run(input).lines, expected);
});

t.test('split deltas: a secret cut anywhere is still caught', async (t) => {
  const secrets = ['sk-proj-abc123def456ghi789jkl012mno345', 'ghp_0123456789abcdefghijABCDEFGHIJ012345', '/home/alice', 'PASSWORD=hunter2x', 'Bearer abc.def-ghi_123', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', 'https://u:pa55word@h.io/'];
  for (const secret of secrets) {
    const text = `see ${secret} then`;
    for (let cut = 1; cut < text.length; cut++) {
      for (const type of ['agent_message_delta', 'tool_output_delta']) {
        const piece = (delta: string) => JSON.stringify({ delta, item_id: 'it', thread_id: 'th', turn_id: 'tu', type });
        const end = type === 'agent_message_delta' ? { type: 'turn_completed', thread_id: 'th', turn_id: 'tu' } : { type: 'tool_completed', item_id: 'it', thread_id: 'th', turn_id: 'tu' };
        const input = [piece(text.slice(0, cut)), '{"type":"usage_updated","thread_id":"th","turn_id":"tu"}', piece(text.slice(cut)), JSON.stringify(end)];
        const { lines } = run(input.join('\n'));
        const joined = [...streams(lines).values()].join('');
        const secretPart = secret.replace(/^(PASSWORD=|Bearer |https:\/\/u:)/, '').replace(/@h\.io\/$/, '').replace(/^\/home\//, '');
        if (joined.includes(secretPart)) t.fail(`${secret} cut at ${cut} survived: ${joined}`);
        const got = types(lines).filter((ty) => ty !== type);
        t.same(got, ['usage_updated', end.type], 'other events keep their order and are not delayed');
      }
    }
  }
});

t.test('held pieces: a piece ending with a possible secret start waits for the next piece of its stream', async (t) => {
  const piece = (delta: string) => JSON.stringify({ delta, thread_id: 'th', turn_id: 'tu', type: 'agent_message_delta' });
  const core = createRedact();
  const out: string[] = [];
  const emit = (o: Output) => out.push(typeof o === 'string' ? o : JSON.parse((o.raw as Buffer).toString()).delta ?? `[${o.type}]`);
  core.push(new LineRecord(Buffer.from(piece('token is sk-pr')), 'x', 1), emit);
  t.same(out, [], 'the piece is held');
  core.push(new LineRecord(Buffer.from('{"type":"usage_updated","thread_id":"th","turn_id":"tu"}'), 'x', 2), emit);
  t.same(out, [], 'a later event waits behind it (order is kept)');
  core.push(new LineRecord(Buffer.from(piece('oj-abc123def456ghi789jkl012 and /home/al')), 'x', 3), emit);
  t.same(out, ['token is ', '[usage_updated]'], 'the next piece releases it; the secret moves wholly to the later piece');
  core.push(new LineRecord(Buffer.from('{"message":"m","thread_id":"th","turn_id":"tu","type":"agent_message_final"}'), 'x', 4), emit);
  t.same(out.slice(2), ['<secret:openai-key> and ~', '[agent_message_final]'], 'the end of the stream releases the last piece, redacted');
});

t.test('JSON inside strings: decoded, redacted, re-encoded; untouched when clean', async (t) => {
  const args = JSON.stringify({ env: { API_TOKEN: 'a8c9x' }, list: ['sk-proj-abc123def456ghi789jkl012mno345'], deep: JSON.stringify({ password: 'x1' }) });
  const line = JSON.stringify({ arguments: args, type: 'tool_started' });
  const { lines } = run(line);
  const out = JSON.parse(JSON.parse(lines[0]!).arguments as string) as Record<string, unknown>;
  t.same(out, { env: { API_TOKEN: '<secret:key-value>' }, list: ['<secret:openai-key>'], deep: JSON.stringify({ password: '<secret:key-value>' }) });
  const pretty = JSON.stringify({ result: JSON.stringify({ token: 'z9q7w', n: 1 }, null, 2), type: 'x' });
  t.equal(JSON.parse(run(pretty).lines[0]!).result, JSON.stringify({ token: '<secret:key-value>', n: 1 }, null, 2), 'indentation kept');
  const clean = '{"arguments":"{\\"a\\": 1.50}","type":"tool_started"}';
  t.equal(run(clean).lines[0], clean);
  t.equal(run('{"type":"x","ghp_0123456789abcdefghijABCDEFGHIJ012345":1,"ok":{"/home/bob/x":2}}').lines[0], '{"type":"x","\\u003csecret:github-token\\u003e":1,"ok":{"~/x":2}}', 'keys too');
});

t.test('JSONPath censoring and --remove', async (t) => {
  const line = '{"arguments":"{}","n":3,"obj":{"a":1},"list":[1],"flag":true,"type":"tool_started"}';
  t.equal(run(line, { paths: ['$.arguments', '$.n', '$.obj', '$.list', '$.flag', '$.type'] }).lines[0], '{"arguments":"\\u003credacted\\u003e","n":0,"obj":{},"list":[],"flag":false,"type":"tool_started"}');
  t.equal(run(line, { paths: ['$..arguments', '$.list[0]'], remove: true }).lines[0], '{"n":3,"obj":{"a":1},"list":[],"flag":true,"type":"tool_started"}');
  t.throws(() => createRedact({ paths: ['$[?(@.a)]'] }), /disabled/);
});

t.test('user rules: --pattern, rule files, flags, no default rules', async (t) => {
  t.same(parsePatternOption('ticket=TK-[0-9]{4}'), { name: 'ticket', pattern: 'TK-[0-9]{4}' });
  t.throws(() => parsePatternOption('nope'), RuleError);
  t.throws(() => parsePatternOption('bad name=x'), /rule name/);
  t.throws(() => parsePatternOption('x=('), /Invalid regular expression/);
  t.throws(() => parseRuleFile('{}', 'r.json'), /JSON array/);
  t.throws(() => checkRule({ name: 'x', pattern: 'a', flags: 'g' }, 'r'), /flags/);
  t.same(parseRuleFile('[{"name":"proj","pattern":"zeus","flags":"i"}]', 'r.json'), [{ name: 'proj', pattern: 'zeus', flags: 'i' }]);
  const rules = [...parseRuleFile('[{"name":"proj","pattern":"zeus","flags":"i"}]', 'r.json'), parsePatternOption('ticket=(TK)-[0-9]{4}')];
  t.throws(() => parsePatternOption('ticket=(TK)-[0-9]{4}\\1?'), /linear-time engine/, 'a backreference is refused, saying why');
  t.throws(() => parsePatternOption('x=(?<=a)b'), /RE2/, 'so is a lookbehind');
  const line = '{"msg":"Project ZEUS TK-1234 sk-proj-abc123def456ghi789jkl012mno345","type":"x"}';
  t.equal(run(line, { rules }).lines[0], '{"msg":"Project \\u003csecret:proj\\u003e \\u003csecret:ticket\\u003e \\u003csecret:openai-key\\u003e","type":"x"}');
  t.equal(run(line, { rules, defaultRules: false }).lines[0], '{"msg":"Project \\u003csecret:proj\\u003e \\u003csecret:ticket\\u003e sk-proj-abc123def456ghi789jkl012mno345","type":"x"}');
  // A user rule without a partial holds back a fixed tail of every piece: a split match is caught.
  const piece = (d: string) => JSON.stringify({ delta: d, thread_id: 'th', turn_id: 'tu', type: 'agent_message_delta' });
  const split = run([piece('Project Ze'), piece('us is go'), '{"type":"turn_completed","thread_id":"th","turn_id":"tu"}'].join('\n'), { rules });
  t.equal([...streams(split.lines).values()].join(''), 'Project <secret:proj> is go');
});

t.test('--paths all and none', async (t) => {
  const line = '{"msg":"see /etc/passwd and /var/log/app.log, ~/x, C:\\\\tmp\\\\a.txt, https://a.b/c, a/b/c","type":"x"}';
  t.equal(run(line, { pathMode: 'all' }).lines[0], '{"msg":"see \\u003cpath\\u003e and \\u003cpath\\u003e, ~/x, \\u003cpath\\u003e, https://a.b/c, a/b/c","type":"x"}');
  const home = '{"msg":"/home/alice/x alice@example.com","type":"x"}';
  t.equal(run(home, { pathMode: 'none' }).lines[0], home);
});

t.test('fast path: lines without any marker are passed unparsed; escapes force the full path', async (t) => {
  const r = new Redactor();
  t.notOk(r.mayMatchRaw(Buffer.from('{"delta":"plain \\u003cb\\u003e \\u0026 words","type":"agent_message_delta"}')), 'Go escapes are not doubtful');
  t.ok(r.mayMatchRaw(Buffer.from('{"delta":"\\u0073k-","type":"x"}')), 'a \\u escape is');
  t.ok(r.mayMatchRaw(Buffer.from('{"delta":"\\/home","type":"x"}')), 'so is \\/');
  t.ok(r.mayMatchRaw(Buffer.from('{"delta":"PassWord=","type":"x"}')), 'markers are case-insensitive');
  // A token prefix counts only where its rule matches: a bare prefix, or one glued to a word, does not.
  t.notOk(r.mayMatchRaw(Buffer.from('{"delta":"GHP_ and the path to pathos","type":"x"}')), 'a prefix its rule refuses');
  t.ok(r.mayMatchRaw(Buffer.from('{"delta":"x ghp_0123456789abcdefghijABCDEFGHIJ012345","type":"x"}')), 'a prefix its rule takes');
  t.ok(r.mayMatchRaw(Buffer.from('{"delta":"x\\nghp_0123456789abcdefghijABCDEFGHIJ012345","type":"x"}')), 'after an escape');
  const core = createRedact();
  t.equal(core.needsParse?.('tool_started'), false, 'the runner leaves parsing to the core');
});

t.test('invalid lines under --pass-invalid are redacted as text', async (t) => {
  const out: Output[] = [];
  const log: string[] = [];
  const core = createRedact({ check: false, log: (l) => log.push(l) });
  core.invalid?.(Buffer.from('{"cut":"Bearer sk-proj-abc123def456ghi789jkl012mno345 \\u0067hp_0123456789abcdefghijABCDEFGHIJ012345'), (o) => out.push(o), { file: 'f', line: 3 });
  t.same(out, ['{"cut":"Bearer <secret:authorization> <secret:github-token>\n']);
});

t.test('property: idempotent, never changes types or order (beyond flush pieces)', async (t) => {
  const words = ['the', 'sk-', 'proj-', 'abc123def456ghi789jkl012', 'ghp_', '0123456789abcdefghijABCDEFGH', ' ', '/home/', 'alice', '/x', 'password', '=', 'hunter2', '"', '\\', 'é', '@', 'example.com', 'Bearer ', 'AKIA', 'IOSFODNN7EXAMPLE', '\n', '{', '}'];
  const text = fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((w) => w.join(''));
  const event = fc.oneof(
    text.map((delta) => ({ type: 'agent_message_delta', thread_id: 'th', turn_id: 'tu', delta })),
    text.map((delta) => ({ type: 'tool_output_delta', thread_id: 'th', turn_id: 'tu', item_id: 'it', delta })),
    text.map((error) => ({ type: 'tool_completed', thread_id: 'th', turn_id: 'tu', item_id: 'it', error })),
    text.map((message) => ({ type: 'agent_message_final', thread_id: 'th', turn_id: 'tu', message })),
    fc.record({ type: fc.constant('todo_updated'), todo: fc.dictionary(text, text, { maxKeys: 3 }) }),
    text.map((a) => ({ type: 'tool_started', item_id: 'it', arguments: JSON.stringify({ command: a }) })),
  );
  fc.assert(
    fc.property(fc.array(event, { maxLength: 12 }), (events) => {
      const input = events.map((e) => JSON.stringify(e)).join('\n');
      const once = run(input).lines;
      // Types and order: the input's, plus possibly an extra delta piece right before a stream's end.
      const extra = types(once);
      const expected = events.map((e) => e.type);
      let i = 0;
      for (const type of extra) {
        if (type === expected[i]) i++;
        else if (!/_delta$/.test(type)) return false;
      }
      if (i !== expected.length) return false;
      // Idempotent: a second pass finds nothing and changes no text.
      const check = run(once.join('\n'), { check: true });
      if (check.status !== 0) return false;
      const twice = run(once.join('\n')).lines;
      const strip = (lines: string[]) => lines.filter((l) => !/_delta"/.test(l));
      return JSON.stringify(strip(twice)) === JSON.stringify(strip(once)) && JSON.stringify([...streams(twice)]) === JSON.stringify([...streams(once)]);
    }),
    { numRuns: 500, seed: FC_SEED },
  );
});

t.test('stream API: 1-byte and 7-byte chunks give the binary output', async (t) => {
  const expected = run(CORPUS).lines.join('\n') + '\n';
  for (const size of [1, 7]) {
    const out = await pipeThrough<Buffer>(chunked(CORPUS, size), parse({ file: 'c' }), redact(), stringify());
    t.equal(Buffer.concat(out).toString(), expected, `chunks of ${size}`);
  }
  const bin = await runBin('wuu-redact', [path.join(FIXTURES, 'secrets.jsonl')]);
  t.same([bin.stdout, bin.stderr, bin.code], [expected, '', 0]);
});

const FAILED = readExample('failed.jsonl');
// The real key is read from .env (a tool_output_delta) and sent in a header (command_completed:
// not redacted upstream); exec's own `[REDACTED]` masks and the provider's `sk-proj-****3Kd`
// are left as they are.
const FAILED_KEY = 'sk-proj-Q7x2Lm9Vb4Nc8Rt1Wy6Zp3Kd';
const FAILED_REDACTED = FAILED.replaceAll(`OPENAI_API_KEY=${FAILED_KEY}`, 'OPENAI_API_KEY=\\u003csecret:key-value\\u003e')
  .replaceAll(`Bearer ${FAILED_KEY}`, 'Bearer \\u003csecret:authorization\\u003e')
  .replaceAll('/home/bob/work/api', '\\u003cworkspace\\u003e')
  .replaceAll('/home/alice/', '~/');

t.test('binary: examples/failed.jsonl redacted exactly as sed would', async (t) => {
  const r = await runBin('wuu-redact', ['examples/failed.jsonl']);
  t.same(r, { stdout: FAILED_REDACTED, stderr: '', code: 0, signal: null });
});

t.test('binary: --check is a CI gate', async (t) => {
  const r = await runBin('wuu-redact', ['--check', 'examples/failed.jsonl']);
  const at = (line: number, rule: string) => `wuu-redact: examples/failed.jsonl:${line}: ${rule}\n`;
  t.same(r, {
    stdout: '',
    stderr: at(1, 'workspace') + at(2, 'workspace') + at(6, 'key-value') + at(13, 'authorization') + at(16, 'home'),
    code: 1,
    signal: null,
  });
  t.notMatch(r.stderr, /sk-proj/, 'never prints the secret');
  t.not(FAILED_REDACTED, FAILED, 'the expectation does redact');
  const clean = await runBin('wuu-redact', ['--check'], { input: FAILED_REDACTED });
  t.same([clean.stdout, clean.stderr, clean.code], ['', '', 0], 'a redacted log passes');
  const own = await runBin('wuu-redact', [example('failed.jsonl')]);
  const again = await runBin('wuu-redact', ['--check'], { input: own.stdout });
  t.same([again.stdout, again.stderr, again.code], ['', '', 0], "wuu-redact's own output passes");
});

t.test('binary: --report', async (t) => {
  const r = await runBin('wuu-redact', ['--report', 'examples/failed.jsonl']);
  t.equal(r.stdout, FAILED_REDACTED);
  t.equal(
    r.stderr,
    [
      'report: 6 redactions in 5 of 16 events',
      'report: rule authorization: 2',
      'report: rule home: 1',
      'report: rule key-value: 1',
      'report: rule workspace: 2',
      'report: type command_completed: 2',
      'report: type result: 1',
      'report: type session_configured: 1',
      'report: type thread_started: 1',
      'report: type tool_output_delta: 1',
    ]
      .map((l) => `wuu-redact: ${l}\n`)
      .join(''),
  );
  t.equal(r.code, 0);
});

t.test('binary: JSONPath positionals, --remove, --paths all', async (t) => {
  const censor = await runBin('wuu-redact', ['$..arguments', 'examples/failed.jsonl']);
  const expected = FAILED_REDACTED.replace(/"arguments":"(?:[^"\\]|\\.)*"/g, '"arguments":"\\u003credacted\\u003e"');
  t.same([censor.stdout, censor.stderr, censor.code], [expected, '', 0]);
  const removed = await runBin('wuu-redact', ['--remove', '$..arguments', 'examples/failed.jsonl']);
  t.equal(removed.stdout, FAILED_REDACTED.replace(/"arguments":"(?:[^"\\]|\\.)*",/g, ''));
  const all = await runBin('wuu-redact', ['--paths', 'all'], { input: '{"msg":"cat /etc/hosts","type":"x"}\n' });
  t.same([all.stdout, all.code], ['{"msg":"cat \\u003cpath\\u003e","type":"x"}\n', 0]);
});

t.test('binary: bad lines are dropped, or redacted as text with --pass-invalid', async (t) => {
  const input = '{"type":"a"}\nnot json Bearer sk-proj-abc123def456ghi789jkl012mno345\n';
  const drop = await runBin('wuu-redact', [], { input });
  t.same([drop.stdout, drop.code], ['{"type":"a"}\n', 1]);
  t.match(drop.stderr, /^wuu-redact: <stdin>:2: not valid JSON/);
  const pass = await runBin('wuu-redact', ['--pass-invalid'], { input });
  t.same([pass.stdout, pass.code], ['{"type":"a"}\nnot json Bearer <secret:authorization>\n', 0]);
});

t.test('binary: usage errors exit 2', async (t) => {
  const cases: Array<[string[], string]> = [
    [['--paths', 'some'], "--paths takes home, all or none, not 'some'"],
    [['--pattern', 'nope'], "--pattern takes NAME=REGEX, not 'nope'"],
    [['--rules', 'missing.json'], '--rules missing.json: No such file or directory'],
    [['$[?(@.a)]'], "JSONPath '$[?(@.a)]': filter and script expressions are disabled for safety"],
    [['--salt', 'x'], '--salt only makes sense with --pseudonymize'],
    [['--remove'], '--remove needs a JSONPath argument (such as $..arguments)'],
  ];
  for (const [args, message] of cases) {
    const r = await runBin('wuu-redact', args);
    t.same(r, { stdout: '', stderr: `wuu-redact: ${message}\nTry 'wuu-redact --help' for more information.\n`, code: 2, signal: null }, args.join(' '));
  }
});

t.test('binary: --no-default-rules, --rules file, --pseudonymize warning', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-redact-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const rules = path.join(dir, 'rules.json');
  fs.writeFileSync(rules, '[{"name":"host","pattern":"git\\\\.example\\\\.com"}]');
  const input = '{"msg":"sk-proj-abc123def456ghi789jkl012mno345 at git.example.com","type":"x"}\n';
  const r = await runBin('wuu-redact', ['--no-default-rules', '--rules', rules], { input });
  t.same([r.stdout, r.code], ['{"msg":"sk-proj-abc123def456ghi789jkl012mno345 at \\u003csecret:host\\u003e","type":"x"}\n', 0]);
  const p = await runBin('wuu-redact', ['--pseudonymize'], { input });
  t.match(p.stderr, /^wuu-redact: warning: --pseudonymize without --salt uses the public salt 'wuu-redact\/v1'/);
  const a = await runBin('wuu-redact', ['--pseudonymize', '--salt', 'k'], { input });
  const b = await runBin('wuu-redact', ['--pseudonymize', '--salt', 'k'], { input });
  t.equal(a.stdout, b.stdout, 'stable across runs');
  t.equal(a.stderr, '');
});

t.test('README: the "before you share a log" recipe runs', async (t) => {
  const section = readmeSection('wuu-redact');
  const recipe = /### Before you share a log\n+```sh\n([\s\S]*?)```/.exec(section)?.[1];
  t.ok(recipe, 'the recipe is there');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-recipe-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(path.join(ROOT, 'examples'), path.join(dir, 'examples'), { recursive: true });
  const r = await runShell(`cd ${JSON.stringify(dir)} && set -e\n${recipe}`);
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stdout, 'share.jsonl: nothing left to redact\ntotal\t16\n');
  t.match(r.stderr, /^wuu-redact: report: 6 redactions in 5 of 16 events\n/);
  const shared = fs.readFileSync(path.join(dir, 'share.jsonl'), 'utf8');
  t.ok(FAILED.includes(FAILED_KEY) && /bob|alice/.test(FAILED), 'the example has a key and user names to lose');
  t.notOk(shared.includes(FAILED_KEY) || /bob|alice/i.test(shared), 'no secret, no user name');
  t.equal(jsonl(shared).length, 16);
});

t.test('stdin and files are equivalent', async (t) => {
  const a = await runBin('wuu-redact', [example('failed.jsonl')]);
  const b = await runBin('wuu-redact', [], { input: FAILED });
  t.equal(a.stdout, b.stdout);
});

t.test('every gitleaks and secretlint rule has a counterpart or a reason (lib/redact/peer-rules.ts)', async (t) => {
  const ours = new Set(DEFAULT_RULES.map((r) => r.name));
  t.equal(Object.keys(GITLEAKS_RULES).length, 222, "gitleaks' default config has 222 rules");
  t.equal(Object.keys(SECRETLINT_RULES).length, 28, "secretlint's recommended preset has 28 rules");
  for (const [peer, answer] of [...Object.entries(GITLEAKS_RULES), ...Object.entries(SECRETLINT_RULES)]) {
    if (answer.startsWith('reason: ')) {
      t.ok(answer.length > 40, `${peer}: the reason says why`);
      continue;
    }
    const names = answer.replace(/ \(.*$/, '').split(', ');
    t.same(names.filter((n) => !ours.has(n)), [], `${peer} -> ${names.join(', ')}`);
  }
});

t.test('verdict: entropy, token bodies, placeholders, keyed values', async (t) => {
  t.equal(entropy(''), 0);
  t.equal(entropy('aaaa'), 0);
  t.equal(entropy('abcd'), 2);
  t.equal(tokenBody('ghp_abcdefghij0123456789'), 'abcdefghij0123456789');
  t.equal(tokenBody('AKIA2E0A8F3B244C9986'), '2E0A8F3B244C9986');
  t.equal(tokenBody('short'), 'short');
  for (const p of ['AKIAXXXXXXXXXXXXXXXX', 'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'glc_1111111111111111111111', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'tok_FakeFakeFakeFakeFakeFake', 'xoxp-1-####################', 'sk_ababababababababab'])
    t.ok(isPlaceholder(p), `placeholder: ${p}`);
  for (const p of ['ghp_R4nd0mT0k3nV4lu3Qw8zLp2Xc9Vb7Nm1Kj5', 'AKIA2E0A8F3B244C9986', 'abc']) t.notOk(isPlaceholder(p), `not a placeholder: ${p}`);
  const kept = ['real_key', 'Incorrect', '#a1b2c3', 'bob@example.com', '<xsd:element', 'var.db_password', 'vault:kv/app#db', '${db.password}', '%s', 'mx.example.com', 'NEXUS-GPT4-API-KEY', 'x"password=1', 'ENC[AES256_GCM,data:x]', 'ZHVtbXlfcGFzc3dvcmQ=', 'insert_key_here', 'xoxb-12345-abcd234', '28249462:Ahello4k0', '.,:-!', 'changeme123'];
  for (const v of kept) t.notOk(isKeyedValueSecret(v), `not a secret: ${v}`);
  for (const v of ['hunter2', 's3cr3tPw1', 'seugeupfknprstoe', 'dXNlcjpwYXNz', 'value with spaces', 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs'])
    t.ok(isKeyedValueSecret(v), `a secret: ${v}`);
  t.notOk(accept({ rule: 'private-key', value: '-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----', keyed: false }));
  t.notOk(accept({ rule: 'google-api-key', value: 'AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs', keyed: false }), 'a published sample key');
  t.notOk(accept({ rule: 'jwt', value: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', keyed: false }), 'a header alone');
  t.notOk(accept({ rule: 'jwt', value: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ.eyJzdWIiOiIxIn0.c2ln', keyed: false }), 'a header without its brace');
  t.ok(accept({ rule: 'jwt', value: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln', keyed: false }));
  t.ok(accept({ rule: 'jwt', value: 'eyJrIjoiT0tTcG1pUlY2RnVKZTFVaDFsNFZXdE9ZWmNrMkZYbk', keyed: false }), 'a lone base64url JSON segment');
  t.notOk(accept({ rule: 'url-password', value: 'password', keyed: false }));
  t.ok(accept({ rule: 'url-password', value: 'pa55word', keyed: false }));
  t.notOk(accept({ rule: 'sourcegraph-token', value: 'sgp_5555555dAAAAA7777777CcccCFaaaaaaaaaa', keyed: false }), 'below the entropy floor');
  t.ok(accept({ rule: 'sourcegraph-token', value: 'sgp_0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c', keyed: false }));
  t.ok(accept({ rule: 'not-a-rule', value: 'R4nd0mV4lu3', keyed: false }), 'a rule without a floor');
});
