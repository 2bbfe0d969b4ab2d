/**
 * Provider tokens that carry their own prefix (ghp_, xoxb-, AKIA, sk_live_,
 * glpat-, hvs., ...), as data. Written from each provider's documented token
 * format (prefix, alphabet, length, checksum where there is one), never
 * copied from another scanner's rule files. Each rule has a keyword
 * prefilter (`markers`): a line without any marker is never scanned for it.
 *
 * These come before the generic rules of ./rules.ts: at one position the
 * earlier, more specific rule wins.
 *
 * Conventions (checked by test/redact.test.ts): bounded quantifiers only, no
 * repeated group that itself repeats (every pattern runs in linear time); a
 * token starts at a left edge (not glued to a letter or digit, not right
 * after a placeholder, so a second pass finds nothing new); the body's upper
 * bound is generous, so a longer-than-documented token is still redacted
 * whole rather than leaving its tail. Tokens whose prefix is weak (`key-`,
 * `SK`, `dapi`) also need a right edge and an exact length.
 *
 * Sources of the formats: each provider's token documentation (GitHub
 * "About authentication" token prefixes, GitLab "Token prefixes", Slack
 * "Token types", AWS IAM unique-id prefixes, Stripe API keys, ...); the
 * facts about lengths and alphabets were cross-checked against the peer
 * corpus in test/fixtures/redact/corpus.
 */
import { NOT_AFTER_PLACEHOLDER, prefixPattern, type RuleSpec } from './rule-spec.js';

/** Left edge of a token: not glued to a preceding letter or digit, not after a placeholder. */
const EDGE = `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}`;
/** Right edge for fixed-length tokens with a weak prefix. */
const END = '(?![A-Za-z0-9])';

/**
 * Not a placeholder: documentation and tests write `ghp_xxxx...`,
 * `AKIAXXXX...`, `sntryu_aaaa...`, `GR1348941123123...`; those are left alone.
 */
const NOT_PLACEHOLDER_BODY = '(?![xX]{6}|\\*{4}|a{16}|0{16}|(?:123){3})';

/**
 * Not a token whose tail is filler: no `#` or `*` within the token's
 * characters ahead (`xoxp-1234-5678-####`). A lookahead, so a shorter match
 * cannot be found by giving the filler back.
 */
const NOT_FILLED_TAIL = '(?![A-Za-z0-9_-]{0,300}[#*])';

