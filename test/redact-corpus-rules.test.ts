/**
 * The rule and verdict changes made for the peer corpus (issue 21), one table
 * each: formats taken since the corpus showed them missed, and peer
 * false-positive shapes left alone. Pure: the Redactor over plain text, and
 * the verdict and pattern analyser as functions. The corpus itself runs in
 * test/redact-corpus.test.ts.
 */
import t from 'tap';
import { Redactor } from '../lib/redact/index.js';
import { accept, isKeyedValueSecret, isPlaceholder, sequential } from '../lib/redact/verdict.js';
import { analyzePattern, checkRule } from '../lib/redact/rule-spec.js';
import { Allowlist, fingerprint } from '../lib/redact/allow.js';

const r = new Redactor();
const redacted = (text: string) => r.text(text, []);

t.test('formats the corpus showed missed are taken', async (t) => {
  const table: Array<[string, string]> = [
    // Slack tokens cut after their team id (logs print the head only).
    ['bot token xoxb-65677559833 in the log', 'bot token <secret:slack-token> in the log'],
    ['user xoxp-24232636415-0285024315463c here', 'user <secret:slack-token> here'],
    // GitLab pipeline trigger tokens with any URL-safe body of 40.
    ['glptt-Need5_T00-be-exactly-40-chars--ELse_fail ok', '<secret:gitlab-token> ok'],
    ['glptt-0123456789abcdef0123456789abcdef01234567', '<secret:gitlab-token>'],
    // GitLab OAuth application secrets: gloas- and exactly 64.
    ['app gloas-faa0r141s0vmknm7t27tvpti7kyie1fi2g42xnxzh10ksp9b0pr4zwxgg8eqk8cf.', 'app <secret:gitlab-token>.'],
    // Cloudflare cfk_ keys longer than documented are taken whole.
    [`cfk_ZE4CrcFhEIDXk9vL2sTLeARsFp2ZZYbydVDhhIUq8573bbfe${'q7'.repeat(6)} end`, '<secret:cloudflare-token> end'],
    // Databricks: 32 hex after dapi, even when a letter follows (a workspace host named after it).
    ['dapib8a799e452bf722cb28874cee50a7abfnonprod-test.cloud.databricks.com', '<secret:databricks-token>nonprod-test.cloud.databricks.com'],
    // A JWT whose header decodes to bytes but whose payload is JSON.
    [
      'eyJuL_8UF5AiQVfO2xlr_HaoSluHz9u-Q-s1qWDWvycQhR11J9wZTmYfFpKnawuIbKjA4i340DSpYI3d3E.eyJuOUikPwjw1RKXYXfcjjeqQwdWzA4uooei_ADIUX3of4.A0rTdrx3sJ',
      '<secret:jwt>',
    ],
    // A PEM block pasted as a header value is the private-key rule's, whole.
    [
      'Authorization: Bearer -----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC\\n-----END PRIVATE KEY-----',
      'Authorization: Bearer <secret:private-key>',
    ],
    ['Bearer -----BEGIN RSA PRIVATE KEY-----\\nMIIEpAIBAAKCAQEAq83vEFq83vEFq83vEF\\n-----END RSA PRIVATE KEY-----', 'Bearer <secret:private-key>'],
  ];
  for (const [input, expected] of table) t.equal(redacted(input), expected, input.slice(0, 60));
});

t.test('peer false-positive shapes are left alone', async (t) => {
  for (const text of [
    // A gloas- string longer than GitLab's 64 (both peers ask that exact length).
    'gloas-checking_Length-Is-_exactly_64--Xchecking_Length-Is-_longer_longer',
    // Filler tails and hand-typed ids.
    '"token4": "xoxp-572370529330-573807301142-572331691188-####################"',
    '"token1": "xoxp-1234567890"',
    // A JWT header that is readable text but no JSON object: a broken example.
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    // Keys whose name says the value is public, a page's CSRF token, a vault's name, or not real.
    '<input type="hidden" name="authenticity_token" value="7SWa-Fo1_hsC6oovfBsJFLGPUl2EhkSWPbJhWANwgaJWBDl1vxd9VNqXTNAefsJqzIRYaZEfYZLffa31rw8zJA" />',
    'csrf-token=Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7+V4eUrLfpuyOuxmiW9rhROG/Whikle15syazJOkrjJa3U2AbhIvUw==',
    'publicToken = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"',
    '  keyVaultToStoreSecrets: cmp2-qat-1208358310',
    'nonMatchingToken := "gsbxydo7pok1qfhd"',
    'const fakeSecret = "Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB"',
    // Published values (documentation keys, reference-page passwords).
    ',apiKey:"6fe4476ee5a1832882e326b506d14126",',
    '<add key="ClearTextPassword" value="33f!!lloppa" />',
    // An identifier of five capitalised words after a key.
    'token:"clm99696:AgencyIdentificationCodeContentType"',
    // A URL without credentials after a key word.
    'const MONGO_NO_AUTH = "mongodb://localhost:27017/database";',
    'const MONGO_IDENTICAL_CREDENTIALS = "mongodb://mongodb:mongodb@localhost:27017/database";',
    // URL passwords that stand in for one; the password part is no e-mail address either.
    'mongodb://user:password@db.example.com:27017/mydb',
    'https://username:mypassword@test.com/endpoint',
    'https://{USER}:{PASS}@template.example.com',
    'postgres://$(PGUSER):$(PGPASSWORD)@$(PGHOST)/$(PGDATABASE)',
    'https://user:abc@api.com/v1',
    'mysql://mysql:mysql@localhost:3306/database',
  ]) {
    t.equal(redacted(text), text, text.slice(0, 60));
  }
});

