/**
 * wuu-redact against a peer secret corpus: gitleaks' rule samples and
 * secretlint's fixtures (test/fixtures/redact/corpus/build.mjs), trufflehog's
 * detector-test samples and detect-secrets' test tables (build-wide.mjs),
 * planted in 21 positions a secret reaches in a `wuu exec --json` stream
 * (test/redact-corpus-lib.ts), whole and split across deltas; and against
 * clean streams full of look-alikes and the peers' false-positive samples.
 *
 * Targets (issue 21): standalone recall >= 99.5%, all plantings >= 96%,
 * false positives <= 10. Recall and false positives per family and position
 * are printed here and kept in MISSES.md (rewritten with
 * `test/redact-corpus-lib.ts --write-misses --write-known-fps`); floors keep
 * what is reached.
 */
import t from 'tap';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { changedTexts, cleanStream, CORPUS_DIR, falsePositiveChanges, gapClass, GAP_CLASSES, isSelfPrefixed, loadCorpus, measure, peerPositive, perFamily, redactLines, summarize, survivorKey } from './redact-corpus-lib.js';

/** Floors of this corpus, measured on the redact-recall and redact-fp branches (issue 21); recall floors only go up, the false-positive ceiling only down. */
const FLOOR = { all: 0.985, standalone: 0.995, position: 0.96, falsePositives: 19, netFalsePositives: 8 };

const { secrets, falsePositives } = loadCorpus();

