/**
 * The peer secret corpus of wuu-redact, planted into `wuu exec --json`
 * streams: every sample secret of test/fixtures/redact/corpus/secrets.json
 * (built by build.mjs from gitleaks' and secretlint's public test data) goes
 * into every position a secret reaches in a real stream, the streams run
 * through the redaction core in-process, and each planting is judged by what
 * survives in the output. Shared by test/redact-corpus.test.ts and
 * `node --loader ts-node/esm test/redact-corpus-lib.ts` (prints the figures).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedact } from '../lib/redact/index.js';
import { LineRecord, type Output } from '../lib/jsonl.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CORPUS_DIR = path.join(HERE, 'fixtures', 'redact', 'corpus');

/** One sample secret of a peer. */
export interface CorpusSecret {
  source: 'gitleaks' | 'secretlint' | 'trufflehog' | 'detect-secrets';
  provider: string;
  secret: string;
  /** The identifier the peer planted it with (`{id}_api_token = "..."`). */
  id?: string;
  /** The peer's own line around it, when it had one. */
  context?: string;
}

export interface FalsePositiveSample {
  source: string;
  rule: string;
  text: string;
  /**
   * Set by the builders when the same peer reports the sample with another of its rules (or lists it as a
   * true positive, or marks it a false negative): a negative of one rule only, not of the peer.
   */
  peer?: { rule: string; how: 'listed' | 'listed-other-path' | 'matched' | 'false-negative' };
}

/**
 * The corpus: gitleaks' and secretlint's samples (secrets.json, build.mjs) and
 * trufflehog's and detect-secrets' (secrets-wide.json, build-wide.mjs), with
 * the peers' false-positive samples of both builds.
 */
export function loadCorpus(): { secrets: CorpusSecret[]; falsePositives: FalsePositiveSample[] } {
  const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8')) as T;
  const secrets = [...read<{ secrets: CorpusSecret[] }>('secrets.json').secrets, ...read<{ secrets: CorpusSecret[] }>('secrets-wide.json').secrets];
  const falsePositives = [
    ...read<{ samples: FalsePositiveSample[] }>('false-positives.json').samples,
    ...read<{ samples: FalsePositiveSample[] }>('false-positives-wide.json').samples,
  ];
  return { secrets, falsePositives };
}

// ---------------------------------------------------------------------------
// What counts as the secret

/**
 * Documented prefixes of self-identifying tokens (the provider's public
 * format, not a detection rule): a secret that starts with one carries its
 * own prefix and must be caught wherever it appears, without a key name.
 */
export const SELF_PREFIXES: readonly RegExp[] = [
  /^(?:gh[pousr]_|github_pat_)/,
  /^(?:glpat|gloas|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|glffct)-/,
  /^GR1348941/,
  /^(?:xox[abposre]-|xoxe\.xox[bp]-|xapp-)/,
  /^(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\//,
  /^(?:AKIA|ASIA|ABIA|ACCA)/,
  /^(?:ABSK|bedrock-api-key-)/,
  /^(?:[srp]k|whsec)_(?:live|test|prod)_|^whsec_/,
  /^(?:hf_|api_org_)/,
  /^pypi-/,
  /^npm_/,
  /^SG\./,
  /^(?:hv[sbr]\.)/,
  /^do[opr]_v1_/,
  /^shp(?:ss|at|ca|pa)_/,
  /^dapi/,
  /^dp\.(?:pt|st|ct|sa|scim|audit)\./,
  /^ops_eyJ/,
  /^A3-[A-Z0-9]{6}-/,
  /^sntry[su]_/,
  /^lin_api_/,
  /^ntn_/,
  /^gsk_/,
  /^vc[pikar]_/,
  /^tskey-/,
  /^cf[au]t_/,
  /^gl(?:c|sa)_/,
  /^PMAK-/,
  /^pul-/,
  /^pscale_(?:tkn|pw|oauth)_/,
  /^HRKU-/,
  /^AGE-SECRET-KEY-1/,
  /^LTAI/,
  /^EAA[A-Za-z0-9]/,
  /^sq0(?:atp|csp)-/,
  /^f[mo][12][ar]?_/,
  /^sgp_/,
  /^dckr_pat_/,
  /^figd_/,
  /^sk-(?:ant-(?:api|admin)\d\d-|proj-|svcacct-|admin-)?/,
  /^AIza/,
  /^ya29\./,
  /^ATATT/,
  /^NR(?:AK|JS|II)-/,
  /^(?:key|pubkey)-(?=[0-9a-f]{32}$)/,
  /^xkeysib-/,
  /^rubygems_/,
  /^shippo_(?:live|test)_/,
  /^CLOJARS_/,
  /^dnkey-/,
  /^dt0c01\./,
  /^EZ[AT]K/,
  /^FLW(?:PUBK|SECK)(?:_TEST)?-/,
  /^tfp_/,
  /^pnu_/,
  /^rdme_/,
  /^sm_(?:pat|aat|sat)_/,
  /^sq[uap]_/,
  /^pplx-/,
  /^ico-/,
  /^duffel_(?:test|live)_/,
  /^fio-u-/,
  /^sha256~/,
  /^API-(?=[A-Z0-9]{26}$)/,
  /^access-(?:sandbox|development|production)-/,
  /^v1\.0-[0-9a-f]{24}-/,
  /^sk\.[a-z0-9]|^pk\.[a-z0-9]{20}/,
  /^(?:rdme_|sc_|pat\.|sat\.)/,
  /^patk?[A-Za-z0-9]{14}\./,
  /^[0-9a-f]{14}\.atlasv1\./,
  /^AAAAAAAAAAAAAAAAAAAAA/,
  /^(?:t1\.|YC|AQVN)/,
  /^4b1d/,
  /^cmVmd/,
  /^AKCp/,
  /^eyJ/,
  /^-----BEGIN/,
  // Formats added with the trufflehog / detect-secrets samples and the issue-21 misses.
  /^s-s4t2(?:ud|af)-/,
  /^p8e-/,
  /^[A-Za-z0-9]{6}_(?=[A-Za-z0-9]{29}_mmk$)/,
  /^(?:bkua_|CCIPAT_|BBDC-|lsv2_(?:pt|sk)_|[sp]k-lf-|nvapi-|xai-|pat-(?:na|eu)1-|phx_|aio_|apify_api_|alcht_|rootly_|salad_cloud_(?:org|user)_|spu-|da2-|fig[pr]_|cfk_|ak_(?:live|test)_|shltm_|bb_(?:ma|pr)_|3MVG9|5Aep861)/,
  /^(?:dckr_oat_|gloas-|glpat-|sk-or-v1-|sk-proj-)/,
];

/** Peer samples that are not secrets (public identifiers, markers): excluded, with the reason. */
export const NOT_SECRETS: ReadonlyArray<{ match: (s: CorpusSecret) => boolean; reason: string }> = [
  { match: (s) => s.provider === 'gcp-service-account', reason: 'the marker `"type": "service_account"`, not a secret' },
  { match: (s) => s.secret.includes('AWS_ACCOUNT_ID'), reason: 'an AWS account id: public identifier' },
  { match: (s) => s.provider === 'secretlint-azure' && /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(s.secret), reason: 'an Azure tenant/client id (UUID): public identifier' },
  {
    match: (s) => s.provider.startsWith('trufflehog-azure') && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s.secret),
    reason: 'an Azure tenant, client or object id (UUID): public identifier',
  },
  { match: (s) => /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}$/.test(s.secret), reason: 'an e-mail address: an account name, redacted as <email> by the path rules' },
  // A host name ends in a letters-only top-level label (`.com`): dotted tokens (JWTs, `SG.x.y`, `s.x`, `dp.pt.x`) are not hosts.
  { match: (s) => /^(?:https?:\/\/)?[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,5}\.[a-z]{2,24}(?::[0-9]{1,5})?\/?$/i.test(s.secret), reason: 'a host name (and port): public' },
  { match: (s) => isPlaceholderFill(s), reason: 'a placeholder: the body is one character repeated (`xxxx`, `aaaa`, `0000`)' },
  { match: (s) => s.secret.includes('EXAMPLE'), reason: 'an EXAMPLE value (AWS documentation style): the peers allowlist `...EXAMPLE`' },
  { match: (s) => s.source === 'trufflehog' && /^[a-z]+(?:_[a-z]+)+$|^[a-z]+(?:[A-Z][a-z]+)+$/.test(s.secret), reason: 'a field name (`client_email`, `refreshToken`) taken out of a joined trufflehog result' },
  { match: (s) => s.source === 'trufflehog' && /^(?:[a-z0-9]+\/){2,}/.test(s.secret), reason: 'a URL path taken out of a joined trufflehog result' },
  { match: (s) => s.source === 'trufflehog' && isJwtSegment(s.secret), reason: 'one segment of a JWT (a header or claims alone) taken out of a joined trufflehog result' },
];