t.test('real values next to those shapes are still taken', async (t) => {
  const table: Array<[string, string]> = [
    ['mysql://admin:Xk3sPq9aLm4nBv7c@db.example.com/app', 'mysql://admin:<secret:url-password>@db.example.com/app'],
    ['session_token = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"', 'session_token = "<secret:key-value>"'],
    ['DB_URL=postgres://app:Xk3sPq9aLm4nBv7c@db/app', 'DB_URL=postgres://app:<secret:url-password>@db/app'],
    // A URL value with a key in its path is still a secret.
    ['WEBHOOK_SECRET=https://hooks.example.com/in/Xk3sPq9aLm4nBv7cZx1Q2w', 'WEBHOOK_SECRET=<secret:key-value>'],
    ['xoxb-1234567890-abcdefghij', '<secret:slack-token>'],
    // Four capitalised words occur by chance in long random tokens.
    ['api_token=RurVC38TP-5PioJqzJbvpNzkvwFjDrPpHdcivLgDEJUXS39PkIZPb1WCk', 'api_token=<secret:key-value>'],
    ['api_token=Xk3sPq9aLm4nBv7cZx1Q2wE5rT8yU0iO6pAJzusRpynUtoHcpfNhgtsb9N3mQ7vC2xZ5lK8jH4gF1dS6aP0oI', 'api_token=<secret:key-value>'],
    // A URL with credentials after a key is taken whole, even with a stand-in password.
    ['URI_TOKEN=http://username:password@127.0.0.1', 'URI_TOKEN=<secret:key-value>'],
    ['URI_TOKEN=http://username:Xk3sPq9aLm@127.0.0.1', 'URI_TOKEN=<secret:key-value>'],
  ];
  for (const [input, expected] of table) t.equal(redacted(input), expected, input);
});