t.test('peer corpus: recall of every planting', async (t) => {
  const m = measure(secrets);
  const s = summarize(m);
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(2)}%`;
  t.comment(
    `${s.secrets} secrets, ${s.providers} providers, ${s.plantings} plantings, ${m.events} events; ` +
      `recall ${pct(s.caught, s.plantings)}, standalone ${pct(s.selfCaught, s.selfPlantings)}, ` +
      `split cuts leaked ${s.splitLeaked}/${s.splitCuts} (standalone ${s.selfSplitLeaked}/${s.selfSplitCuts})`,
  );
  for (const [family, v] of Object.entries(perFamily(m))) {
    t.comment(`family ${family}: ${pct(v.caught, v.plantings)} of ${v.plantings}; standalone ${pct(v.standaloneCaught, v.standalone)} of ${v.standalone}`);
  }
  for (const [position, v] of Object.entries(s.perPosition)) t.comment(`position ${position}: ${pct(v.caught, v.plantings)} of ${v.plantings}`);
  t.ok(s.secrets >= 1400 && s.providers >= 600, 'the corpus holds the four peers\' samples');
  t.same(Object.keys(perFamily(m)).sort(), ['detect-secrets', 'gitleaks', 'secretlint', 'trufflehog'], 'every family is planted');
  t.equal(Object.keys(s.perPosition).length, 21, '21 positions');

  // Every survivor of the gitleaks and secretlint samples is a known gap, with its reason (MISSES.md lists the others).
  const unexplained = m.results.filter((r) => !r.caught && (r.entry.source === 'gitleaks' || r.entry.source === 'secretlint') && gapClass(r) === undefined).map(survivorKey);
  t.ok(unexplained.length <= 12, `gitleaks/secretlint survivors outside a known gap class: ${unexplained.length} (${unexplained.slice(0, 6).join('; ')})`);
  const perClass = new Map<string, number>();
  for (const r of m.results) if (!r.caught) perClass.set(gapClass(r)?.id ?? '?', (perClass.get(gapClass(r)?.id ?? '?') ?? 0) + 1);
  for (const g of GAP_CLASSES) t.comment(`known gap ${g.id} (${g.owner}): ${perClass.get(g.id) ?? 0} plantings - ${g.reason}`);

  // Floors measured on this corpus (issue 21, redact-recall branch); they only go up.
  t.ok(s.caught / s.plantings >= FLOOR.all, `all plantings ${pct(s.caught, s.plantings)} >= ${FLOOR.all * 100}% (floor)`);
  t.ok(s.selfCaught / s.selfPlantings >= FLOOR.standalone, `standalone ${pct(s.selfCaught, s.selfPlantings)} >= ${FLOOR.standalone * 100}% (floor)`);
  for (const position of ['bash_output', 'tool_arguments', 'command_completed', 'message_final', 'result_final_message', 'subagent_result', 'url_query', 'auth_header']) {
    const p = s.perPosition[position] ?? { caught: 0, plantings: 1 };
    t.ok(p.caught / p.plantings >= FLOOR.position, `${position}: ${pct(p.caught, p.plantings)} >= ${FLOOR.position * 100}% (floor)`);
  }
  // The targets of issue 21.
  t.ok(s.caught / s.plantings >= 0.96, 'all plantings >= 96%');
  t.ok(s.selfCaught / s.selfPlantings >= 0.995, 'standalone >= 99.5%', s.selfCaught / s.selfPlantings >= 0.995 ? {} : { todo: 'see MISSES.md' });

  // Per secret: a standalone secret is never left wholly unredacted.
  const perSecret = new Map<string, { total: number; caught: number }>();
  for (const r of m.results) {
    if (!isSelfPrefixed(r.entry.secret)) continue;
    const v = perSecret.get(r.entry.secret) ?? { total: 0, caught: 0 };
    v.total++;
    if (r.caught) v.caught++;
    perSecret.set(r.entry.secret, v);
  }
  const never = [...perSecret].filter(([, v]) => v.caught === 0).map(([k]) => k.slice(0, 40));
  t.ok(never.length <= 3, `standalone secrets never caught: ${never.length} (${never.join(', ')})`);
});

// ---------------------------------------------------------------------------
// False positives

/** Deterministic pseudo-random bytes (a seed per call site). */
function bytes(seed: string, n: number): Buffer {
  const out = Buffer.alloc(n);
  let block = crypto.createHash('sha256').update(seed).digest();
  for (let i = 0; i < n; i++) {
    if (i % 32 === 0 && i > 0) block = crypto.createHash('sha256').update(block).digest();
    out[i] = block.readUInt8(i % 32);
  }
  return out;
}

/** Text full of things that look like secrets and are not. */
function lookAlikes(k: number): string[] {
  const hex = (n: number, s: string) => bytes(`${k}${s}`, n).toString('hex');
  const uuid = () => {
    const h = hex(16, 'u');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const b64 = (n: number, s: string) => bytes(`${k}${s}`, n).toString('base64');
  return [
    `commit ${hex(20, 'c')}\nAuthor: Dev Team\nMerge: ${hex(4, 'm1').slice(0, 7)} ${hex(4, 'm2').slice(0, 7)}`,
    `${hex(20, 'sha1')}  refs/heads/main\n${hex(32, 'sha256')}  dist/app-${k}.tar.gz`,
    `sha256:${hex(32, 'img')} docker.io/library/node@sha256:${hex(32, 'd')}`,
    `request-id: ${uuid()} trace ${uuid()} session ${uuid()}`,
    `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk${b64(48, 'png').replace(/[+/=]/g, 'A')}AAAAAElFTkSuQmCC">`,
    `"integrity": "sha512-${b64(64, 'npm')}",\n"resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.${k}.tgz"`,
    `golang.org/x/net v0.${k}.0 h1:${b64(32, 'gosum')}\ngolang.org/x/net v0.${k}.0/go.mod h1:${b64(32, 'gomod')}`,
    `node v20.${k}.1, npm 10.2.${k}, typescript@5.9.${k}-beta.1, release v1.2.3-rc.4+build.${hex(3, 'b')}`,
    `.btn { color: #${hex(3, 'css1')}; background: #${hex(4, 'css2')}; border-color: #abc; }`,
    `ETag: "${hex(16, 'etag')}"\nX-Request-Id: req_${hex(12, 'req')}\nContent-MD5: ${b64(16, 'md5')}`,
    `package-lock: lockfileVersion 3, ${k} packages; yarn.lock checksum ${hex(64, 'yarn')}`,
    `Task ${uuid()} done in ${k}.${k}s; cache key v1-deps-${hex(20, 'cache')}`,
    `skip_ssl = false; task_id = ${k}; ask-the-user; desk_top; risk_level=high; disk_usage=91%`,
    `See https://github.com/org/repo/commit/${hex(20, 'gh')} and https://gitlab.com/org/repo/-/merge_requests/${k}`,
    `"buffer": "${'A'.repeat(60 + k)}B==", restored cache-key-${hex(16, 'ck')} and node-cache-Linux-x64-npm-${hex(32, 'npmc')}`,
    `hf_${'read_'.repeat(3)}only_scope; sk_buff_head; glob_pattern; ask_${k}; AKIA is the prefix; sha256~ is the prefix`,
  ];
}

t.test('clean streams full of look-alikes are left byte for byte', async (t) => {
  const texts: string[] = [];
  for (let k = 0; k < 40; k++) texts.push(...lookAlikes(k));
  const input = cleanStream(texts);
  const output = redactLines(input);
  t.same(changedTexts(input, output).slice(0, 10), [], `${texts.length} look-alike texts in ${input.length} events: no change`);
  // Events that are not deltas are written as their bytes.
  const plain = input.filter((l) => !l.includes('_delta"'));
  const plainOut = new Set(output.filter((l) => !l.includes('_delta"')));
  t.equal(plain.filter((l) => !plainOut.has(l)).length, 0, 'every non-delta event is written as its original bytes');
});