/** A lone base64url segment that decodes to a whole JSON object: a JWT header or claims part. */
function isJwtSegment(secret: string): boolean {
  if (!/^eyJ[A-Za-z0-9_-]+$/.test(secret)) return false;
  const text = Buffer.from(secret, 'base64url').toString('latin1');
  return /^\{[\x20-\x7e\s]*\}$/.test(text.trim());
}

/** A sample whose body beyond its public prefix is mostly one repeated character (a documentation placeholder). */
function isPlaceholderFill(entry: CorpusSecret): boolean {
  const body = entry.secret.slice(publicPrefix(entry.secret).length).replace(/^(?:AP[0-9A-F]|AKC)/, '');
  if (body.length < 6) return false;
  const counts = new Map<string, number>();
  for (const ch of body) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  if (/(.)\1{11}/.test(body)) return true; // a run of 12 of one character (`AAAAAAAAAAAA`)
  return Math.max(...counts.values()) * 10 >= body.length * 6 && new Set(body).size <= 6;
}

/** The public prefix of a secret that may stay (its documented prefix), or ''. */
export function publicPrefix(secret: string): string {
  if (secret.startsWith('-----BEGIN')) return secret.slice(0, secret.indexOf('-----', 10) + 5);
  const hook = /^(?:https?:\/\/)?hooks\.slack\.com\/[a-z]+\//.exec(secret);
  if (hook) return hook[0];
  for (const re of SELF_PREFIXES) {
    const m = re.exec(secret);
    if (m) return m[0];
  }
  return '';
}

export function isSelfPrefixed(secret: string): boolean {
  return SELF_PREFIXES.some((re) => re.test(secret));
}