t.test('the verdict as a function', async (t) => {
  t.notOk(isPlaceholder('pgar_123456789012345678901234567'), 'digit runs stand for secrets in peer tests: kept');
  t.ok(isPlaceholder('xoxp-572370529330-573807301142-####################'), 'a filler tail');
  t.notOk(isKeyedValueSecret('Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7', 'token=', 'x-csrf-'), 'the start of the key name before the match counts');
  t.ok(isKeyedValueSecret('Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7', 'token=', 'session-'), 'another key name: a secret');
  t.ok(isKeyedValueSecret('Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7', 'token=', ''), 'no text before the match');
  t.notOk(isKeyedValueSecret('http://localhost:8080/v1/status', 'auth_url: '), 'a plain URL');
  // A home path made `~` on the first pass (seeds 162 and 186 of redact-seeds): left on the second.
  t.notOk(isKeyedValueSecret('<~ \u001b[0m', 'Token := "'), 'a home path after markup');
  t.notOk(isKeyedValueSecret('@~\u001b[0m', 'Token := "'), 'a home path after @');
  t.ok(isKeyedValueSecret('Xk3s~Pq9aLm', 'password: '), 'a ~ between word characters is part of a password');
  // Python's `%(name)s` format references, whole or ended at the `)` by the value rules.
  t.notOk(isKeyedValueSecret('%(db_password)s', 'password = '), 'a %(name)s reference');
  t.notOk(isKeyedValueSecret('%(pw', 'password='), 'a %(name) reference cut at its bracket');
  t.notOk(isKeyedValueSecret('%(pw)d', 'token: '), 'a %(name)d reference after another key');
  t.ok(isKeyedValueSecret('%(pw)x9Qk3', 'password='), 'a password that starts like one is still one');
  // Lookups in code, as the value rules end them (at the closing bracket or the quote).
  const lookups: Array<[string, string]> = [['os.getenv("TOKEN"', 'token = '], ['os.environ["API_KEY"', 'api_key: '], ['tokens[i', 'token = '], ['os.Getenv("SECRET")', 'secret := '], ["config['api_key'", 'api_key = '], ['getToken(ctx', 'token = '], ['TOKENS[0]', 'password: ']];
  for (const [v, key] of lookups) {
    t.notOk(isKeyedValueSecret(v, key), `a lookup: ${v}`);
  }
  for (const v of ['Xk3s(Pq9aLm', 'Xk3s[Pq9aLm', 'Pa(ss', 'a8Kd(03mZx9Q']) t.ok(isKeyedValueSecret(v, 'password: '), `a password with a bracket: ${v}`);
  t.notOk(isKeyedValueSecret('process.env.OPENAI_API_KEY!', 'apiKey: '), 'a non-null assertion');
  t.notOk(isKeyedValueSecret('!vault', 'password: '), 'a YAML tag (Ansible vault)');
  t.notOk(isKeyedValueSecret('!!binary', 'secret: '), 'a YAML tag');
  t.notOk(isKeyedValueSecret('ghp_****', 'token: '), 'a masked display');
  t.notOk(isKeyedValueSecret('sk-\u2022\u2022\u2022\u2022Xk3s', 'api_key='), 'a masked display with bullets');
  t.ok(isKeyedValueSecret('Ab*cd9Xq', 'secret: '), 'one star is part of a secret');
  const code: Array<[string, string]> = [
    ['req.headers.authorization?.split(', 'token = '],
    ['env::var("TOKEN"', 'token = '],
    ['Optional[str', 'api_key: '],
    ['Field(...', 'password: str = '],
    ['("user"', 'auth = '],
    ['key:', 'secretKeyRef: '],
    ['sk-...', 'api_key: '],
    ['ghp_\u2026', 'token: '],
    ['hashedPassword', 'password: '],
    ['user_password', 'password = '],
    ['dbSecret', 'secret: '],
    ['token123', 'api_key='],
    ['my-key', 'token: '],
    ['secret1', 'secret: '],
  ];
  for (const [v, key] of code) {
    t.notOk(isKeyedValueSecret(v, key), `code, a cut display or a name: ${v}`);
  }
  for (const v of ['password123', 'Hunter[2x9Qk', 'Xk3sPq9aLm...', 'Pq9aLm4nBv7cZx1Q2wE5...', 'rootpasswd', 'TestSourcePassword', 'TestSource-Password']) t.ok(isKeyedValueSecret(v, 'password: '), `still a password: ${v}`);
  t.ok(isKeyedValueSecret('Xk3sPq9aLm4nBv7cZx1Q2w', 'token: '), 'a random token');
  t.notOk(accept({ rule: 'authorization', value: 'token123', keyed: false }), 'Bearer token123');
  t.notOk(accept({ rule: 'authorization', value: 'my-token', keyed: false }), 'Bearer my-token');
  t.ok(accept({ rule: 'authorization', value: 'abc.def-ghi_123', keyed: false }), 'a typed run after Bearer is still taken');
  t.ok(accept({ rule: 'authorization', value: 'q7w2xk9zT4', keyed: false }), 'a short random bearer token');
  t.notOk(accept({ rule: 'google-api-key', value: 'AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs', keyed: false }), 'a published key, for any rule');
  t.notOk(accept({ rule: 'url-password', value: 'postgres', keyed: false, key: '://postgres:' }), 'the user name again');
  t.ok(accept({ rule: 'url-password', value: 'postgres9Xq', keyed: false, key: '://postgres:' }), 'another password');
  t.ok(accept({ rule: 'url-password', value: 'Xk3sPq9aLm', keyed: false }), 'no key text: judged by the value');
  t.notOk(accept({ rule: 'jwt', value: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig', keyed: false }), 'readable broken header');
  t.notOk(accept({ rule: 'jwt', value: 'eyJuL_8UF5AiQVfO2xlr_HaoSluHz9u.bm90X3ZhbGlkX2pzb24.sig', keyed: false }), 'bytes header, payload not JSON');
  t.notOk(accept({ rule: 'jwt', value: 'eyJuL_8.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig', keyed: false }), 'bytes header shorter than a JWT header');
});

t.test('hand-typed runs after a key are stand-ins (issue 21), other short values stay secrets', async (t) => {
  for (const v of ['abc', '123456', 'abc123', 'AbCeFG123', 'abc123xyz', 'abcd-1234', '7890', 'xyz_789.def']) t.ok(sequential(v), `typed: ${v}`);
  for (const v of ['ab', 'abd', 'abc12', 'hunter2', 'a8Kd03mZ', 'q7w2xk9z', '---', 'abcé', 'zab', '1234567890abcdefg', 'abc!']) t.notOk(sequential(v), `not typed: ${v}`);
  for (const text of [
    '<add key="ClearTextPassword" value="abc" />',
    'SUMO_ACCESS_KEY: AbCeFG123',
    'password: "123456"',
    'export GITHUB_TOKEN=abc123xyz',
    // A provider prefix with ids typed as runs, too long for the short-value check.
    '"token": "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d"',
  ]) {
    t.equal(redacted(text), text, text);
  }
  const table: Array<[string, string]> = [
    ['password: abd', 'password: <secret:key-value>'],
    ['SUMO_ACCESS_KEY: AbCeFG12', 'SUMO_ACCESS_KEY: <secret:key-value>'],
    ['api_token = "abc123def456ghi789jkl012mno345"', 'api_token = "<secret:key-value>"'],
    ['"token": "xoxp-1234-5981-2750-4ddbc191d40ee098cbaae6f3523ada2d"', '"token": "<secret:key-value>"'],
    ['"token": "xoxp-2845729301-3829104756-4817263549-4ddbc191d40ee098cbaae6f3523ada2d"', '"token": "<secret:key-value>"'],
  ];
  for (const [input, expected] of table) t.equal(redacted(input), expected, input);
});

t.test('OpenAI namespace keys of a whole key\'s length carry the T3BlbkFJ marker (issue 21)', async (t) => {
  const side = (n: number, seed: string) => seed.repeat(Math.ceil(n / seed.length)).slice(0, n);
  const a20 = side(20, 'Qz8mV2rK4tN6wB1x');
  const b20 = side(20, 'Lp3sH7dF9gJ0kC5v');
  const a58 = side(58, 'Qz8mV2rK4tN6wB1xLp3sH7dF9gJ0kC5v');
  const a74 = side(74, 'Qz8mV2rK4tN6wB1xLp3sH7dF9gJ0kC5vYe');
  for (const key of [`sk-proj-${a20}T4BlbkFJ${b20}`, `sk-svcacct-${a58}Xq7rZp2m${a58}`, `sk-admin-${a74}Xq7rZp2m${a74}`]) t.equal(redacted(`key ${key} end`), `key ${key} end`, key.slice(0, 24));
  for (const key of [
    `sk-proj-${a20}T3BlbkFJ${b20}`,
    `sk-svcacct-${a58}T3BlbkFJ${a58}`,
    // Cut short by a display: not a whole key's length, still taken.
    `sk-proj-${a58}`,
    // Plain sk- + 48 is also Braintrust's and Moonshot's format: taken without the marker.
    `sk-${a20}Xq7rZp2m${b20}`,
  ]) {
    t.equal(redacted(`key ${key} end`), 'key <secret:openai-key> end', key.slice(0, 24));
  }
});

t.test('analyzePattern, walked token by token', async (t) => {
  const a = analyzePattern('(?<k>a{2,5})\\1(?:b+)?[x)]\\k<k>c{3}d??e{2,}\\d{', 'p_', 4);
  t.same(
    { ...a },
    { captures: 1, names: ['k'], numberedBackref: true, unbounded: true, nestedRepetition: false, maxBound: 5, renamed: '(?<p_k>a{2,5})\\5(?:b+)?[x)]\\k<p_k>c{3}d??e{2,}\\d{', numbers: [1] },
    'groups renamed, backreference shifted, classes, lazy modifiers, open braces',
  );
  t.ok(analyzePattern('(?:a{1,3}){2}').nestedRepetition, 'a repeated group that repeats');
  t.notOk(analyzePattern('(?:a{1,3})?').nestedRepetition, 'an optional group is no repetition');
  t.same(analyzePattern('a)b').renamed, 'a)b', 'an unbalanced close is copied');
  t.same(analyzePattern('(?<open').names, ['open'], 'an unclosed name runs to the end');
  t.same(analyzePattern('\\k<open').renamed, '\\k<open>', 'an unclosed backreference name too (closed when renamed)');
  t.same(analyzePattern('x\\').renamed, 'x\\', 'a trailing backslash');
  t.same(analyzePattern('(?=a)(?<=b)(?<!c)').captures, 0, 'lookarounds capture nothing');
});

t.test('user rules are normalised without casts', async (t) => {
  t.same(checkRule({ name: 'n', pattern: 'a', flags: '', partial: 'a$', markers: ['a'] }, 'x'), { name: 'n', pattern: 'a', partial: 'a$', markers: ['a'] });
  t.same(checkRule({ name: 'n', pattern: 'a', flags: 'i' }, 'x'), { name: 'n', pattern: 'a', flags: 'i' });
});

t.test('allow lists read fingerprints', async (t) => {
  const fp = fingerprint('s3cr3t-value', 'salt');
  const allow = Allowlist.parse(`# known\nfp:${fp.toUpperCase()}\nliteral\n`, 'salt');
  t.ok(allow.has('s3cr3t-value'), 'by fingerprint, any case, fp: prefix');
  t.ok(allow.has('literal'), 'by value');
  t.notOk(allow.has('other'), 'others are not');
});