t.test('config values that name a secret but are not one (issue 11 damage list)', async (t) => {
  const texts = [
    'The token budget is 4000 and TOKEN_LIMIT=4000',
    'PASSWORD_MIN_LENGTH=12',
    'token_type: Bearer',
    'api_key_env: OPENAI_API_KEY',
    // Issue 21: placeholders, colours, markup, references.
    'AKIAXXXXXXXXXXXXXXXX and AKIAIOSFODNN7EXAMPLE',
    'HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'GRAFANA_TOKEN=glc_1111111111111111111111111111111111111111',
    '.btn { color: #123abc; } secret: #a1b2c3',
    '<xsd:element name="password" type="xsd:string"/>',
    'password: vault:kv/data/app#db',
    // Short words, typed runs and template references after a key name.
    'token = foo; secret: changeme; api_key: test; auth_token: REPLACE_ME; key: value',
    'client_secret: your_client_secret and api_key=<your-api-key>',
    'password = "%(db_password)s"; PASSWORD=%(pw)s; password: ${DB_PASSWORD}',
    // Code that reads a secret, and masked displays.
    'api_key = os.environ["API_KEY"]; token = os.getenv("TOKEN"); secret := os.Getenv("SECRET")',
    'apiKey: process.env.OPENAI_API_KEY!, token = tokens[i], password: !vault |',
    'token: ghp_****, API_KEY=sk-proj-abc****',
    'const token = req.headers.authorization?.split(" ")[1]; let token = env::var("TOKEN")?;',
    'api_key: Optional[str] = None; password: str = Field(..., min_length=8); auth = ("user", password)',
    'password: hashedPassword, valueFrom: secretKeyRef: key: password, api_key: "sk-...", token: my-token',
    // All-filler tokens of other vendors.
    'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx sk_live_xxxxxxxxxxxxxxxxxxxxxxxx glpat-xxxxxxxxxxxxxxxxxxxx',
  ];
  const input = cleanStream(texts);
  t.same(changedTexts(input, redactLines(input)).slice(0, 10), [], 'left alone');
});

/**
 * Peer false-positive samples that the built-in rules still change, each
 * with its reason and owner (test/fixtures/redact/corpus/known-false-positives.json,
 * rewritten by `test/redact-corpus-lib.ts --write-known-fps`): most are
 * placeholders or references after a key word that the generic key-value
 * rule (engine helper) takes; the provider ones are real-shaped tokens the
 * peer rejects by a length, an allowlist or an entropy threshold.
 */
const KNOWN_FALSE_POSITIVES = new Map(
  Object.entries(JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'known-false-positives.json'), 'utf8')) as Record<string, string>),
);

t.test('peer false-positive samples are left alone', async (t) => {
  const changes = falsePositiveChanges(falsePositives);
  const changed = changes.map((c) => c.key);
  const owners = new Map<string, number>();
  for (const c of changed) {
    const owner = (KNOWN_FALSE_POSITIVES.get(c) ?? 'unknown:').split(':')[0] ?? 'unknown';
    owners.set(owner, (owners.get(owner) ?? 0) + 1);
  }
  // Samples the same peer reports itself (the builders' `peer` field: another of its rules takes the text,
  // it is one of its true-positive samples, or it is marked a false negative) are counted apart; another
  // peer flagging a sample does not count (MISSES.md states the rule).
  const net = changes.filter((c) => peerPositive(c) === undefined).map((c) => c.key);
  // The mark stays the exception (it cannot swallow the negative set) and a match names another rule.
  const peerReported = falsePositives.filter((f) => f.peer !== undefined);
  t.ok(peerReported.length * 20 <= falsePositives.length, `${peerReported.length} of ${falsePositives.length} samples are reported by their own peer (at most 5%)`);
  t.same(
    peerReported.filter((f) => f.peer === undefined || f.peer.rule === '' || (f.peer.how === 'matched' && f.peer.rule === f.rule)).map((f) => `${f.source}/${f.rule}`),
    [],
    'every mark names a rule of the peer, and a match another rule than the sample\'s',
  );
  t.comment(`${falsePositives.length} peer false-positive samples, ${changed.length} changed (${[...owners].map(([o, n]) => `${o} ${n}`).join(', ')})`);
  const unknown = changed.filter((c) => !KNOWN_FALSE_POSITIVES.has(c));
  t.same(unknown, [], 'no peer false-positive sample is changed beyond the known list');
  const bySource = new Map<string, number>();
  for (const c of changed) {
    const source = c.split('/')[0] ?? c;
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
  }
  t.comment(`false positives per family: ${[...bySource].map(([f, n]) => `${f} ${n}`).join(', ') || 'none'}`);
  t.ok(changed.length <= FLOOR.falsePositives, `${changed.length} changed samples, counting those the peer reports itself, <= ${FLOOR.falsePositives} (floor)`);
  const stale = [...KNOWN_FALSE_POSITIVES.keys()].filter((k) => !changed.includes(k));
  if (stale.length > 0) t.comment(`${stale.length} known false positives are now left alone: rewrite the list with --write-known-fps`);
  t.comment(`${changed.length - net.length} of them are the same peer's positives; ${net.length} are not: ${net.join(' | ')}`);
  // The target of issue 21.
  t.ok(net.length <= 10, `at most 10 changes on the peers' false-positive samples that the peer does not report itself: ${net.length}`);
  t.ok(net.length <= FLOOR.netFalsePositives, `${net.length} <= ${FLOOR.netFalsePositives} (floor)`);
});