/** Escapes a literal prefix for a regex source. */
function lit(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

interface TokenOptions {
  /** Literal prefixes (the markers); the token starts with one of them. */
  prefixes: string[];
  /** Regex source of what follows the prefix. */
  body: string;
  /** Character class source (without brackets) of the body, for the split-delta partial. */
  alphabet: string;
  /** Longest body, for the partial. */
  max: number;
  /** Regex source of the left edge (default {@link EDGE}). */
  edge?: string;
  /** Match placeholder bodies (`xxxx...`) too: a peer lists one as a real sample. */
  placeholders?: boolean;
  description: string;
}

/**
 * A prefixed-token rule: markers are the prefixes, the partial holds back
 * any prefix of a prefix at a piece's end and any started token.
 */
function token(name: string, o: TokenOptions): RuleSpec {
  const edge = o.edge ?? EDGE;
  const lead = `(?:${o.prefixes.map(lit).join('|')})`;
  return {
    name,
    description: o.description,
    pattern: `${edge}${lead}${o.placeholders ? '' : NOT_PLACEHOLDER_BODY}${o.body}`,
    markers: o.prefixes,
    partial: `${edge}(?:${prefixPattern(o.prefixes)}|${lead}[${o.alphabet}]{0,${o.max}})`,
  };
}

const B64 = 'A-Za-z0-9+/=';
const URLSAFE = 'A-Za-z0-9_\\-';

/** Built-in provider token rules, most specific first. */
export const PROVIDER_RULES: readonly RuleSpec[] = Object.freeze([
  // --- Source hosting -----------------------------------------------------
  token('github-token', {
    description: 'GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    // Classic tokens: 36 base62 (30 random + CRC32 base62); newer installation
    // tokens may carry an id and a dotted JWT-like payload.
    body: `[A-Za-z0-9_]{20,255}(?:\\.[${URLSAFE}]{1,2048}(?:\\.[${URLSAFE}]{1,2048})?)?`,
    alphabet: `${URLSAFE}.`,
    max: 4400,
  }),
  token('github-token', {
    description: 'GitHub fine-grained personal access tokens (github_pat_)',
    prefixes: ['github_pat_'],
    body: '[A-Za-z0-9_]{22,255}',
    alphabet: 'A-Za-z0-9_',
    max: 255,
  }),
  token('gitlab-token', {
    description: 'GitLab tokens of 20 characters or more (glpat-, gldt-, glrt-, glcbt-, glft-, glsoat-, glffct-), routable ones with their .suffix',
    prefixes: ['glpat-', 'gldt-', 'glrt-', 'glcbt-', 'glft-', 'glsoat-', 'glffct-'],
    body: `[${URLSAFE}]{20,300}(?:\\.[0-9a-z]{2,16})?`,
    alphabet: `${URLSAFE}.`,
    max: 320,
  }),
  token('gitlab-token', {
    description: 'GitLab incoming-mail tokens (glimt- + 25)',
    prefixes: ['glimt-'],
    body: `[${URLSAFE}]{25,64}`,
    alphabet: URLSAFE,
    max: 64,
  }),
  token('gitlab-token', {
    description: 'GitLab pipeline trigger tokens (glptt- + 40 hex; taken with any URL-safe body of 40 or more)',
    prefixes: ['glptt-'],
    body: `[${URLSAFE}]{40,128}`,
    alphabet: URLSAFE,
    max: 128,
  }),
  token('gitlab-token', {
    description: 'GitLab agent tokens (glagent- + 50 or more)',
    prefixes: ['glagent-'],
    body: `[${URLSAFE}]{50,128}`,
    alphabet: URLSAFE,
    max: 128,
  }),
  token('gitlab-token', {
    description: 'GitLab OAuth application secrets (gloas- + 64)',
    prefixes: ['gloas-'],
    // Exactly 64 with a right edge: GitLab writes 64 hex characters, and both gitleaks and
    // detect-secrets ask that length; a longer gloas- string is documentation's stand-in.
    body: `[${URLSAFE}]{64}(?![${URLSAFE}])`,
    alphabet: URLSAFE,
    max: 64,
  }),
  token('gitlab-token', {
    description: 'GitLab runner registration tokens (GR1348941...)',
    prefixes: ['GR1348941'],
    body: `[${URLSAFE}]{20,64}`,
    alphabet: URLSAFE,
    max: 64,
  }),
  {
    name: 'gitlab-session',
    description: 'GitLab session cookies (_gitlab_session=...)',
    pattern: `_gitlab_session=(?<secret>[0-9A-Za-z]{20,128})`,
    markers: ['_gitlab_session='],
    partial: `(?:${prefixPattern(['_gitlab_session='])}|_gitlab_session=[0-9A-Za-z]{0,128})`,
  },
  token('bitbucket-token', {
    description: 'Atlassian / Bitbucket API tokens (ATATT, ATCTT, ATBB)',
    prefixes: ['ATATT', 'ATCTT', 'ATBB'],
    body: `[${URLSAFE}=]{24,1024}`,
    alphabet: `${URLSAFE}=`,
    max: 1024,
  }),
  token('sourcegraph-token', {
    description: 'Sourcegraph access tokens (sgp_)',
    prefixes: ['sgp_'],
    // sgp_[<16 hex instance id>|local]_<40 hex>, or the legacy sgp_<40 hex>.
    body: `(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}${END}`,
    alphabet: 'A-Za-z0-9_',
    max: 128,
  }),

  // --- Chat and collaboration -------------------------------------------
  token('slack-token', {
    description: 'Slack tokens (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xoxo-, xoxe-, xoxe.xoxp-, xapp-)',
    prefixes: ['xoxb-', 'xoxp-', 'xoxe-', 'xapp-'],
    // These continue with a numeric team, app or version id (bot and user
    // tokens: 8 digits or more; app tokens: a 1-digit version). A token whose
    // tail is filler (`xoxp-5723...-####################`) is documentation.
    body: `${NOT_FILLED_TAIL}(?:[0-9]{8,16}|[0-9]-[A-Z0-9]{6,16})-[A-Za-z0-9-]{8,255}`,
    edge: `(?<![A-Za-z0-9.])${NOT_AFTER_PLACEHOLDER}`,
    alphabet: 'A-Za-z0-9-',
    max: 255,
  }),
  token('slack-token', {
    description: 'Slack bot and user tokens cut after their team id (xoxb-/xoxp- + 10 to 13 digits)',
    prefixes: ['xoxb-', 'xoxp-'],
    // Logs and error messages cut a token after its first id; the id alone
    // still identifies the workspace and the rest of the token often follows
    // on the next line. Ten digits or more: shorter ids, and the digits
    // counted up (`xoxp-1234567890`), are examples.
    body: `${NOT_FILLED_TAIL}(?!0?1234567890)[0-9]{10,13}(?![0-9])(?:-[A-Za-z0-9-]{1,255})?`,
    edge: `(?<![A-Za-z0-9.])${NOT_AFTER_PLACEHOLDER}`,
    alphabet: 'A-Za-z0-9-',
    max: 269,
  }),
  token('slack-token', {
    description: 'Slack legacy tokens (xoxs-, xoxo-: numeric ids and a hex tail)',
    prefixes: ['xoxs-', 'xoxo-'],
    body: '[0-9]{1,16}-[A-Za-z0-9-]{6,255}',
    alphabet: 'A-Za-z0-9-',
    max: 272,
  }),
  token('slack-token', {
    description: 'Slack legacy workspace and refresh tokens (xoxa-, xoxr-)',
    prefixes: ['xoxa-', 'xoxr-'],
    body: '(?:[0-9]{1,16}-)?[A-Za-z0-9-]{8,255}',
    alphabet: 'A-Za-z0-9-',
    max: 272,
  }),
  token('slack-token', {
    description: 'Slack configuration access and refresh tokens (xoxe.xoxp-, xoxe.xoxb-, xoxe-)',
    prefixes: ['xoxe.xoxp-', 'xoxe.xoxb-', 'xoxe-'],
    body: '[0-9]{1,2}-[A-Za-z0-9]{48,400}',
    alphabet: 'A-Za-z0-9-',
    max: 404,
  }),
  {
    name: 'slack-webhook',
    description: 'Slack incoming webhooks and workflow triggers (hooks.slack.com/services/...)',
    pattern: `hooks\\.slack\\.com/(?:services|workflows|triggers)/(?<secret>[A-Za-z0-9_/+-]{8,255})`,
    markers: ['hooks.slack.com/'],
    partialAnchors: ['hooks.'],
    partial: `(?:${prefixPattern(['hooks.'])}|hooks\\.(?:${prefixPattern(['slack.com/'])}|slack\\.com/(?:${prefixPattern(['services/', 'workflows/', 'triggers/'])}|(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{0,255})))`,
  },
  {
    name: 'teams-webhook',
    description: 'Microsoft Teams incoming webhooks (*.webhook.office.com/webhookb2/...)',
    pattern: `\\.webhook\\.office\\.com/webhookb2/(?<secret>[A-Za-z0-9@/_.-]{20,512})`,
    markers: ['.webhook.office.com/'],
    // The partial is anchored on `webhook.` (not on the leading dot: holding
    // back every sentence's final dot would delay most messages).
    partialAnchors: ['webhook.'],
    partial: `webhook(?:\\.(?:${prefixPattern(['office.com/webhookb2/'])}|office\\.com/webhookb2/[A-Za-z0-9@/_.-]{0,512}))?`,
  },
  {
    name: 'teams-webhook',
    description: 'Microsoft Teams workflow webhooks (*.logic.azure.com/workflows/...?...&sig=...)',
    pattern: `\\.logic\\.azure\\.com(?::443)?/workflows/[A-Za-z0-9]{16,64}/triggers/[A-Za-z0-9_/?=&%.-]{0,400}sig=(?<secret>[A-Za-z0-9_%-]{20,128})`,
    markers: ['.logic.azure.com'],
  },
  {
    name: 'discord-webhook',
    description: 'Discord webhooks (discord.com/api/webhooks/ID/TOKEN)',
    pattern: `discord(?:app)?\\.com/api/webhooks/[0-9]{5,24}/(?<secret>[${URLSAFE}]{20,128})`,
    markers: ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'],
  },
  token('linear-key', {
    description: 'Linear API keys and OAuth tokens (lin_api_, lin_oauth_)',
    prefixes: ['lin_api_', 'lin_oauth_'],
    body: '[A-Za-z0-9]{32,128}',
    alphabet: 'A-Za-z0-9',
    max: 128,
  }),
  token('notion-token', {
    description: 'Notion integration tokens (ntn_)',
    prefixes: ['ntn_'],
    body: `[0-9]{11,12}[A-Za-z0-9]{34,36}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 64,
  }),
  {
    name: 'notion-token',
    description: 'Notion legacy integration secrets (secret_ + 43 base62)',
    pattern: `${EDGE}secret_[A-Za-z0-9]{43}${END}`,
    markers: ['secret_'],
    partial: `${EDGE}(?:${prefixPattern(['secret_'])}|secret_[A-Za-z0-9]{0,43})`,
  },
  token('figma-token', {
    description: 'Figma personal access tokens (figd_)',
    prefixes: ['figd_'],
    body: `[${URLSAFE}]{32,128}`,
    alphabet: URLSAFE,
    max: 128,
  }),
  token('grafana-token', {
    description: 'Grafana Cloud tokens (glc_ + base64) and service account tokens (glsa_)',
    prefixes: ['glc_'],
    body: '[A-Za-z0-9+/]{32,1024}={0,2}',
    alphabet: 'A-Za-z0-9+/=',
    max: 1026,
  }),
  token('grafana-token', {
    description: 'Grafana service account tokens (glsa_ + 32 base62 + _ + 8 hex, or longer)',
    prefixes: ['glsa_'],
    body: '[A-Za-z0-9_]{32,80}',
    alphabet: 'A-Za-z0-9_',
    max: 80,
  }),
  token('postman-key', {
    description: 'Postman API keys (PMAK-)',
    prefixes: ['PMAK-'],
    body: '[A-Za-z0-9]{24}-[A-Za-z0-9]{20,64}',
    alphabet: 'A-Za-z0-9-',
    max: 90,
  }),
  token('airtable-token', {
    description: 'Airtable personal access tokens (pat...{14}.{64 hex})',
    prefixes: ['pat'],
    body: '[A-Za-z0-9]{14}\\.[a-f0-9]{64}',
    alphabet: 'A-Za-z0-9.',
    max: 80,
  }),

  // --- Cloud ---------------------------------------------------------------
  {
    name: 'aws-access-key',
    description: 'AWS access key ids (AKIA, ASIA, ABIA, ACCA)',
    pattern: `(?<![A-Z0-9])${NOT_AFTER_PLACEHOLDER}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16,64}`,
    markers: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    partial: `(?<![A-Z0-9])${NOT_AFTER_PLACEHOLDER}(?:${prefixPattern(['AKIA', 'ASIA', 'ABIA', 'ACCA'])}|(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{0,64})`,
  },
  token('aws-bedrock-key', {
    description: 'Amazon Bedrock API keys (ABSK long-lived, bedrock-api-key- short-lived)',
    prefixes: ['ABSK'],
    body: `[A-Za-z0-9+/]{32,2048}={0,2}`,
    alphabet: B64,
    max: 2050,
  }),
  token('aws-bedrock-key', {
    description: 'Amazon Bedrock short-lived API keys (bedrock-api-key-)',
    prefixes: ['bedrock-api-key-'],
    // base64 of the presigned URL, which starts with "bedrock.amazonaws.com".
    body: `YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/]{0,8192}={0,2}(?:&Version=[0-9]{1,3})?`,
    alphabet: `${B64}&Vrsion`,
    max: 8210,
  }),
  token('google-api-key', {
    description: 'Google API keys (AIza + 35)',
    prefixes: ['AIza'],
    body: `[${URLSAFE}]{35}(?![${URLSAFE}])`,
    alphabet: URLSAFE,
    max: 35,
  }),
  token('google-oauth-token', {
    description: 'Google OAuth access tokens (ya29.)',
    prefixes: ['ya29.'],
    body: `[${URLSAFE}.]{20,2048}`,
    alphabet: `${URLSAFE}.`,
    max: 2048,
  }),
  {
    name: 'azure-client-secret',
    description: 'Azure AD (Entra) client secrets (3 characters, a digit, Q~, 31-34 more)',
    pattern: `(?<![A-Za-z0-9_~.-])${NOT_AFTER_PLACEHOLDER}[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
    markers: ['Q~'],
    reach: 4,
    // The partial starts 4 characters before its anchor (`Q~`, or a piece ending in `Q`).
    partialReach: 4,
    partial: `(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]Q(?:~[A-Za-z0-9_~.-]{0,34})?`,
  },
  token('digitalocean-token', {
    description: 'DigitalOcean tokens (dop_v1_, doo_v1_, dor_v1_)',
    prefixes: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    body: '[A-Za-z0-9]{32,128}',
    alphabet: 'A-Za-z0-9',
    max: 128,
  }),
  token('alibaba-access-key', {
    description: 'Alibaba Cloud AccessKey ids (LTAI)',
    prefixes: ['LTAI'],
    body: `[A-Za-z0-9]{12,28}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 28,
  }),
  token('cloudflare-token', {
    description: 'Cloudflare API tokens (cfat_, cfut_)',
    prefixes: ['cfat_', 'cfut_'],
    body: '[A-Za-z0-9_]{32,128}',
    alphabet: 'A-Za-z0-9_',
    max: 128,
  }),
  token('cloudflare-origin-ca-key', {
    description: 'Cloudflare Origin CA keys (v1.0-<24 hex>-<146 hex>)',
    prefixes: ['v1.0-'],
    body: '[a-f0-9]{24}-[a-f0-9]{64,160}',
    alphabet: 'a-f0-9-',
    max: 190,
  }),
  token('heroku-key', {
    description: 'Heroku API keys, new format (HRKU-)',
    prefixes: ['HRKU-'],
    body: `[${URLSAFE}]{32,128}`,
    alphabet: URLSAFE,
    max: 128,
  }),
  token('fly-token', {
    description: 'Fly.io tokens (fo1_, fm1a_, fm1r_, fm2_)',
    prefixes: ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'],
    body: `[A-Za-z0-9+/_-]{20,8192}={0,3}`,
    alphabet: `${B64}_-`,
    max: 8195,
  }),
  token('vercel-token', {
    description: 'Vercel tokens (vcp_, vci_, vca_, vcr_, vck_)',
    prefixes: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
    body: '[A-Za-z0-9]{24,128}',
    alphabet: 'A-Za-z0-9',
    max: 128,
  }),
  token('tailscale-key', {
    description: 'Tailscale keys (tskey-api-, tskey-auth-, tskey-client-, ...)',
    prefixes: ['tskey-'],
    body: '[A-Za-z0-9-]{16,160}',
    alphabet: 'A-Za-z0-9-',
    max: 160,
  }),
  token('planetscale-token', {
    description: 'PlanetScale tokens and passwords (pscale_tkn_, pscale_pw_, pscale_oauth_)',
    prefixes: ['pscale_tkn_', 'pscale_pw_', 'pscale_oauth_'],
    body: `[A-Za-z0-9=._-]{24,128}`,
    alphabet: 'A-Za-z0-9=._-',
    max: 128,
  }),
  token('pulumi-token', {
    description: 'Pulumi access tokens (pul-)',
    prefixes: ['pul-'],
    body: `[a-f0-9]{40}${END}`,
    alphabet: 'a-f0-9',
    max: 40,
  }),
  token('databricks-token', {
    description: 'Databricks personal access tokens (dapi + 32 hex, optional -N)',
    prefixes: ['dapi'],
    // Not glued to more hex; a letter may follow (`dapi<32 hex>nonprod-test.cloud.databricks.com`
    // is a workspace host named after its token).
    body: '[a-fA-F0-9]{32}(?:-[0-9]{1,2})?(?![A-Fa-f0-9])',
    alphabet: 'A-Za-z0-9-',
    max: 44,
  }),
  token('doppler-token', {
    description: 'Doppler tokens (dp.pt., dp.st., dp.ct., dp.sa., dp.scim., dp.audit.)',
    prefixes: ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'],
    body: '(?:[a-z0-9_-]{1,32}\\.)?[A-Za-z0-9]{30,128}',
    alphabet: 'A-Za-z0-9_.-',
    max: 162,
  }),
  token('vault-token', {
    description: 'HashiCorp Vault tokens (hvs., hvb., hvr.)',
    prefixes: ['hvs.', 'hvb.', 'hvr.'],
    body: `[${URLSAFE}]{20,1024}`,
    alphabet: URLSAFE,
    max: 1024,
  }),
  {
    name: 'terraform-token',
    description: 'Terraform Cloud / HCP API tokens (<14>.atlasv1.<60+>)',
    pattern: `(?<![A-Za-z0-9])(?![xX]{6})[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,128}`,
    markers: ['.atlasv1.'],
    reach: 14,
    partialAnchors: ['.atlasv1.'],
    partialReach: 14,
    partial: `(?<![A-Za-z0-9])[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{0,128}`,
  },
  token('docker-token', {
    description: 'Docker Hub personal access tokens (dckr_pat_, dckr_oat_)',
    prefixes: ['dckr_pat_', 'dckr_oat_'],
    body: `[${URLSAFE}]{20,128}`,
    alphabet: URLSAFE,
    max: 128,
  }),
  token('openshift-token', {
    description: 'OpenShift user tokens (sha256~ + 43 base64url)',
    prefixes: ['sha256~'],
    body: `[${URLSAFE}]{43,64}`,
    alphabet: URLSAFE,
    max: 64,
  }),
  token('octopus-key', {
    description: 'Octopus Deploy API keys (API- + 26 upper-case alphanumerics)',
    prefixes: ['API-'],
    body: `[A-Z0-9]{26}${END}`,
    alphabet: 'A-Z0-9',
    max: 32,
  }),
  token('dynatrace-token', {
    description: 'Dynatrace API tokens (dt0c01.)',
    prefixes: ['dt0c01.', 'dt0s01.'],
    body: '[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}',
    alphabet: 'A-Za-z0-9.',
    max: 90,
  }),
  token('defined-networking-token', {
    description: 'Defined Networking API tokens (dnkey-)',
    prefixes: ['dnkey-'],
    body: `[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{40,64}`,
    alphabet: 'A-Za-z0-9=_-',
    max: 92,
  }),
  token('harness-token', {
    description: 'Harness personal and service account tokens (pat., sat.)',
    prefixes: ['pat.', 'sat.'],
    body: '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}',
    alphabet: 'A-Za-z0-9_.-',
    max: 70,
  }),
  token('artifactory-key', {
    description: 'JFrog Artifactory API keys (AKCp) and reference tokens (cmVmd)',
    prefixes: ['AKCp', 'cmVmd'],
    body: `[A-Za-z0-9]{50,128}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 128,
  }),
  token('clickhouse-key', {
    description: 'ClickHouse Cloud API secret keys (4b1d + 38 base62)',
    prefixes: ['4b1d'],
    body: `[A-Za-z0-9]{38}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 38,
  }),
  token('yandex-key', {
    description: 'Yandex Cloud keys (YC..., AQVN..., t1....)',
    prefixes: ['AQVN', 'YC'],
    body: `[${URLSAFE}]{35,38}${END}`,
    alphabet: URLSAFE,
    max: 38,
  }),
  token('yandex-key', {
    description: 'Yandex Cloud IAM tokens (t1.)',
    prefixes: ['t1.'],
    body: `[A-Za-z0-9_-]{1,64}={0,2}\\.[A-Za-z0-9_-]{80,128}={0,2}`,
    alphabet: `${URLSAFE}.=`,
    max: 200,
  }),
  token('authress-key', {
    description: 'Authress service client access keys (sc_, ext_, scauth_, authress_)',
    prefixes: ['sc_', 'ext_', 'scauth_', 'authress_'],
    body: '[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.acc[_-][a-z0-9-]{10,32}\\.[A-Za-z0-9+/_=-]{30,120}',
    alphabet: 'A-Za-z0-9+/_=.-',
    max: 200,
  }),
  token('scalingo-token', {
    description: 'Scalingo API tokens (tk-us-)',
    prefixes: ['tk-us-'],
    body: `[${URLSAFE}]{40,64}`,
    alphabet: URLSAFE,
    max: 64,
  }),
  token('prefect-token', {
    description: 'Prefect API tokens (pnu_)',
    prefixes: ['pnu_'],
    body: '[A-Za-z0-9]{36}',
    alphabet: 'A-Za-z0-9',
    max: 36,
  }),
  token('infracost-token', {
    description: 'Infracost API tokens (ico-)',
    prefixes: ['ico-'],
    body: `[A-Za-z0-9]{32}${END}`,
    edge: `(?<![A-Za-z0-9.])${NOT_AFTER_PLACEHOLDER}`,
    alphabet: 'A-Za-z0-9',
    max: 32,
  }),
  token('settlemint-token', {
    description: 'SettleMint tokens (sm_pat_, sm_aat_, sm_sat_)',
    prefixes: ['sm_pat_', 'sm_aat_', 'sm_sat_'],
    body: '[A-Za-z0-9]{16,64}',
    alphabet: 'A-Za-z0-9',
    max: 64,
  }),
  token('sonar-token', {
    description: 'SonarQube / SonarCloud tokens (squ_, sqp_, sqa_)',
    prefixes: ['squ_', 'sqp_', 'sqa_'],
    body: `[A-Za-z0-9]{40}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 40,
  }),
  token('frameio-token', {
    description: 'Frame.io API tokens (fio-u-)',
    prefixes: ['fio-u-'],
    body: '[A-Za-z0-9_=-]{64,128}',
    alphabet: 'A-Za-z0-9_=-',
    max: 128,
  }),
  token('readme-token', {
    description: 'ReadMe API keys (rdme_)',
    prefixes: ['rdme_'],
    body: '[a-z0-9]{70,128}',
    alphabet: 'a-z0-9',
    max: 128,
  }),
  token('rubygems-token', {
    description: 'RubyGems API keys (rubygems_ + 48 hex)',
    prefixes: ['rubygems_'],
    body: '[a-f0-9]{48,64}',
    alphabet: 'a-f0-9',
    max: 64,
  }),
  token('clojars-token', {
    description: 'Clojars deploy tokens (CLOJARS_)',
    prefixes: ['CLOJARS_'],
    body: '[A-Za-z0-9]{40,80}',
    alphabet: 'A-Za-z0-9',
    max: 80,
  }),
  token('typeform-token', {
    description: 'Typeform personal access tokens (tfp_)',
    prefixes: ['tfp_'],
    body: '[A-Za-z0-9_=.-]{40,80}',
    alphabet: 'A-Za-z0-9_=.-',
    max: 80,
  }),
  token('mapbox-token', {
    description: 'Mapbox tokens (pk., sk., tk. + base64url.base64url)',
    prefixes: ['pk.', 'sk.', 'tk.'],
    body: `[A-Za-z0-9]{40,128}\\.[${URLSAFE}]{16,64}`,
    alphabet: `${URLSAFE}.`,
    max: 200,
  }),

  // --- Prefixed tokens of services found by trufflehog's and gitleaks' keywords
  token('intra42-secret', {
    description: '42 intra OAuth client secrets (s-s4t2ud-, s-s4t2af- + 64 hex)',
    prefixes: ['s-s4t2ud-', 's-s4t2af-'],
    body: `[a-fA-F0-9]{64}${END}`,
    alphabet: 'a-fA-F0-9',
    max: 64,
  }),
  token('adobe-client-secret', {
    description: 'Adobe I/O client secrets (p8e- + 32 letters and digits)',
    prefixes: ['p8e-'],
    body: `[A-Za-z0-9]{32}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 32,
  }),
  {
    name: 'maxmind-key',
    description: 'MaxMind license keys (6 + _ + 29 letters and digits + _mmk)',
    pattern: `(?<![A-Za-z0-9_])${NOT_AFTER_PLACEHOLDER}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${END}`,
    markers: ['_mmk'],
    reach: 36,
    // The marker ends the key: a piece that ends inside one has no anchor yet.
    partialAnchors: [],
    // A piece ending in a 6-character word is held back until the next piece says whether `_` follows.
    partial: `(?<![A-Za-z0-9_])[A-Za-z0-9]{6}(?:_[A-Za-z0-9]{0,29}(?:_(?:m(?:mk?)?)?)?)?`,
  },
  token('buildkite-token', {
    description: 'Buildkite API access tokens (bkua_)',
    prefixes: ['bkua_'],
    body: `[A-Za-z0-9]{30,64}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 64,
  }),
  token('circleci-token', {
    description: 'CircleCI personal and project API tokens (CCIPAT_, CCIPRJ_)',
    prefixes: ['CCIPAT_', 'CCIPRJ_'],
    body: `[A-Za-z0-9]{16,40}_[a-f0-9]{40}${END}`,
    alphabet: 'A-Za-z0-9_',
    max: 90,
  }),
  token('bitbucket-token', {
    description: 'Bitbucket Data Center HTTP access tokens (BBDC-)',
    prefixes: ['BBDC-'],
    body: `[A-Za-z0-9+/]{40,60}${END}`,
    alphabet: 'A-Za-z0-9+/',
    max: 60,
  }),
  token('langsmith-key', {
    description: 'LangSmith API keys (lsv2_pt_, lsv2_sk_ + 32 hex + _ + 10 hex)',
    prefixes: ['lsv2_pt_', 'lsv2_sk_'],
    body: `[a-f0-9]{32}_[a-f0-9]{10}${END}`,
    alphabet: 'a-f0-9_',
    max: 43,
  }),
  token('langfuse-key', {
    description: 'Langfuse secret and public keys (sk-lf-, pk-lf- + UUID)',
    prefixes: ['sk-lf-', 'pk-lf-'],
    body: `[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}${END}`,
    alphabet: 'a-f0-9-',
    max: 36,
  }),
  token('nvidia-key', {
    description: 'NVIDIA API keys (nvapi-)',
    prefixes: ['nvapi-'],
    body: `[${URLSAFE}]{40,80}`,
    alphabet: URLSAFE,
    max: 80,
  }),
  token('xai-key', {
    description: 'xAI API keys (xai- + 80 letters and digits)',
    prefixes: ['xai-'],
    body: `[A-Za-z0-9]{70,100}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 100,
  }),
  token('hubspot-token', {
    description: 'HubSpot private app access tokens (pat-na1-, pat-eu1- + UUID)',
    prefixes: ['pat-na1-', 'pat-eu1-', 'pat-na2-', 'pat-ap1-'],
    body: `[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}${END}`,
    alphabet: 'a-f0-9-',
    max: 36,
  }),
  token('posthog-key', {
    description: 'PostHog personal API keys (phx_)',
    prefixes: ['phx_'],
    body: `[A-Za-z0-9_]{36,64}${END}`,
    alphabet: 'A-Za-z0-9_',
    max: 64,
  }),
  token('adafruit-key', {
    description: 'Adafruit IO keys (aio_ + 28 letters and digits)',
    prefixes: ['aio_'],
    body: `[A-Za-z0-9]{28}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 28,
  }),
  token('apify-token', {
    description: 'Apify API tokens (apify_api_)',
    prefixes: ['apify_api_'],
    body: `[${URLSAFE}]{30,64}`,
    alphabet: URLSAFE,
    max: 64,
  }),
  token('alchemy-token', {
    description: 'Alchemy access tokens (alcht_)',
    prefixes: ['alcht_'],
    body: `[A-Za-z0-9]{30}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 30,
  }),
  token('rootly-key', {
    description: 'Rootly API keys (rootly_ + 64 hex)',
    prefixes: ['rootly_'],
    body: `[a-f0-9]{64}${END}`,
    alphabet: 'a-f0-9',
    max: 64,
  }),
  token('saladcloud-key', {
    description: 'SaladCloud API keys (salad_cloud_org_, salad_cloud_user_)',
    prefixes: ['salad_cloud_org_', 'salad_cloud_user_'],
    body: `[A-Za-z0-9]{40,80}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 80,
  }),
  token('spectralops-key', {
    description: 'SpectralOps API keys (spu- + 32 hex)',
    prefixes: ['spu-'],
    body: `[a-f0-9]{32}${END}`,
    alphabet: 'a-f0-9',
    max: 32,
  }),
  token('appsync-key', {
    description: 'AWS AppSync API keys (da2- + 26 letters and digits)',
    prefixes: ['da2-'],
    body: `[a-z0-9]{26}${END}`,
    alphabet: 'a-z0-9',
    max: 26,
  }),
  token('figma-token', {
    description: 'Figma personal access and refresh tokens (figp_, figr_)',
    prefixes: ['figp_', 'figr_'],
    body: `[${URLSAFE}]{32,128}`,
    alphabet: URLSAFE,
    max: 128,
  }),
  token('cloudflare-token', {
    description: 'Cloudflare global API keys, new format (cfk_ + 40 letters and digits + 8 hex)',
    prefixes: ['cfk_'],
    // A longer run is still taken whole (up to 128): the prefix is selective.
    body: '[A-Za-z0-9]{40,128}',
    alphabet: 'A-Za-z0-9',
    max: 128,
  }),
  token('pagarme-key', {
    description: 'Pagar.me API keys (ak_live_, ak_test_)',
    prefixes: ['ak_live_', 'ak_test_'],
    body: `[A-Za-z0-9]{30}${END}`,
    alphabet: 'A-Za-z0-9',
    max: 30,
  }),
  token('flexport-token', {
    description: 'Flexport API tokens (shltm_)',
    prefixes: ['shltm_'],
    body: `[${URLSAFE}]{32,64}`,
    alphabet: URLSAFE,
    max: 64,
  }),
  token('bannerbear-key', {
    description: 'Bannerbear master and project API keys (bb_ma_, bb_pr_ + 30 hex)',
    prefixes: ['bb_ma_', 'bb_pr_'],
    body: `[a-f0-9]{30}${END}`,
    alphabet: 'a-f0-9',
    max: 30,
  }),
  token('salesforce-key', {
    description: 'Salesforce refresh tokens (5Aep861 + 80 letters, digits, `.`)',
    prefixes: ['5Aep861'],
    body: `[A-Za-z0-9._]{60,120}${END}`,
    alphabet: 'A-Za-z0-9._',
    max: 120,
  }),
  token('salesforce-key', {
    description: 'Salesforce connected-app consumer keys (3MVG9 + 40 to 100 characters)',
    prefixes: ['3MVG9'],
    body: `[A-Za-z0-9._]{40,100}${END}`,
    alphabet: 'A-Za-z0-9._',
    max: 90,
  }),

  // --- AI providers -------------------------------------------------------
  token('anthropic-key', {
    description: 'Anthropic API and admin keys (sk-ant-...)',
    prefixes: ['sk-ant-'],
    // sk-ant-<kind><2-digit version>-<base64url>: api03, admin01, oat01, ...
    // Keys are 93 characters and a closing `AA` after the kind (api03, admin01); shorter ones
    // and ones that do not end in `AA` are examples.
    body: `(?:api|admin|oat|ort|sid)[0-9]{2}-[${URLSAFE}]{78,254}AA(?![${URLSAFE}])`,
    alphabet: URLSAFE,
    max: 256,
  }),
  token('openai-key', {
    description: 'OpenAI-style API keys (sk-..., sk-proj-..., sk-svcacct-..., sk-admin-...)',
    prefixes: ['sk-'],
    // At least 24: shorter `sk-...` strings are examples and fat-fingered keys.
    // `sk-ant-` is Anthropic's, of a length of its own.
    body: `(?!ant-)[${URLSAFE}]{24,256}`,
    alphabet: URLSAFE,
    max: 256,
  }),
  token('huggingface-token', {
    description: 'Hugging Face tokens (hf_, api_org_ + 34 letters; up to 40 letters and digits accepted)',
    prefixes: ['hf_', 'api_org_'],
    // Current tokens are 34 letters; a bounded length and a right edge keep
    // C identifiers such as hf_requiredCharacteristicTypes... out.
    body: '[A-Za-z0-9]{34,40}(?![A-Za-z0-9_])',
    alphabet: 'A-Za-z0-9',
    max: 40,
    placeholders: true,
  }),
  token('groq-key', {
    description: 'Groq API keys (gsk_)',
    prefixes: ['gsk_'],
    body: '[A-Za-z0-9]{40,64}',
    alphabet: 'A-Za-z0-9',
    max: 64,
  }),
  token('perplexity-key', {
    description: 'Perplexity API keys (pplx-)',
    prefixes: ['pplx-'],
    body: '[A-Za-z0-9]{40,64}',
    alphabet: 'A-Za-z0-9',
    max: 64,
  }),

  // --- Payments and commerce ---------------------------------------------
  {
    name: 'stripe-key',
    // Publishable keys (pk_) are public by design: not taken.
    description: 'Stripe secret and restricted keys (sk_, rk_ with _live_, _test_, _prod_) and webhook secrets (whsec_)',
    pattern: `${EDGE}(?:[sr]k_(?:live|test|prod)_[0-9A-Za-z]{10,247}|whsec_[A-Za-z0-9+/=]{24,128})`,
    markers: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_', 'sk_prod_', 'rk_prod_', 'whsec_'],
    partial: `${EDGE}(?:[sr](?:k(?:_(?:${prefixPattern(['live', 'test', 'prod'])})?)?)?|${prefixPattern(['whsec_'])}|[sr]k_(?:live|test|prod)_[0-9A-Za-z]{0,247}|whsec_[A-Za-z0-9+/=]{0,128})`,
  },
  {
    name: 'freemius-key',
    description: 'Freemius secret keys (sk_ + 29 printable characters, mixed case with a digit)',
    pattern: `${EDGE}sk_(?=[!-~]{0,28}[0-9])(?=[!-~]{0,28}[A-Z])[A-Za-z0-9!#$%&*+=?@^~.:-]{29}(?![A-Za-z0-9!#$%&*+=?@^~-])`,
    markers: ['sk_'],
    partial: `${EDGE}(?:${prefixPattern(['sk_'])}|sk_[A-Za-z0-9!#$%&*+=?@^~.:-]{0,29})`,
  },
  token('shopify-token', {
    description: 'Shopify tokens (shpss_, shpat_, shpca_, shppa_)',
    prefixes: ['shpss_', 'shpat_', 'shpca_', 'shppa_'],
    body: '[A-Za-z0-9]{20,64}',
    alphabet: 'A-Za-z0-9',
    max: 64,
  }),
  token('square-token', {
    description: 'Square access tokens and OAuth secrets (sq0atp-, sq0csp-, EAAA...)',
    prefixes: ['sq0atp-', 'sq0csp-', 'sq0idp-'],
    body: `[${URLSAFE}]{20,64}`,
    alphabet: URLSAFE,
    max: 64,
  }),
  token('facebook-token', {
    description: 'Facebook (Meta) and Square access tokens (EAA...)',
    prefixes: ['EAA'],
    body: `[A-Za-z0-9+=_-]{32,1024}`,
    alphabet: 'A-Za-z0-9+=_-',
    max: 1024,
  }),
  token('shippo-token', {
    description: 'Shippo API tokens (shippo_live_, shippo_test_)',
    prefixes: ['shippo_live_', 'shippo_test_'],
    body: '[a-fA-F0-9]{40,64}',
    alphabet: 'a-fA-F0-9',
    max: 64,
  }),
  token('flutterwave-key', {
    description: 'Flutterwave keys (FLWPUBK-, FLWSECK-, with _TEST)',
    prefixes: ['FLWPUBK_TEST-', 'FLWSECK_TEST-', 'FLWPUBK-', 'FLWSECK-'],
    body: '[A-Za-z0-9]{12,64}(?:-X)?',
    alphabet: 'A-Za-z0-9-',
    max: 66,
  }),
  token('easypost-key', {
    description: 'EasyPost API keys (EZAK, EZTK)',
    prefixes: ['EZAK', 'EZTK'],
    body: `[A-Za-z0-9]{54}${END}`,
    edge: `(?<![A-Za-z0-9+])${NOT_AFTER_PLACEHOLDER}`,
    alphabet: 'A-Za-z0-9',
    max: 54,
  }),
  token('duffel-token', {
    description: 'Duffel API tokens (duffel_test_, duffel_live_)',
    prefixes: ['duffel_test_', 'duffel_live_'],
    body: '[A-Za-z0-9_=-]{40,64}',
    alphabet: 'A-Za-z0-9_=-',
    max: 64,
  }),
  token('plaid-token', {
    description: 'Plaid access tokens (access-sandbox-, access-development-, access-production-)',
    prefixes: ['access-sandbox-', 'access-development-', 'access-production-'],
    body: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
    alphabet: '0-9a-f-',
    max: 36,
  }),

  // --- Messaging, mail, monitoring ---------------------------------------
  {
    name: 'sendgrid-key',
    description: 'SendGrid API keys (SG.)',
    pattern: `${EDGE}SG\\.[A-Za-z0-9_=-]{16,32}(?:\\.[A-Za-z0-9_=-]{16,64}|[A-Za-z0-9_=-]{16,64})`,
    markers: ['SG.'],
    partial: `${EDGE}(?:${prefixPattern(['SG.'])}|SG\\.[A-Za-z0-9_=.-]{0,98})`,
  },
  token('sendinblue-key', {
    description: 'Brevo (Sendinblue) API keys (xkeysib-, xsmtpsib-)',
    prefixes: ['xkeysib-', 'xsmtpsib-'],
    body: '[a-f0-9]{64}-[A-Za-z0-9]{16}',
    alphabet: 'A-Za-z0-9-',
    max: 81,
  }),
  {
    name: 'twilio-key',
    description: 'Twilio API key SIDs and account SIDs (SK/AC + 32 hex)',
    pattern: `${EDGE}(?:SK|AC)[0-9a-fA-F]{32}${END}`,
    markers: ['SK', 'AC'],
    partial: `${EDGE}(?:SK|AC)[0-9a-fA-F]{0,32}`,
  },
  token('mailgun-key', {
    description: 'Mailgun private and public keys (key-, pubkey- + 32 hex)',
    prefixes: ['pubkey-', 'key-'],
    body: `[0-9a-f]{32}${END}`,
    // Not after `-` or `_`: `cache-key-<md5>` is a cache key.
    edge: `(?<![A-Za-z0-9_-])${NOT_AFTER_PLACEHOLDER}`,
    alphabet: '0-9a-f',
    max: 32,
  }),
  {
    name: 'mailchimp-key',
    description: 'Mailchimp API keys (32 hex + -usN data-centre suffix)',
    pattern: `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}[0-9a-f]{32}-us[0-9]{1,2}${END}`,
    markers: ['-us'],
    reach: 32,
  },
  token('newrelic-key', {
    description: 'New Relic keys (NRAK-, NRJS-, NRII-, NRAA-, NRRA-, NRSP-, NRIQ-)',
    prefixes: ['NRAK-', 'NRJS-', 'NRII-', 'NRAA-', 'NRRA-', 'NRSP-', 'NRIQ-'],
    body: '[A-Za-z0-9_-]{16,64}',
    alphabet: 'A-Za-z0-9_-',
    max: 64,
  }),
  token('sentry-token', {
    description: 'Sentry organisation and user auth tokens (sntrys_, sntryu_)',
    prefixes: ['sntrys_'],
    body: '[A-Za-z0-9+/=_]{32,2048}',
    alphabet: 'A-Za-z0-9+/=_',
    max: 2048,
  }),
  token('sentry-token', {
    description: 'Sentry user auth tokens (sntryu_ + 64 hex)',
    prefixes: ['sntryu_'],
    body: `[a-f0-9]{64}${END}`,
    alphabet: 'a-f0-9',
    max: 64,
  }),
  token('contentful-token', {
    description: 'Contentful personal access tokens (CFPAT-)',
    prefixes: ['CFPAT-'],
    body: `[${URLSAFE}]{40,64}`,
    alphabet: URLSAFE,
    max: 64,
  }),
  token('1password-token', {
    description: '1Password service account tokens (ops_eyJ...)',
    prefixes: ['ops_eyJ'],
    body: '[A-Za-z0-9+/=_-]{40,4096}',
    alphabet: 'A-Za-z0-9+/=_-',
    max: 4096,
  }),
  token('1password-secret-key', {
    description: '1Password account secret keys (A3-XXXXXX-...)',
    prefixes: ['A3-'],
    body: '[A-Z0-9]{6}-[A-Z0-9]{5,11}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}(?:-[A-Z0-9]{5})?',
    alphabet: 'A-Z0-9-',
    max: 48,
  }),
  {
    name: 'telegram-bot-token',
    description: 'Telegram bot tokens (bot id:A + 34 base64url)',
    pattern: `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}[0-9]{5,16}:A[${URLSAFE}]{34}(?![${URLSAFE}])`,
    markers: [':A'],
    reach: 16,
  },
  token('dropbox-token', {
    description: 'Dropbox short-lived access tokens (sl.)',
    prefixes: ['sl.'],
    body: `[A-Za-z0-9_=.-]{100,1400}`,
    alphabet: 'A-Za-z0-9_=.-',
    max: 1400,
  }),
  token('age-secret-key', {
    description: 'age secret keys (AGE-SECRET-KEY-1 + 58 bech32)',
    prefixes: ['AGE-SECRET-KEY-1'],
    body: '[02-9AC-HJ-NP-Zac-hj-np-z]{58}',
    alphabet: '02-9AC-HJ-NP-Zac-hj-np-z',
    max: 58,
  }),
  token('npm-token', {
    description: 'npm access tokens (npm_ + 36 base62)',
    prefixes: ['npm_'],
    body: '[A-Za-z0-9]{30,255}',
    alphabet: 'A-Za-z0-9',
    max: 255,
  }),
  token('pypi-token', {
    description: 'PyPI and TestPyPI upload tokens (pypi-AgE...)',
    prefixes: ['pypi-Ag'],
    body: `[${URLSAFE}]{32,1024}`,
    alphabet: URLSAFE,
    max: 1024,
  }),
  token('twitter-bearer-token', {
    description: 'Twitter / X app bearer tokens (21 or more A, then base62 and %-escapes)',
    // The marker is 16 A of the 21: a piece's end is checked for a cut anchor
    // over its last 16 characters only.
    prefixes: ['AAAAAAAAAAAAAAAA'],
    // Then a non-A and some lower case: a run of zero bytes in base64 is not a token.
    body: 'AAAAAA{0,2}(?=[A-Za-z0-9%]{0,40}[a-z])[B-Za-z0-9%][A-Za-z0-9%]{29,199}',
    alphabet: 'A-Za-z0-9%',
    max: 205,
  }),
  token('jwt', {
    description: 'base64-wrapped JSON Web Tokens (ZXlK...: "eyJ" encoded again)',
    prefixes: ['ZXlK'],
    body: '[A-Za-z0-9+/]{40,8192}={0,2}',
    alphabet: 'A-Za-z0-9+/=',
    max: 8194,
  }),
] satisfies RuleSpec[]);