/** The part that must not survive: URL and `user:pass` credentials keep the user; PEM keeps its armour. */
export function sensitivePart(entry: CorpusSecret): string {
  const s = entry.secret;
  const url = /^[a-z][a-z0-9+.:-]*:\/\/[^:/@\s]*:(.+)@[^@]*$/.exec(s);
  if (url) return url[1]!;
  if (entry.provider === 'curl-auth-user' || entry.provider.startsWith('sidekiq')) {
    const colon = s.indexOf(':', 1);
    const pass = s.slice(colon + 1).replace(/^["'{]+|["'}]+$/g, '');
    return pass.length >= 4 ? pass : s.replace(/["':{}]/g, '');
  }
  if (s.startsWith('-----BEGIN')) {
    const body = s.slice(s.indexOf('-----', 10) + 5);
    const end = body.indexOf('-----END');
    return (end < 0 ? body : body.slice(0, end)).trim();
  }
  // A connection string (`Endpoint=...;Id=...;Secret=...`, `jdbc:...;password=...`): its secret values.
  const secretValues = [...s.matchAll(/(?:^|[;&?])\s*(?:secret|password|pwd|accountkey|sharedaccesskey|sig|key)\s*=\s*([^;&]+)/gi)].map((m) => m[1]!);
  if (secretValues.length > 0 && (/[;&]/.test(s) || /^[A-Za-z]{3,20}=/.test(s))) return secretValues.join('\n');
  if (s.startsWith('{')) {
    const key = /"private_key"\s*:\s*"([^"]+)"/.exec(s);
    if (key) return key[1]!;
  }
  const rest = s.slice(publicPrefix(s).length);
  return rest === '' ? s : rest;
}

/** Windows of the sensitive part: any one of them in the output is a leak. */
export function leakWindows(entry: CorpusSecret): string[] {
  const body = sensitivePart(entry);
  const width = Math.min(6, body.length);
  const out = new Set<string>();
  // PEM bodies: every line is judged on its own (line breaks may be re-encoded).
  for (const part of body.split(/\r?\n|\\n/)) {
    const p = part.trim();
    if (p.length < Math.min(width, 4)) continue;
    const w = Math.min(width, p.length);
    for (let i = 0; i + w <= p.length; i++) out.add(p.slice(i, i + w));
  }
  return [...out];
}

// ---------------------------------------------------------------------------
// Planting

/** Go's encoding/json: sorted keys, HTML-safe escapes, U+2028/2029 escaped. */
export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** The positions a secret is planted in. */
export const POSITIONS = [
  'bash_output',
  'peer_context',
  'tool_arguments',
  'xml_arguments_uescaped',
  'command_completed',
  'delta_split2',
  'delta_split3',
  'message_final',
  'result_final_message',
  'structured_result',
  'subagent_result',
  'file_path',
  'url',
  'cli_flag',
  'cli_p',
  'yaml',
  'toml',
  'ini',
  'json_output',
  'url_query',
  'auth_header',
] as const;
export type Position = (typeof POSITIONS)[number];

/** One planting: its events and where it is judged. */
interface Planting {
  position: Position;
  /** Thread id of every event of the planting (the judging scope). */
  thread: string;
  events: Array<Record<string, unknown>>;
}

function identifier(entry: CorpusSecret): string {
  const raw = entry.id ?? entry.provider.replace(/^secretlint-/, '').split('-')[0]!;
  const clean = raw.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  return clean === '' ? 'service' : clean;
}

function names(entry: CorpusSecret) {
  const id = identifier(entry);
  return { id, ID: id.toUpperCase(), Id: id[0]!.toUpperCase() + id.slice(1) };
}

/** Prose around a secret: bare for self-prefixed tokens, with its key name otherwise. */
function prose(entry: CorpusSecret, self: boolean): string {
  const { ID } = names(entry);
  return self
    ? `Done. The new credential is ${entry.secret} - store it in your vault.`
    : `Done. Add ${ID}_TOKEN=${entry.secret} to your .env file.`;
}

/**
 * The cut points used for split deltas: every cut from 3 before the secret to
 * 10 into it and in its last 6 characters, every 6th in between (for a
 * secret over 96 characters, every 28th in its middle part: PEM blocks would
 * otherwise dominate), and 2 after it.
 */
function cuts(text: string, secret: string): number[] {
  const at = text.indexOf(secret);
  const from = Math.max(1, at - 3);
  const to = Math.min(text.length - 1, at + secret.length + 2);
  const out: number[] = [];
  for (let i = from; i <= to; i++) {
    const inside = i - at;
    // Every cut near the edges of the secret (where prefixes and anchors are cut), every 4th in between.
    if (inside > 10 && inside < secret.length - 6 && inside % 6 !== 0) continue;
    if (secret.length > 96 && inside > 48 && inside < secret.length - 48 && inside % 7 !== 0) continue;
    out.push(i);
  }
  return out;
}

let counter = 0;

/** Every planting of one secret. */
export function plantings(entry: CorpusSecret, self = isSelfPrefixed(entry.secret)): Planting[] {
  const S = entry.secret;
  const { id, ID, Id } = names(entry);
  const out: Planting[] = [];
  const add = (position: Position, build: (th: string, turn: string, item: string) => Array<Record<string, unknown>>) => {
    const n = counter++;
    const th = `th-${n}`;
    out.push({ position, thread: th, events: build(th, `tu-${n}`, `call_${n}`) });
  };
  const bash = (th: string, turn: string, item: string, command: string, output: string) => {
    const args = goJson({ command });
    return [
      { type: 'turn_started', thread_id: th, turn_id: turn },
      { arguments: args, item_id: item, name: 'bash', thread_id: th, turn_id: turn, type: 'tool_started' },
      { arguments: args, command, item_id: item, name: 'bash', thread_id: th, turn_id: turn, type: 'command_started' },
      { delta: output, item_id: item, thread_id: th, turn_id: turn, type: 'tool_output_delta' },
      { arguments: args, command, delta: output, item_id: item, name: 'bash', thread_id: th, turn_id: turn, type: 'command_output_delta' },
      { error: '', item_id: item, name: 'bash', status: 'completed', thread_id: th, turn_id: turn, type: 'tool_completed' },
      { arguments: args, command, error: '', item_id: item, name: 'bash', status: 'completed', thread_id: th, turn_id: turn, type: 'command_completed' },
      { awaiting_auto_continuation: false, input_tokens: 10, output_tokens: 5, thread_id: th, trace_path: '', turn_id: turn, type: 'turn_completed' },
    ];
  };
  const tool = (th: string, turn: string, item: string, name: string, args: string, output: string) => [
    { type: 'turn_started', thread_id: th, turn_id: turn },
    { arguments: args, item_id: item, name, thread_id: th, turn_id: turn, type: 'tool_started' },
    { delta: output, item_id: item, thread_id: th, turn_id: turn, type: 'tool_output_delta' },
    { error: '', item_id: item, name, status: 'completed', thread_id: th, turn_id: turn, type: 'tool_completed' },
  ];
  const messageTurn = (th: string, turn: string, pieces: string[]) => [
    { type: 'turn_started', thread_id: th, turn_id: turn },
    ...pieces.map((delta) => ({ delta, thread_id: th, turn_id: turn, type: 'agent_message_delta' })),
    { awaiting_auto_continuation: false, input_tokens: 10, output_tokens: 5, thread_id: th, trace_path: '', turn_id: turn, type: 'turn_completed' },
  ];

  add('bash_output', (th, tu, it) => bash(th, tu, it, 'cat .env', `${ID}_TOKEN=${S}\nDEBUG=false\n`));
  add('peer_context', (th, tu, it) =>
    bash(th, tu, it, `grep -rn ${id} config/`, `config/settings:12:${entry.context ?? `${id}_api_token = "${S}"`}\n`),
  );
  add('tool_arguments', (th, tu, it) => bash(th, tu, it, `export ${ID}_TOKEN='${S}' && ./deploy.sh`, 'deployed\n'));
  add('xml_arguments_uescaped', (th, tu, it) =>
    tool(th, tu, it, 'write_file', goJson({ content: `<config>\n  <${id}Token>${S}</${id}Token>\n</config>\n`, path: 'config.xml' }), '{"action":"create","path":"config.xml"}'),
  );
  add('command_completed', (th, tu, it) =>
    bash(th, tu, it, `curl -s -H "X-${Id}-Token: ${S}" https://api.example.com/v1/me`, '{"ok":true}\n'),
  );
  const message = prose(entry, self);
  for (const i of cuts(message, S)) add('delta_split2', (th, tu) => messageTurn(th, tu, [message.slice(0, i), message.slice(i)]));
  // Three pieces: the first cut at every third point, the second halfway to the secret's end.
  for (const i of cuts(message, S).filter((_, k) => k % 3 === 0)) {
    const end = message.indexOf(S) + S.length;
    const seconds = new Set([Math.floor((i + end) / 2)]);
    for (const j of seconds) {
      if (j <= i || j >= message.length) continue;
      add('delta_split3', (th, tu) => messageTurn(th, tu, [message.slice(0, i), message.slice(i, j), message.slice(j)]));
    }
  }
  add('message_final', (th, tu) => [
    { type: 'turn_started', thread_id: th, turn_id: tu },
    { message, thread_id: th, turn_id: tu, type: 'agent_message_final' },
  ]);
  add('result_final_message', (th, tu) => [
    { final_message: message, run_id: 'run-1', status: 'completed', thread_id: th, trace_path: '', turn_id: tu, type: 'result' },
  ]);
  add('structured_result', (th, tu) => [
    {
      final_message: '{"ok":true}',
      run_id: 'run-1',
      status: 'completed',
      structured_result: { credentials: { [`${id}_token`]: S }, rotated: true, summary: 'rotated one key' },
      thread_id: th,
      trace_path: '',
      turn_id: tu,
      type: 'result',
    },
  ]);
  add('subagent_result', (th) => [
    {
      agent_id: `agent-${th}`,
      agent_path: '',
      agent_profile: 'general',
      agent_type: 'task',
      cache_creation_tokens: 0,
      cache_read_tokens: 0,
      description: 'find the key',
      error: '',
      input_tokens: 100,
      output_tokens: 20,
      parent_id: '',
      result: message,
      result_bytes: message.length,
      result_path: '',
      result_truncated: false,
      status: 'completed',
      task_name: 'find-key',
      thread_id: th,
      type: 'subagent_completed',
    },
  ]);
  if (self && !/[\s/"]/.test(S)) {
    add('file_path', (th, tu, it) => tool(th, tu, it, 'read_file', goJson({ path: `/tmp/cache/${S}/session.json` }), 'not found'));
  }
  add('url', (th, tu, it) =>
    bash(
      th,
      tu,
      it,
      'tail -n 1 access.log',
      self && !/[\s"]/.test(S)
        ? `GET https://api.example.com/v1/hooks/${S}/status 200\n`
        : `GET https://api.example.com/v1/items?${id}_token=${encodeURIComponent(S)}&page=2 200\n`,
    ),
  );
  add('cli_flag', (th, tu, it) => bash(th, tu, it, `./deploy --${id}-token=${S} --verbose`, 'ok\n'));
  add('cli_p', (th, tu, it) => bash(th, tu, it, `${id}-cli login -u admin -p ${S}`, 'Logged in.\n'));
  add('yaml', (th, tu, it) => bash(th, tu, it, 'cat config.yml', `${id}:\n  region: us-east-1\n${id}_token: ${S}\n`));
  add('toml', (th, tu, it) => bash(th, tu, it, 'cat config.toml', `[${id}]\napi_key = "${S}"\n`));
  add('ini', (th, tu, it) => bash(th, tu, it, 'cat settings.ini', `[${id}]\n${id}Password = ${S}\n`));
  // A secret-named URL query parameter (issue 21: `?key=`, `access_token=`, `sig=`...), the name rotating per secret.
  const param = ['key', 'access_token', 'sig', 'api_key', 'token', 'client_secret'][identifier(entry).length % 6]!;
  add('url_query', (th, tu, it) =>
    bash(th, tu, it, 'tail -n 1 access.log', `GET https://api.example.com/v1/items?page=2&${param}=${encodeURIComponent(S)} 200\n`),
  );
  add('auth_header', (th, tu, it) =>
    bash(th, tu, it, `curl -s -H "Authorization: Bearer ${S}" https://api.example.com/v1/me`, '{"ok":true}\n'),
  );
  add('json_output', (th, tu, it) =>
    tool(th, tu, it, 'read_file', goJson({ path: 'secrets.json' }), goJson({ content: JSON.stringify({ [`${id}_secret`]: S, region: 'eu' }, null, 2), path: 'secrets.json' })),
  );
  return out;
}

// ---------------------------------------------------------------------------
// Running and judging

/** Runs events through a fresh redaction core; returns the output lines. */
export function redactLines(lines: string[]): string[] {
  const core = createRedact({ log: () => {} });
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  lines.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'corpus.jsonl', i + 1), emit));
  core.endFile?.('corpus.jsonl', emit);
  core.end?.(emit);
  return out.map((o) => (typeof o === 'string' ? o.replace(/\n$/, '') : (o.raw ?? Buffer.from(JSON.stringify(o.event))).toString()));
}

/** Every string of a value (keys too), JSON-holding strings also decoded. */
function strings(value: unknown, into: string[]): void {
  if (typeof value === 'string') {
    into.push(value);
    if (/^\s*[[{]/.test(value)) {
      try {
        strings(JSON.parse(value), into);
      } catch {
        // not JSON
      }
    }
    return;
  }
  if (Array.isArray(value)) for (const v of value) strings(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      strings(v, into);
    }
  }
}

/** Decodes `\uXXXX` escapes however many backslashes precede them. */
function unescapeLoose(text: string): string {
  return text.replace(/\\+u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\+\//g, '/');
}

/**
 * The texts of one scope: raw lines, decoded strings, and each delta stream
 * concatenated. A line without a backslash is its own decoding: every string
 * in it (keys, values, JSON held in a value) is a piece of the line as written,
 * so a window found in one is found in the line, and the line alone stands for
 * them (the leak search is the same, only cheaper). Only delta lines are parsed
 * for their streams then.
 */
function scopeTexts(lines: string[]): string[] {
  const texts: string[] = [];
  const streams = new Map<string, string>();
  for (const line of lines) {
    const escaped = line.includes('\\');
    texts.push(line);
    if (!escaped && !line.includes('_delta"')) continue;
    if (escaped) texts.push(unescapeLoose(line));
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (escaped) strings(event, texts);
    if (typeof event.type === 'string' && event.type.endsWith('_delta') && typeof event.delta === 'string') {
      const key = `${event.type}/${String(event.item_id ?? '')}`;
      streams.set(key, (streams.get(key) ?? '') + event.delta);
    }
  }
  for (const text of streams.values()) texts.push(text, unescapeLoose(text));
  return texts;
}

export interface PlantingResult {
  entry: CorpusSecret;
  position: Position;
  caught: boolean;
  /** For split positions: how many cuts, and how many leaked. */
  cuts: number;
  leakedCuts: number;
  /** The first leaked window, for the report. */
  leak?: string;
}

export interface Measure {
  results: PlantingResult[];
  excluded: Array<{ entry: CorpusSecret; reason: string }>;
  events: number;
}

/** A placeholder wuu-redact writes, raw or JSON-escaped. */
const OWN_PLACEHOLDER = /(?:<|\\+u003c)(?:secret:[A-Za-z0-9_.-]{1,64}|email|user|home|workspace|path|redacted)(?::[0-9a-f]{8})?(?:>|\\+u003e)/g;

/** Joins a planting's texts for the leak search. */
const SEPARATOR = '\u0001';

/** Plants every secret, redacts, judges. */
export function measure(secrets: CorpusSecret[]): Measure {
  counter = 0;
  const results: PlantingResult[] = [];
  const excluded: Measure['excluded'] = [];
  let events = 0;
  for (const entry of secrets) {
    const not = NOT_SECRETS.find((n) => n.match(entry));
    if (not) {
      excluded.push({ entry, reason: not.reason });
      continue;
    }
    const list = plantings(entry);
    const input: string[] = [];
    for (const p of list) for (const e of p.events) input.push(goJson(e));
    events += input.length;
    const output = redactLines(input);
    const byThread = new Map<string, string[]>();
    for (const line of output) {
      const th = /"thread_id":"(th-\d+)"/.exec(line)?.[1] ?? '';
      let group = byThread.get(th);
      if (!group) byThread.set(th, (group = []));
      group.push(line);
    }
    const windows = leakWindows(entry);
    // A window that the planting's own template holds (`-slack` in `--slack-token=`) proves nothing.
    const templates = new Map<Position, string[]>();
    for (const p of plantings({ ...entry, secret: '\u0000' }, isSelfPrefixed(entry.secret))) {
      if (!templates.has(p.position)) templates.set(p.position, scopeTexts(p.events.map((e) => goJson(e))));
    }
    const byPosition = new Map<Position, PlantingResult>();
    for (const p of list) {
      // wuu-redact's own placeholders (`<secret:gitlab-token>`) are not the secret's text.
      const texts = scopeTexts(byThread.get(p.thread) ?? []).map((t) => t.replace(OWN_PLACEHOLDER, '\u0000'));
      const template = templates.get(p.position) ?? [];
      // One search per window over all texts joined (by a character no window holds; else text by text).
      const hay = texts.join(SEPARATOR);
      const found = windows.some((w) => w.includes(SEPARATOR)) ? (w: string) => texts.some((t) => t.includes(w)) : (w: string) => hay.includes(w);
      const leak = windows.find((w) => found(w) && !template.some((t) => t.includes(w)));
      let r = byPosition.get(p.position);
      if (!r) byPosition.set(p.position, (r = { entry, position: p.position, caught: true, cuts: 0, leakedCuts: 0 }));
      r.cuts++;
      if (leak !== undefined) {
        r.leakedCuts++;
        r.caught = false;
        r.leak ??= leak;
      }
    }
    results.push(...byPosition.values());
  }
  return { results, excluded, events };
}

export interface Summary {
  secrets: number;
  providers: number;
  plantings: number;
  caught: number;
  recall: number;
  selfPlantings: number;
  selfCaught: number;
  splitCuts: number;
  splitLeaked: number;
  selfSplitCuts: number;
  selfSplitLeaked: number;
  perPosition: Record<string, { plantings: number; caught: number }>;
  perProvider: Record<string, { plantings: number; caught: number }>;
}

export function summarize(m: Measure): Summary {
  const secrets = new Set(m.results.map((r) => r.entry.secret));
  const providers = new Set(m.results.map((r) => r.entry.provider));
  const perPosition: Summary['perPosition'] = {};
  const perProvider: Summary['perProvider'] = {};
  let caught = 0;
  let selfPlantings = 0;
  let selfCaught = 0;
  let splitCuts = 0;
  let splitLeaked = 0;
  let selfSplitCuts = 0;
  let selfSplitLeaked = 0;
  for (const r of m.results) {
    const self = isSelfPrefixed(r.entry.secret);
    if (r.caught) caught++;
    if (self) {
      selfPlantings++;
      if (r.caught) selfCaught++;
    }
    if (r.position.startsWith('delta_split')) {
      splitCuts += r.cuts;
      splitLeaked += r.leakedCuts;
      if (self) {
        selfSplitCuts += r.cuts;
        selfSplitLeaked += r.leakedCuts;
      }
    }
    const pp = (perPosition[r.position] ??= { plantings: 0, caught: 0 });
    pp.plantings++;
    if (r.caught) pp.caught++;
    const pv = (perProvider[r.entry.provider] ??= { plantings: 0, caught: 0 });
    pv.plantings++;
    if (r.caught) pv.caught++;
  }
  return {
    secrets: secrets.size,
    providers: providers.size,
    plantings: m.results.length,
    caught,
    recall: caught / m.results.length,
    selfPlantings,
    selfCaught,
    splitCuts,
    splitLeaked,
    selfSplitCuts,
    selfSplitLeaked,
    perPosition,
    perProvider,
  };
}

/** A one-line key for a survivor, as listed in the known-gap table and MISSES.md. */
export function survivorKey(r: PlantingResult): string {
  return `${r.entry.provider} ${r.position} ${r.entry.secret.length > 48 ? `${r.entry.secret.slice(0, 45)}...` : r.entry.secret}`;
}

// ---------------------------------------------------------------------------
// False positives

/** A clean stream: the same texts in the positions the corpus uses. */
export function cleanStream(texts: string[]): string[] {
  const lines: string[] = [];
  texts.forEach((text, n) => {
    const th = `th-fp-${n}`;
    const tu = `tu-fp-${n}`;
    const item = `call_fp_${n}`;
    const args = goJson({ command: `echo ${JSON.stringify(text.split('\n')[0])}` });
    lines.push(
      goJson({ thread_id: th, turn_id: tu, type: 'turn_started' }),
      goJson({ arguments: args, item_id: item, name: 'bash', thread_id: th, turn_id: tu, type: 'tool_started' }),
      goJson({ delta: `${text}\n`, item_id: item, thread_id: th, turn_id: tu, type: 'tool_output_delta' }),
      goJson({ arguments: args, command: `echo ${text.split('\n')[0]}`, delta: `${text}\n`, item_id: item, name: 'bash', thread_id: th, turn_id: tu, type: 'command_output_delta' }),
      goJson({ error: '', item_id: item, name: 'bash', status: 'completed', thread_id: th, turn_id: tu, type: 'tool_completed' }),
    );
    // Each split is a message of its own (its own thread): a stream that repeats the text without a
    // separator (`password: real_keypassword: real_key`) is not a text anyone writes.
    for (let cut = 1; cut < Math.min(text.length, 40); cut += 7) {
      const ths = `${th}-c${cut}`;
      lines.push(
        goJson({ thread_id: ths, turn_id: tu, type: 'turn_started' }),
        goJson({ delta: text.slice(0, cut), thread_id: ths, turn_id: tu, type: 'agent_message_delta' }),
        goJson({ delta: text.slice(cut), thread_id: ths, turn_id: tu, type: 'agent_message_delta' }),
        goJson({ awaiting_auto_continuation: false, input_tokens: 1, output_tokens: 1, thread_id: ths, trace_path: '', turn_id: tu, type: 'turn_completed' }),
      );
    }
    lines.push(
      goJson({ message: text, thread_id: th, turn_id: tu, type: 'agent_message_final' }),
      goJson({ awaiting_auto_continuation: false, input_tokens: 1, output_tokens: 1, thread_id: th, trace_path: '', turn_id: tu, type: 'turn_completed' }),
    );
  });
  return lines;
}

/** The texts of the output that differ from the input (after joining delta pieces per stream). */
export function changedTexts(input: string[], output: string[]): string[] {
  const joined = (lines: string[]) => {
    const out: string[] = [];
    const streams = new Map<string, string>();
    for (const line of lines) {
      const e = JSON.parse(line) as Record<string, unknown>;
      if (typeof e.type === 'string' && e.type.endsWith('_delta')) {
        const key = `${String(e.thread_id)}/${e.type}/${String(e.item_id ?? '')}`;
        streams.set(key, (streams.get(key) ?? '') + String(e.delta));
      } else out.push(line);
    }
    return [...out, ...[...streams].map(([k, v]) => `${k}: ${v}`)];
  };
  const before = new Set(joined(input));
  return joined(output).filter((l) => !before.has(l));
}

/** The peers' false-positive samples that redaction changes, keyed as in known-false-positives.json. */
export function falsePositiveChanges(samples: FalsePositiveSample[]): FalsePositiveChange[] {
  const out: FalsePositiveChange[] = [];
  samples.forEach((sample) => {
    const input = cleanStream([sample.text]);
    const changed = changedTexts(input, redactLines(input));
    if (changed.length === 0) return;
    const rules = [...new Set(changed.flatMap((c) => [...c.matchAll(/<(?:secret:)?([a-z0-9.-]+)>/g)].map((m) => m[1]!)))];
    out.push({ key: `${sample.source}/${sample.rule}: ${sample.text.slice(0, 40)}`, rules, ...(sample.peer ? { peer: sample.peer } : {}) });
  });
  return out;
}

const ENGINE_FP_REASONS: Record<string, string> = {
  'key-value': 'engine: the generic key-value rule takes a placeholder, variable reference or low-entropy value after a key word',
  authorization: 'engine: the generic Authorization/Bearer rule takes a placeholder value',
  'url-password': 'engine: the URL-credential rule takes a template password',
  'private-key': 'engine: the PEM rule takes an empty or dummy key block',
  jwt: 'engine: the JWT rule takes an eyJ string the peer rejects by decoding it',
  'aws-secret-key': 'engine: the AWS secret-key rule takes an example value',
  email: 'engine: e-mail addresses are private by default (--paths home), not a secret rule',
  'cli-password': 'engine: the -u/--user/-p flag rule takes a placeholder or variable reference (`test:test`, `$1:$2`, `[PASSWORD]`, `${_password}`)',
};
const PROVIDER_FP_REASONS: Array<[RegExp, string]> = [
  [/telegram/, 'engine: a delta piece that starts inside a 17-digit id matches: a left-edge lookbehind does not see the previous piece of the stream'],
  [/anthropic/, 'providers: a well-formed sk-ant-api03/admin01 key of a length the peer rejects; any length is redacted on purpose'],
  [/gcp-api-key/, 'providers: a real-shaped AIza key the peer allowlists as a published Firebase/Maps key; indistinguishable without that list'],
  [/aws-access-token/, 'providers: AKIA + 16 upper-case characters is a valid key id shape'],
  [/bedrock/, 'providers: a well-formed ABSK key whose payload spells EXAMPLE; kept (the peer lists an almost identical string as a true positive)'],
  [/azure-ad/, 'providers: the `xxx8Q~` + 31-34 shape of an Azure client secret inside another token'],
  [/gitlab-runner/, 'providers: routable glrt-t... shape with x fill after the type digit'],
  [/huggingface/, 'providers: hf_/api_org_ text the peer rejects by an exact 34-letter body; 34-40 letters and digits are accepted (older tokens)'],
  [/slack/, 'providers: a short but well-formed Slack token (xoxb-<digits>-<chars>)'],
  [/sourcegraph/, 'providers: 40 hex after sgp_ is the documented legacy shape'],
  [/^gitleaks\/cisco-meraki-api-key/, "rules: a 40-hex or longer value after a Meraki key name, which the Meraki rule rejects by case or length alone; the key-value rule takes any high-entropy value after a key word (as gitleaks' generic-api-key rule does: another rule, so counted)"],
  [/^secretlint\/aws/, "rules: 56 base64 characters after AWS_SECRET_ACCESS_KEY under a comment saying \"encrypted\": secretlint's AWS rule rejects them by length; the key-value rule takes a high-entropy value after a key name (gitleaks' generic-api-key rule too: another peer, so counted)"],
  [/^detect-secrets\/detect-secrets-jwt/, "providers: an eyJ...eyJ... token whose header does not decode to JSON; detect-secrets decodes it, gitleaks' jwt rule does not and lists undecodable tokens among its own positives, so a decode check would drop them"],
  [/^detect-secrets\/detect-secrets-pypi/, 'providers: 68 characters after pypi-AgEIcHlwaS5vcmc: detect-secrets wants 70 or more, gitleaks 50 or more (its generated positives start at 50)'],
  [/openai/, 'providers: a plain sk- key of 48 characters without the T3BlbkFJ marker: Braintrust and Moonshot issue that shape without it (sk-proj-/sk-svcacct-/sk-admin- keys of a whole key\'s length without the marker are left alone, verdict.ts)'],
];

/** A peer false-positive sample that redaction changes. */
export interface FalsePositiveChange {
  key: string;
  /** The placeholders' rule names in the changed text. */
  rules: string[];
  peer?: FalsePositiveSample['peer'];
}

/**
 * The judging rule for negatives (documented in MISSES.md): a peer's false-positive sample is a negative of
 * one of its rules, and it counts as a false positive of wuu-redact unless the same peer reports that text
 * itself. The builders decide that mechanically from the peer's own test data and rules, never per sample
 * (build.mjs, build-wide.mjs: the `peer` field): the text is one of the peer's true-positive samples (of a
 * sibling rule, or of the same rule under a file path a stream does not carry); or a gitleaks rule without a
 * path condition or allowlist of its own takes it by its keywords, regex and entropy threshold; or the rule
 * file marks it a false negative (a real secret its regex misses). Another peer flagging it does not count.
 */
const PEER_HOW: Record<NonNullable<FalsePositiveSample['peer']>['how'], string> = {
  listed: 'the same peer lists this text as a true positive of its {rule} rule',
  'listed-other-path': 'the same peer lists this text as a true positive of {rule} in another file (a .tf/.hcl path a stream does not carry)',
  matched: "the same peer reports it with its {rule} rule (that rule's keywords, regex and entropy threshold; no path condition or allowlist)",
  'false-negative': 'the peer marks this sample "False Negative": a real secret its {rule} regex misses',
};

/** The peer-positive reason of a changed sample, if the same peer reports it. */
export function peerPositive(c: { peer?: FalsePositiveSample['peer'] }): string | undefined {
  return c.peer ? `peer-positive: ${PEER_HOW[c.peer.how].replace('{rule}', c.peer.rule)}` : undefined;
}

/** The reason of a changed false-positive sample: peer positives, engine rules, then the provider reasons. */
export function falsePositiveReason(c: FalsePositiveChange): string {
  const peer = peerPositive(c);
  if (peer !== undefined) return peer;
  const provider = PROVIDER_FP_REASONS.find(([re]) => re.test(c.key))?.[1];
  if (provider !== undefined) return provider;
  if (c.rules.length > 0 && c.rules.every((r) => ENGINE_FP_REASONS[r] !== undefined)) return c.rules.map((r) => ENGINE_FP_REASONS[r]).join('; ');
  return `UNCLASSIFIED (${c.rules.join(', ')})`;
}

// ---------------------------------------------------------------------------
// Known gaps: every survivor must fall in one of these classes, each with its reason and owner.

/** A class of known survivors. */
export interface GapClass {
  id: string;
  /** Who fixes it: the engine (lib/redact/redact.ts and the generic rules) or the provider rules. */
  owner: 'engine' | 'providers';
  reason: string;
  match: (r: PlantingResult) => boolean;
}

const CONFIG_POSITIONS: ReadonlySet<Position> = new Set([
  'bash_output',
  'peer_context',
  'tool_arguments',
  'command_completed',
  'cli_flag',
  'yaml',
  'toml',
  'ini',
  'json_output',
  'url',
  'structured_result',
]);
const LONG_VALUE_PROVIDERS = /^(?:jwt|private-key|secretlint-privatekey|secretlint-gcp|1password-service-account-token|twitter-bearer-token|generic-api-key)$/;
const CREDENTIAL_PROVIDERS = /^(?:curl-auth-user|secretlint-basicauth|secretlint-database-connection-string|sidekiq-secret|sidekiq-sensitive-url|nuget-config-password)$/;

export const GAP_CLASSES: readonly GapClass[] = [
  {
    id: 'xml-element',
    owner: 'engine',
    reason:
      'XML element named after a secret (`<idToken>S</idToken>`) inside JSON-encoded write_file arguments (`\\u003c`-escaped): not recognised as an assignment, and the value has no provider prefix',
    match: (r) => r.position === 'xml_arguments_uescaped' && !isSelfPrefixed(r.entry.secret),
  },
  {
    id: 'cli-p',
    owner: 'engine',
    reason: '`-p S` (the password flag of mysql, docker login, ...): a flag value with no key word and no provider prefix',
    match: (r) => r.position === 'cli_p' && !isSelfPrefixed(r.entry.secret),
  },
  {
    id: 'long-value-after-key',
    owner: 'engine',
    reason:
      'a key-value match stops at 512 characters, at whitespace or at a quote, and the rest of a long value (JWT, PEM block, JSON key file, long token) is not scanned again by the rule that would take all of it',
    match: (r) => LONG_VALUE_PROVIDERS.test(r.entry.provider) && (CONFIG_POSITIONS.has(r.position) || r.position === 'xml_arguments_uescaped' || r.position === 'cli_p' || r.entry.secret.includes('\n')),
  },
  {
    id: 'credentials',
    owner: 'engine',
    reason: 'user:password credentials (`curl -u user:pass`, `scheme://user:pass@host` with an @ or quote inside, NuGet `<add key="ClearTextPassword" value="S"/>`, Sidekiq `host: user:pass`)',
    match: (r) => CREDENTIAL_PROVIDERS.test(r.entry.provider),
  },
  {
    id: 'value-stop-character',
    owner: 'engine',
    reason:
      'the key-value rule matches first (at the key) and ends its value at `&`, `#`, `,`, `;`, a quote or a bracket, which this secret contains; the rest of the value is not scanned again',
    match: (r) => r.position !== 'xml_arguments_uescaped' && /[&#,;<>)\]}'"\s\\]/.test(r.entry.secret.slice(publicPrefix(r.entry.secret).length)),
  },
  {
    id: 'peer-line-shape',
    owner: 'engine',
    reason:
      "the peer's own sample line has an assignment shape the generic rules do not know (`cloudflare: \"S\"`, `\"user_auth\": \"S\"`, `GetEnvOrDefault(\"api_token\", \"S\")`, `ad_tenant_id: ...`, a keyword but no separator), and the value has no provider prefix",
    match: (r) => r.position === 'peer_context' && !isSelfPrefixed(r.entry.secret),
  },
  {
    id: 'reach-split',
    owner: 'engine',
    reason:
      'a token whose marker is not at its start (Terraform `<14>.atlasv1.`, Azure `xxx8Q~`, Mailchimp `<hex>-us1`, Telegram `<id>:A...`) split before its marker: no partial can anchor there; the engine would have to hold back a trailing run of token characters',
    match: (r) => r.position.startsWith('delta_split') && /atlasv1|Q~|-us[0-9]|:A/.test(r.entry.secret),
  },
  {
    id: 'mask-kept',
    owner: 'engine',
    reason:
      'an all-x token after a key (`HF_TOKEN=hf_xxxx...`): the key-value rule keeps it as a mask and the provider rule is not tried inside the kept value (secretlint lists this all-x hf_ token as a true positive, gitleaks lists all-x ghp_/glpat- tokens as false positives)',
    match: (r) => /^[a-z_]{2,8}[x]{20,}$/.test(r.entry.secret),
  },
  {
    id: 'split3-release',
    owner: 'engine',
    reason:
      'three pieces where the middle one does not complete the token yet (1Password `A3-XXXXXX-...` cut inside, age keys, long tokens): the start held back from the first piece is released when the second arrives instead of being held again, so the first part leaks (two-piece splits of the same secrets are caught)',
    match: (r) => r.position === 'delta_split3',
  },
  {
    id: 'long-token-after-flag',
    owner: 'engine',
    reason: 'a `-p VALUE` flag match wins at the flag and stops before the end of a long token (Fly.io, Bedrock ABSK, 1Password ops_); the provider rule is not tried inside it',
    match: (r) => r.position === 'cli_p' && r.entry.secret.length > 100,
  },
];

/** The gap class of a survivor, or undefined (an unexplained survivor fails the test). */
export function gapClass(r: PlantingResult): GapClass | undefined {
  return GAP_CLASSES.find((g) => g.match(r));
}

/** Recall per family of the corpus (the peer each sample comes from) and standalone or contextual. */
export function perFamily(m: Measure): Record<string, { plantings: number; caught: number; standalone: number; standaloneCaught: number }> {
  const out: Record<string, { plantings: number; caught: number; standalone: number; standaloneCaught: number }> = {};
  for (const r of m.results) {
    const f = (out[r.entry.source] ??= { plantings: 0, caught: 0, standalone: 0, standaloneCaught: 0 });
    f.plantings++;
    if (r.caught) f.caught++;
    if (isSelfPrefixed(r.entry.secret)) {
      f.standalone++;
      if (r.caught) f.standaloneCaught++;
    }
  }
  return out;
}

/** The hand-written part of MISSES.md: what the figures do not say. */
const LEFT: readonly string[] = [
  '## What is left (issue 21, rules side)',
  '',
  '- Standalone recall is above the 99.5% target; what survives is a Databricks sample glued to a host label',
  '  (`dapi<32 hex>nonprod-test`: the token is taken, the label is not), PEM blocks and Planetscale tokens in odd',
  '  plantings (a URL-encoded `=` in a query value), and Discord bot tokens (no selective literal).',
  "- False positives: the samples the same peer reports itself (the `peer` field, set by the builders from the",
  "  peer's own rules and test data: sibling Cloudflare and Anthropic rules, gitleaks' jwt rule on a `Basic` JWT, a",
  '  .tf-only line, a marked false negative, a GitHub token among detect-secrets\' GitLab negatives) are counted apart;',
  '  a redactor cannot leave them and catch those rules\' positives. Of the counted ones, two are e-mail addresses',
  "  (`--paths home`, the default, makes them `<email>`: a privacy rule, not a secret rule), three are high-entropy",
  "  values after a key name that one peer's provider rule rejects by case or length and gitleaks' generic rule",
  "  would take (Meraki, an \"encrypted\" AWS value), one a plain `sk-` key of 48 characters (Braintrust's and",
  "  Moonshot's format too), and two detect-secrets samples that gitleaks' rules take (a JWT with an undecodable",
  '  header, a 68-character PyPI token). Held-out draws of the gitleaks samples (build.mjs with seeds 0x1234567,',
  '  0x7a11ce, 0xbeef01) give the same 6 counted gitleaks/secretlint changes.',
  '- The corpus judges dotted tokens again: a sample is excluded as a host name only when it ends in a letters-only',
  '  label (`.com`); JWTs, `SG.`, `s.`, `dp.pt.`, `pat.` samples were excluded before (21 samples).',
  '- Code after a key name is left alone (lib/redact/verdict.ts): lookups (`os.getenv("TOKEN")`, `tokens[i]`,',
  '  `env::var(...)`, `a?.b(`), type annotations, `%(name)s`, YAML tags (`!vault`), masked (`ghp_****`) and elided',
  "  (`sk-...`) displays, nested YAML keys, camel/snake variables named after a secret (`hashedPassword`); PascalCase",
  '  and one-word values after a password key (`TestSourcePassword`, `rootpasswd`) stay passwords.',
  '- A bare 64-hex secp256k1 key is not taken (indistinguishable from a SHA-256 digest without context); Facebook',
  '  `APPID|SECRET` has no selective literal (both: see lib/redact/peer-rules.ts).',
];

/** The judging rule for the peers' negative samples, as written in MISSES.md. */
const NEGATIVE_RULE: readonly string[] = [
  "A peer's false-positive sample is a negative of one of its rules; it counts against wuu-redact unless the same",
  'peer reports the text itself. The builders decide that mechanically from the peer\'s own test data and rules and',
  'record it as data (the `peer` field of false-positives*.json; never a list of samples): the text is one of the',
  "peer's true-positive samples (of a sibling rule, or of the same rule under a file path a stream does not carry); or",
  'a gitleaks rule without a path condition or an allowlist of its own takes it by its keywords, regex and entropy',
  'threshold; or the rule file marks it a false negative (a real secret its regex misses); or, for detect-secrets, it',
  "holds another plugin's true-positive sample. Another peer flagging a sample does not count: those stay false positives.",
];

const fpLine = (c: FalsePositiveChange): string => `- ${c.key.replace(/\s+/g, ' ').replace(/`/g, "'")} (${c.rules.join(', ')}): ${falsePositiveReason(c)}`;

/** MISSES.md: figures per family and position, the survivors with their reasons, and the false positives. */
export function missesMarkdown(m: Measure, s: Summary, fps: FalsePositiveChange[] = []): string {
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(2)}%`;
  const lines: string[] = [
    '# wuu-redact corpus survivors',
    '',
    'Generated by `node --loader @isaacs/ts-node-temp-fork-for-pr-2009/esm test/redact-corpus-lib.ts --write-misses --write-known-fps`',
    '(test/redact-corpus.test.ts prints the same figures and holds the floors; survivors of the gitleaks and secretlint samples fall in the gap classes below).',
    '',
    `Corpus: ${s.secrets} secrets from ${s.providers} providers (gitleaks, secretlint, trufflehog and detect-secrets test data), ${s.plantings} plantings in ${POSITIONS.length} positions, ${m.events} events.`,
    `Recall: ${pct(s.caught, s.plantings)} of plantings (${s.caught}/${s.plantings}); self-prefixed ${pct(s.selfCaught, s.selfPlantings)} (${s.selfCaught}/${s.selfPlantings});`,
    `split deltas: ${s.splitLeaked} of ${s.splitCuts} cuts leak (self-prefixed ${s.selfSplitLeaked} of ${s.selfSplitCuts}).`,
    `False positives: ${fps.filter((c) => peerPositive(c) === undefined).length} of the peers' false-positive samples are changed (target <= 10); besides them ${fps.filter((c) => peerPositive(c) !== undefined).length}`,
    "samples that the same peer reports itself (another of its rules, a true-positive sample, a marked false negative: the `peer` field) are changed.",
    '',
    '"Standalone" secrets carry their own format (SELF_PREFIXES: a vendor prefix or a documented shape) and are planted',
    'bare in prose; the others are planted after a key name. The corpus draws on gitleaks, secretlint (build.mjs),',
    "trufflehog's detector tests and detect-secrets' tests (build-wide.mjs).",
    '',
    ...LEFT,
    '',
    '## Recall by family',
    '',
    '| family | plantings | recall | standalone | standalone recall |',
    '|---|---|---|---|---|',
    ...Object.entries(perFamily(m)).map(
      ([f, v]) => `| ${f} | ${v.plantings} | ${pct(v.caught, v.plantings)} | ${v.standalone} | ${pct(v.standaloneCaught, v.standalone)} |`,
    ),
    '',
    '## Recall by position',
    '',
    '| position | plantings | recall |',
    '|---|---|---|',
    ...Object.entries(s.perPosition).map(([p, v]) => `| ${p} | ${v.plantings} | ${pct(v.caught, v.plantings)} |`),
    '',
    '## False positives (peer false-positive samples that are changed)',
    '',
    ...NEGATIVE_RULE,
    '',
    ...fps.filter((c) => peerPositive(c) === undefined).map(fpLine),
    '',
    '### Samples the same peer reports itself (not counted)',
    '',
    ...fps.filter((c) => peerPositive(c) !== undefined).map(fpLine),
    '',
    'A planting survives when any 6 consecutive characters of the secret beyond its documented public prefix',
    '(for credentials: of the password; for PEM blocks: of the body) appear in the redacted output of its events',
    '(raw lines, decoded strings, JSON inside strings, delta pieces concatenated), unless the template around it holds them.',
    '',
  ];
  if (m.excluded.length > 0) {
    lines.push('## Excluded samples (not secrets)', '');
    for (const e of m.excluded) lines.push(`- ${e.entry.provider} \`${e.entry.secret.slice(0, 60)}\`: ${e.reason}`);
    lines.push('');
  }
  const groups = new Map<string, PlantingResult[]>();
  for (const r of m.results) {
    if (r.caught) continue;
    const id = gapClass(r)?.id ?? 'UNEXPLAINED';
    let g = groups.get(id);
    if (!g) groups.set(id, (g = []));
    g.push(r);
  }
  for (const [id, list] of groups) {
    const cls = GAP_CLASSES.find((g) => g.id === id);
    lines.push(`## ${id} (${list.length} plantings${cls ? `, owner: ${cls.owner}` : ''})`, '', cls ? cls.reason : 'NOT EXPLAINED: fix or classify.', '');
    for (const r of list) {
      const secret = r.entry.secret.replace(/\s+/g, ' ');
      lines.push(`- ${r.entry.provider} / ${r.position}: \`${secret.length > 60 ? `${secret.slice(0, 57)}...` : secret}\`${r.cuts > 1 ? ` (${r.leakedCuts} of ${r.cuts} cuts)` : ''}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const started = Date.now();
  const only = process.env.ONLY ? new RegExp(process.env.ONLY) : undefined;
  // HELDOUT=FILE: measure another draw (build.mjs with another seed) instead of the corpus.
  const pool = process.env.HELDOUT ? (JSON.parse(fs.readFileSync(process.env.HELDOUT, 'utf8')) as { secrets: CorpusSecret[] }).secrets : loadCorpus().secrets;
  const m = measure(pool.filter((e) => only === undefined || only.test(`${e.source} ${e.provider}`)));
  const s = summarize(m);
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(2)}%`;
  console.log(
    `${s.secrets} secrets, ${s.providers} providers, ${s.plantings} plantings (${m.events} events) in ${Date.now() - started} ms\n` +
      `recall ${pct(s.caught, s.plantings)} (${s.caught}/${s.plantings}); self-prefixed ${pct(s.selfCaught, s.selfPlantings)} (${s.selfCaught}/${s.selfPlantings}); ` +
      `split cuts leaked ${s.splitLeaked}/${s.splitCuts} (self-prefixed ${s.selfSplitLeaked}/${s.selfSplitCuts})`,
  );
  for (const [p, v] of Object.entries(s.perPosition)) console.log(`  ${p.padEnd(24)} ${pct(v.caught, v.plantings).padStart(8)} ${v.caught}/${v.plantings}`);
  if (process.env.PROVIDERS) {
    for (const [p, v] of Object.entries(s.perProvider).sort((a, b) => a[1].caught / a[1].plantings - b[1].caught / b[1].plantings)) {
      if (v.caught < v.plantings) console.log(`  ${p.padEnd(44)} ${v.caught}/${v.plantings}`);
    }
  }
  if (process.env.SURVIVORS) {
    for (const r of m.results) if (!r.caught) console.log(`  MISS ${survivorKey(r)} leak=${JSON.stringify(r.leak)} cuts=${r.leakedCuts}/${r.cuts} class=${gapClass(r)?.id ?? '-'}`);
  }
  if (process.argv.includes('--write-misses')) {
    const fps = falsePositiveChanges(loadCorpus().falsePositives);
    fs.writeFileSync(path.join(HERE, '..', 'MISSES.md'), missesMarkdown(m, s, fps));
  }
  if (process.argv.includes('--write-known-fps')) {
    const known: Record<string, string> = {};
    for (const c of falsePositiveChanges(loadCorpus().falsePositives)) known[c.key] = falsePositiveReason(c);
    fs.writeFileSync(path.join(CORPUS_DIR, 'known-false-positives.json'), `${JSON.stringify(known, null, 1)}\n`);
    console.log(`known false positives: ${Object.keys(known).length}, unclassified ${Object.values(known).filter((v) => v.startsWith('UNCLASSIFIED')).length}`);
  }
}
