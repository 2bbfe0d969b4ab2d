/**
 * The last word on a match, after its rule's regex: is the value a secret, or
 * a placeholder, an example, a reference or a word that only has a secret's
 * shape? The peers make the same call with allowlists, stopwords and entropy
 * thresholds (gitleaks' global allowlist and per-rule `entropy`, secretlint's
 * and detect-secrets' "fake"/"example" filters); the facts carry over, the
 * code and the word lists are ours.
 *
 * Called by the engine once per match, where a match is accepted
 * (lib/redact/engine.ts, `Redactor.find`, the `add` closure: right where
 * `isConfigValue` used to be asked). Pure, allocation-light, linear in the
 * length of the value.
 */
import { PROVIDER_RULES } from './providers.js';
import { PLACEHOLDER_PATTERN } from './rule-spec.js';
import { isConfigValue } from './values.js';

/**
 * Minimum Shannon entropy (bits per character) of a provider token's body,
 * by our rule name: a token below it is a filler or a hand-typed example.
 * Values follow gitleaks' per-rule thresholds for the same formats, a little
 * lower where our rule takes a wider format.
 */
export const ENTROPY_FLOOR: Readonly<Record<string, number>> = Object.freeze({
  'aws-access-key': 2.5,
  'aws-bedrock-key': 2.5,
  'github-token': 2.5,
  'gitlab-token': 2.5,
  'huggingface-token': 2,
  'grafana-token': 2.5,
  'azure-client-secret': 2.5,
  'google-api-key': 3,
  'slack-token': 1.5,
  'sourcegraph-token': 3,
  'databricks-token': 2.5,
  'openshift-token': 3,
  'vault-token': 2.5,
  'artifactory-key': 3,
  'clickhouse-key': 2.5,
  'pulumi-token': 2,
  'settlemint-token': 2.5,
  'sentry-token': 2.5,
  'twilio-key': 2.5,
  'stripe-key': 1.5,
  'openai-key': 2.5,
  'anthropic-key': 2.5,
  'npm-token': 2.5,
  'flyio-token': 3,
  'fly-token': 3,
  'maxmind-key': 3,
  'intra42-secret': 3,
  'adobe-client-secret': 2.5,
  'facebook-token': 2.5,
  jwt: 2.5,
  'key-value': 0,
});

/** Shannon entropy of `text` in bits per character (0 for an empty string). */
export function entropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * The body of a token: what follows its vendor prefix (`ghp_`, `glc_`,
 * `AKIA`, `sk-proj-`, `hf_`...). A prefix is letters and digits up to the
 * last `_`/`-`/`.` among the first 16 characters, or the four capitals of an
 * AWS-style id.
 */
export function tokenBody(value: string): string {
  const aws = /^(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9]|ABSK)/.exec(value);
  if (aws) return value.slice(aws[0].length);
  const head = /^[A-Za-z0-9]{1,12}(?:[_.-][A-Za-z0-9]{1,12}){0,3}[_.-]/.exec(value.slice(0, 24));
  return head && head[0].length < value.length - 7 ? value.slice(head[0].length) : value;
}


/**
 * Published values that documentation and sites carry in the open, whatever
 * rule takes them: public Firebase and Maps sample keys (facts of gitleaks'
 * gcp-api-key allowlist), Yarn's documentation search key (a public Algolia
 * search-only key, gitleaks' generic stopword), the passwords of Microsoft's
 * NuGet.config reference page.
 */
const PUBLISHED_KEYS: ReadonlySet<string> = new Set([
  '6fe4476ee5a1832882e326b506d14126',
  '33f!!lloppa',
  'hal+9ooo_da!sY',
  'AIzaSyabcdefghijklmnopqrstuvwxyz1234567',
  'AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs',
  'AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM',
  'AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU',
  'AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
  'AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A',
  'AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c',
  'AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4',
  'AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY',
  'AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM',
  'AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ',
  'AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g',
  'AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU',
  'AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw',
  'AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE',
  'AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY',
]);

/** The next character of an ascending run (`a`->`b`, `8`->`9`, `9`->`0`), case-folded; -1 for none. */
function nextInRun(code: number): number {
  if (code >= 97 && code < 122) return code + 1;
  if (code >= 48 && code < 57) return code + 1;
  return code === 57 ? 48 : -1;
}

/**
 * A value typed as runs of the alphabet or the digits, each of 3 or more,
 * maybe joined by `-`, `_` or `.` (`abc`, `123456`, `abc123xyz`,
 * `AbCeFG123`, `1234-5678`): what people write for "some value". Random
 * text starts a run of 3 about once in 3,800 characters (two successors
 * in a row, 1 in 62 each), so a value made of them is hand-typed. detect-secrets drops wholly
 * sequential strings; gitleaks' entropy floor drops these too. Up to 16
 * characters, the length of a typed stand-in: longer runs fill a token's
 * whole format, which is how test suites write sample tokens (trufflehog
 * lists `abc123def456ghi789jkl012mno345` as a true positive), and are left
 * to the other checks.
 */
export function sequential(value: string): boolean {
  if (value.length < 3 || value.length > 16) return false;
  const v = value.toLowerCase();
  let run = 0;
  let runs = 0;
  let prev = -1;
  for (let i = 0; i <= v.length; i++) {
    const code = i < v.length ? v.charCodeAt(i) : -2;
    if (run > 0 && code === nextInRun(prev)) {
      run++;
      prev = code;
      continue;
    }
    // A run ends here: it must have been 3 long.
    if (run > 0 && run < 3) return false;
    if (code === 45 || code === 95 || code === 46) {
      run = 0;
      prev = -1;
    } else if (code >= 0) {
      if (!((code >= 97 && code <= 122) || (code >= 48 && code <= 57))) return false;
      runs++;
      run = 1;
      prev = code;
    }
  }
  return runs > 0;
}

/**
 * A placeholder: a body that is mostly one filler character (`XXXX`, `xxxx`,
 * `0000`, `1111`, `****`), an AWS-style `...EXAMPLE` value, a run of the
 * alphabet, or `<...>`/`{...}` template text. Real tokens are random: their
 * most frequent character is far below half of them.
 */
export function isPlaceholder(value: string): boolean {
  if (value.includes('EXAMPLE')) return true;
  const body = tokenBody(value);
  // Placeholders are written by hand: a value over 256 characters is judged by its rule alone.
  if (body.length < 6 || body.length > 256) return false;
  // One filler character (x, X, *, a digit, `.`, `-`) making up most of the body.
  let best = 0;
  let bestChar = '';
  const counts = new Map<string, number>();
  for (const ch of body) {
    const n = (counts.get(ch) ?? 0) + 1;
    counts.set(ch, n);
    if (n > best) [best, bestChar] = [n, ch];
  }
  if (best * 10 >= body.length * 6 && /[xX*0-9.#_-]/.test(bestChar)) return true;
  // A run of 8 filler characters (`####################`, `xxxxxxxx`, `********`).
  if (/([xX*#.0])\1{7}/.test(body)) return true;
  // Or only a few distinct characters over a long body (`1111aaaa1111aaaa`, `ababab...`).
  if (body.length >= 16 && counts.size <= 3) return true;
  return periodic(body);
}

/**
 * A body that repeats a short unit (`FakeFakeFake...`, `abcabcabc`,
 * `12341234...`): for some period of 2 to 6 characters, 70% of the characters
 * equal the one a period later. Random tokens match about 1 in 60.
 */
function periodic(body: string): boolean {
  if (body.length < 16) return false;
  for (let unit = 2; unit <= 6; unit++) {
    let same = 0;
    for (let i = 0; i + unit < body.length; i++) if (body[i] === body[i + unit]) same++;
    if (same * 10 >= (body.length - unit) * 7) return true;
  }
  return false;
}

/** Words a value holds when it only stands for a secret (detect-secrets and gitleaks do the same). */
const FAKE_WORDS = /placeholder|changeme|change_me|notreal|not[_-]a[_-]real|insert[_-]|your[_-]|<your|redacted|abcdefghijklmnopqrstuvwxyz/i;

/** A value that is code or a reference rather than a literal secret. */
const IDENT = '(?:[a-z_$][A-Za-z0-9_$]{0,40}|[A-Z][A-Z0-9_]{0,40}|(?:[A-Z][a-z0-9]{1,20}){1,6})';
const REFERENCE = new RegExp(
  // A dotted name, maybe called or asserted non-null (`process.env.API_KEY!`).
  `^(?:${IDENT}(?:\\.${IDENT}){1,8}(?:\\(\\)?)?!?` +
    // Python's `%(name)s`, also as the value rules end it: at the `)` (`%(pw`).
    '|%[sdv]|%\\([a-z_]{1,32}(?:\\)[sd])?' +
    '|(?:vault|secret|op|ssm|awssm|gcpsm|azkv|env|file|ref|sops|doppler|infisical)(?::[A-Za-z0-9_./#@-]{1,256}){1,2}' +
    '|new [A-Za-z_$][A-Za-z0-9_.$]{0,64}\\(?|[A-Za-z_$][A-Za-z0-9_$.]{0,64}\\(\\)?)$',
);
/**
 * A lookup in code: a name called or indexed with a string literal, a short
 * lower-case name, a number or `...`, whole or as the value rules end it at
 * the closing bracket or the quote (`os.getenv("TOKEN"`, `os.environ["API_KEY"`,
 * `tokens[i`, `os.Getenv("SECRET")`, `env::var("TOKEN"`, `req.headers.auth?.split(`,
 * `Optional[str`, `Field(...`). The name starts lower-case, is an upper-case
 * constant or one capitalised word of letters, so a password such as
 * `Xk3s(Pq9aLm` is not one.
 */
const LOOKUP = new RegExp(
  `^(?:[a-z_$][A-Za-z0-9_$]{0,40}|[A-Z][A-Z0-9_]{0,40}|[A-Z][a-z]{2,20})(?:(?:\\??\\.|::)${IDENT}){0,8}[[(](?:"[^"]{0,64}"?|'[^']{0,64}'?|[a-z_][a-z0-9_]{0,11}|[0-9]{1,4}|\\.{3})?[)\\]]?$`,
);
/** A literal of code that only opens (`("user"`, `["a"`): a tuple or list, the value rules end it at the quote. */
const OPENS_LITERAL = /^[([{]\s*(?:"[^"]{0,64}"?|'[^']{0,64}'?)$/;
/** A key of nested YAML or JSON (`key:` in `secretKeyRef: key: password`): a name, not a value. */
const NESTED_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,40}:$/;
/** A vendor prefix and an ellipsis (`sk-...`, `ghp_…`, `sk-proj-...`): an elided example; a cut secret (`Xk3sPq9aLm...`) is not one. */
const ELIDED = /^(?:[A-Za-z0-9]{1,8}[_-]){0,3}(?:\.{3}|\u2026)$/;
/**
 * A word naming the secret, maybe with a typed counter (`token123`, `my-key`,
 * `secret1`, `apikey`): what examples write. After a password key `test`,
 * `secret` and the like stay: they are the weak passwords people do use.
 */
const NAMES_ITSELF = /^(?:my|your|the|some)?[_-]?(?:token|key|secret|api[_-]?key|auth|access[_-]?token|test|demo|value)[_-]?(?:[0-9]|12|123|1234|12345|123456)?$/i;
/**
 * A variable named after a secret (`hashedPassword`, `user_password`, `dbSecret`,
 * `access_token`): lowerCamelCase or snake_case of two words or more, holding it,
 * not its text. One word or PascalCase (`rootpasswd`, `TestSourcePassword`, which
 * gitleaks lists as true positives) is how people write passwords and stays one.
 */
const NAMES_A_SECRET = /pass(?:word|wd)|secret|token|api_?key|credential/i;
const VARIABLE = /^[a-z][a-z0-9]*(?:(?:[A-Z][a-z0-9]+)+|(?:_[a-z0-9]+)+)$/;
/** A YAML tag (`!vault |` for an Ansible-encrypted value, CloudFormation `!Ref`, `!!binary`): the value follows it. */
const YAML_TAG = /^!{1,2}[A-Za-z][A-Za-z0-9_.:-]{0,30}$/;
/** A masked display (`ghp_****`, `sk-...••••1234`): a run of 4 mask characters shows it is not the secret. */
const MASKED = /[*\u2022]{4}/;
/** `${...}` and `#{...}` interpolations of any expression (`${aws_db_instance.default.password}`). */
const INTERPOLATION = /^[$#%]\{[^{}]{1,200}\}$/;
/** A host name (`5h.ca.iphmx.com`, `db.internal`): letters, digits, dots, a TLD-like last label. */
const HOST = /^(?:[a-z0-9-]{1,63}\.){1,8}(?:com|net|org|io|dev|local|internal|lan|corp|cloud|app|ai|co|us|eu|de|uk)$/;
/** An upper-case identifier of words (`NEXUS-GPT4-API-KEY`, `K8S_CREDENTIALS`): a name, not a value. */
const UPPER_NAME = /^(?:[A-Z]{2,}[0-9]{0,2}|[A-Z][0-9][A-Z]|[0-9]{1,4})(?:[-_](?:[A-Z]{2,}[0-9]{0,2}|[A-Z][0-9][A-Z]|[0-9]{1,4})){1,8}$/;
/** A value that itself holds a key naming a secret and its separator: text, not a secret. */
const HOLDS_KEY = /(?:password|passwd|secret|token|api_?key)["']?[ \t]{0,4}[:=]/i;
/**
 * A placeholder of wuu-redact inside a value, or the `~` a home path becomes
 * (`/home/NAME` -> `~`), standing apart from word characters on both sides
 * (`<~ `, `@~`, `"~/x`): a value holding one was redacted in part already,
 * and judging it again would change it on a second pass.
 */
const HAS_PLACEHOLDER = new RegExp(`${PLACEHOLDER_PATTERN}|(?:^|[^A-Za-z0-9_~])~(?![A-Za-z0-9_])`);
/** A key naming a password (the text of the match before its value). */
const PASSWORD_KEY = /pass(?:word|wd|phrase)?|pwd/i;
/** A value encrypted at rest (SOPS `ENC[AES256_GCM,...]`, Ansible `$ANSIBLE_VAULT`): not readable. */
const ENCRYPTED = /^(?:ENC\[[A-Z0-9_]{2,20}(?:,|$)|\$ANSIBLE_VAULT;)/;
/** A CSS colour (`#123abc`), never a secret. */
const COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** An e-mail address: an account name, taken by the e-mail rule when paths are private. */
const EMAIL = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}$/;
/**
 * Words: lower-case, upper-case, Capitalised or camelCase runs of letters,
 * joined by `_`, `.` or `-` (gitleaks' generic allowlist takes any letters;
 * base64 such as `dXNlcjpwYXNz` is not a word).
 */
const WORD = /^(?:[a-z]{1,40}|[A-Z]{1,40}|[A-Z]?[a-z]{1,40}(?:[A-Z][a-z]{1,40}){0,6})(?:[_.-](?:[a-z]{1,40}|[A-Z]{1,40}|[A-Z]?[a-z]{1,40}(?:[A-Z][a-z]{1,40}){0,6})){0,8}$/;
/**
 * A URL without credentials, query or fragment (with a run of 20 token
 * characters, no key in its path, checked apart). A URL with `user:pass@` is
 * still taken whole after a key even when the password alone looks like a
 * stand-in: the key says it is a credential.
 */
const PLAIN_URL = /^[a-z][a-z0-9+.-]{1,20}:\/\/[^\s?#@]{1,2048}$/;
/** The user and password of a URL value. */
const URL_CREDENTIALS = /^[a-z][a-z0-9+.-]{1,20}:\/\/([^\s/:@]{1,256}):([^\s/@]{1,256})@/;
/**
 * Five capitalised words or more in a row, in a value of 64 characters or
 * fewer: an identifier, not random text (four occur by chance in base62
 * tokens of 50, five in tokens of 500: `...JzusRpynUtoHcpfNhgts...`).
 */
const CAMEL_WORDS = /(?:[A-Z][a-z]{2,20}){5}/;
/**
 * Keys whose value is public or not a credential by their name (facts of
 * gitleaks' generic allowlist): CSRF and Rails authenticity tokens are
 * written into every page, public and publishable keys are meant to be
 * shared, and a key naming the vault that stores secrets holds its name.
 */
const PUBLIC_BY_NAME = /(?:csrf|xsrf|authenticity)[_.-]?token|public[_.-]?(?:token|key)|publishable[_.-]?key|vault[A-Za-z0-9_.-]{0,24}secrets$/i;

/** Keys whose name says the value is not a real one (`fakeToken`, `nonMatchingToken`, `EXAMPLE_SECRET`). */
const FAKE_BY_NAME = /fake|dummy|example|sample|mock|placeholder|bogus|non[_-]?matching/i;

/** The whole name of the key of a keyed match: the name's start may lie before the match (`csrf-` + `token=`). */
function keyName(key: string, before: string): string {
  const head = /[A-Za-z0-9_.-]{0,40}$/.exec(before)?.[0] ?? '';
  const name = /^[A-Za-z0-9_.-]{0,64}/.exec(key)?.[0] ?? '';
  return head + name;
}

/** Markup (`<xsd:element name=...`), not a value. */
const MARKUP = /^<[A-Za-z?!/]/;

/**
 * Whether a value taken after a key naming a secret (the key-value,
 * authorization and password rules) is a secret. Beyond the settings and
 * references of ./values.ts: placeholders and fake values, code references,
 * CSS colours, e-mail addresses, markup, and plain words (a password that
 * is one dictionary word is a weak secret; peers skip it too, and words
 * after `token`/`key` are far more often prose than secrets).
 */
export function isKeyedValueSecret(value: string, key = '', before = ''): boolean {
  const v = value.trim();
  if (isConfigValue(v) || PUBLISHED_KEYS.has(v)) return false;
  const name = keyName(key, before);
  if (PUBLIC_BY_NAME.test(name) || FAKE_BY_NAME.test(name)) return false;
  // Already redacted in part (a home path, a user name): a second pass must find nothing new.
  if (HAS_PLACEHOLDER.test(v)) return false;
  // `~` is what a home path becomes (`/home/NAME/...` -> `~/...`): a path, redacted already.
  if (v.startsWith('~')) return false;
  // A hand-typed run (`abc`, `123456`, `AbCeFG123`) stands for a value, after any key.
  if (sequential(v)) return false;
  // After a password key a word is a (weak) password, unless it says it is a stand-in.
  if (PASSWORD_KEY.test(key) && !/fake|dummy|example|sample|^real[_-]?(?:key|secret|password|token)$/i.test(v) && /[A-Za-z0-9]/.test(v)) {
    return !(COLOUR.test(v) || EMAIL.test(v) || MARKUP.test(v) || codeOrMask(v) || ENCRYPTED.test(v) || HOLDS_KEY.test(v) || FAKE_WORDS.test(v) || (v.length >= 8 && isPlaceholder(v)));
  }
  if (COLOUR.test(v) || EMAIL.test(v) || MARKUP.test(v) || codeOrMask(v) || NAMES_ITSELF.test(v)) return false;
  if (HOST.test(v) || UPPER_NAME.test(v) || HOLDS_KEY.test(v) || ENCRYPTED.test(v) || fakeInBase64(v)) return false;
  if (malformedToken(v)) return false;
  // An identifier of five capitalised words or more (`AgencyIdentificationCodeContentType`).
  if (v.length <= 64 && CAMEL_WORDS.test(v)) return false;
  // A URL of plain names (`mongodb://localhost:27017/db`): its password, if any,
  // is url-password's and its query parameters url-parameter's.
  if (PLAIN_URL.test(v) && !/[A-Za-z0-9_-]{20}/.test(v)) return false;
  // Credentials that repeat the user as the password (`postgres://postgres:postgres@localhost`): a local default.
  const creds = URL_CREDENTIALS.exec(v);
  if (creds && creds[1] === creds[2]) return false;
  // A word or a snake/kebab-case phrase; a long run of random letters (`seugeupfknprstoe`) stays a secret.
  if (v.length <= 48 && WORD.test(v) && (v.length <= 12 || /[_.-]/.test(v) || entropy(v) < 3.2)) return false;
  if (FAKE_WORDS.test(v)) return false;
  if (!/[A-Za-z0-9]/.test(v)) return false;
  if (v.length >= 8 && isPlaceholder(v)) return false;
  return true;
}

/** A reference, lookup, interpolation or YAML tag in code or config, or a masked display: no literal secret. */
function codeOrMask(v: string): boolean {
  if (REFERENCE.test(v) || LOOKUP.test(v) || INTERPOLATION.test(v) || YAML_TAG.test(v) || MASKED.test(v)) return true;
  if (OPENS_LITERAL.test(v) || NESTED_KEY.test(v) || ELIDED.test(v)) return true;
  return v.length <= 48 && VARIABLE.test(v) && NAMES_A_SECRET.test(v);
}

/** What the engine asks: may the match `value` of rule `rule` be redacted? */
export interface Verdict {
  /** The rule's name. */
  rule: string;
  /** The text the match would replace (its `secret` group, or the whole match). */
  value: string;
  /** The rule is keyed by a name (RuleSpec.keepSettings): the value is judged as a key-value value. */
  keyed: boolean;
  /** The text of the match before the value (the key and its separator), when the rule has one. */
  key?: string;
  /** Up to 48 characters of the text before the match (the start of a key name the match does not hold). */
  before?: string;
}

/** True when the match is a secret to redact; false for placeholders, examples, references, low entropy. */
export function accept({ rule, value, keyed, key, before }: Verdict): boolean {
  if (keyed) return isKeyedValueSecret(value, key, before);
  if (rule === 'private-key') return privateKeyBody(value);
  if (rule === 'jwt' && !jsonHeader(value)) return false;
  // `Bearer token123`, `Bearer my-token`: a stand-in written in documentation and examples.
  if (rule === 'authorization' && NAMES_ITSELF.test(value)) return false;
  if (PUBLISHED_KEYS.has(value)) return false;
  if (isPlaceholder(value)) return false;
  if (rule === 'openai-key' && openAiWithoutMarker(value)) return false;
  // A URL's password: `${DB_PASSWORD}`, `<password>`, `password`, `****` are templates.
  if (rule === 'url-password') return !isConfigValue(value) && !urlPasswordStandIn(value, key ?? '');
  const floor = ENTROPY_FLOOR[rule];
  return floor === undefined || floor === 0 || entropy(tokenBody(value)) >= floor;
}

/** OpenAI's own key namespaces; plain `sk-` is shared with other vendors (Braintrust, Moonshot, DeepSeek). */
const OPENAI_NAMESPACE = /^sk-(?:proj|svcacct|admin)-/;

/**
 * A key in OpenAI's own namespaces (`sk-proj-`, `sk-svcacct-`, `sk-admin-`)
 * whose body has the length of a whole OpenAI key (20, 58 or 74 characters
 * each side of the 8-character marker) but not the marker `T3BlbkFJ` (base64
 * of "OpenAI") that every such key carries: an example edited by hand (the
 * peers' OpenAI rules ask for the marker; detect-secrets and secretlint list
 * such strings as false positives). A body of any other length may be a key
 * cut short by a display or a log and is still taken.
 */
function openAiWithoutMarker(value: string): boolean {
  const ns = OPENAI_NAMESPACE.exec(value);
  if (!ns) return false;
  const length = value.length - ns[0].length;
  return (length === 48 || length === 124 || length === 156) && !value.includes('T3BlbkFJ');
}

/**
 * A URL password that stands in for one: a template (`{PASS}`, `$(DB_PASS)`),
 * `mypassword`-style words, three characters or fewer, or the user name
 * again (`postgres://postgres:postgres@localhost`, a local default).
 */
function urlPasswordStandIn(value: string, key: string): boolean {
  if (/^(?:\{[^{}]{1,64}\}|\$\([^()]{1,64}\)|(?:my|your|the|db|some|new)[_-]?(?:pass(?:word|wd)?|secret|pwd)|.{1,3})$/i.test(value)) return true;
  const user = /([^/:@]{1,256}):$/.exec(key)?.[1];
  return user === value;
}

/**
 * A PEM block holds a key: at least 16 characters of base64 between its
 * armour lines (gitleaks asks 64 for the whole block). `-----BEGIN PRIVATE
 * KEY-----\nanything\n-----END...` in documentation is not one.
 */
function privateKeyBody(value: string): boolean {
  const open = value.indexOf('-----', 10);
  const end = value.indexOf('-----END', open + 5);
  const body = value.slice(open < 0 ? 0 : open + 5, end < 0 ? value.length : end);
  let n = 0;
  for (let i = 0; i < body.length && n < 16; i++) if (/[A-Za-z0-9+/]/.test(body.charAt(i))) n++;
  return n >= 16 && !isPlaceholder(body.replace(/\\n|\s/g, ''));
}

/** Decodes base64 or base64url (no padding needed); undefined when it is not. */
function decode64(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/_-]{4,}={0,2}$/.test(text)) return undefined;
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
}

/**
 * A JWT whose header starts `eyJ` must decode to a JSON object (`{"alg":...}`):
 * a cut-off or made-up header (`eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ` without
 * its `}`, `eyJhbasdGci...`) is not one. A lone segment (no dot) stays a
 * secret: base64url JSON blobs and tokens cut by the end of the text.
 */
function jsonHeader(value: string): boolean {
  if (!value.startsWith('eyJ')) return true;
  const dot = value.indexOf('.');
  if (dot < 0) {
    // A lone segment: a JWT header alone (`{"alg":...}` and nothing else) is no secret.
    const whole = decode64(value);
    return whole === undefined || !/^\{[\x20-\x7e\s]*\}\s*$/.test(whole);
  }
  const head = decode64(value.slice(0, dot));
  if (head !== undefined && head.includes('}')) return true;
  // A header that is readable text but no JSON object (`{"alg":"HS256"` cut
  // short) is a broken example. One that decodes to bytes (vendor-mangled or
  // encrypted, or an example edited by hand) followed by a JSON payload
  // segment of a JWT's size is a token: gitleaks lists such edited examples
  // as true positives (detect-secrets, which decodes, does not).
  if (head === undefined || /^[\x20-\x7e]*$/.test(head)) return false;
  return dot >= 17 && /^ey[A-Za-z0-9_-]{17}/.test(value.slice(dot + 1));
}

/** A base64 value that decodes to readable text saying it is fake (`ZHVtbXk...` = "dummy..."). */
function fakeInBase64(value: string): boolean {
  if (value.length < 12 || value.length > 512) return false;
  const text = decode64(value);
  return text !== undefined && /^[\x20-\x7e]{6,}$/.test(text.slice(0, 64)) && (FAKE_WORDS.test(text) || /fake|dummy|example|sample/i.test(text));
}

/** Provider rules by their prefixes of 4 characters or more (weak prefixes such as `SK`, `pat` are left out). */
let byPrefix: Array<[string, RegExp[]]> | undefined;

function prefixTable(): Array<[string, RegExp[]]> {
  if (byPrefix) return byPrefix;
  const table = new Map<string, RegExp[]>();
  for (const rule of PROVIDER_RULES) {
    for (const marker of rule.markers ?? []) {
      // Weak or word-like prefixes (`SK`, `pat`, `secret_`) say nothing about a value.
      if (marker.length < 4 || !/^[A-Za-z0-9]/.test(marker) || /^[A-Za-z]+_$/.test(marker)) continue;
      let list = table.get(marker);
      if (!list) table.set(marker, (list = []));
      list.push(new RegExp(`^(?:${rule.pattern})$`, rule.flags ?? ''));
    }
  }
  byPrefix = [...table];
  return byPrefix;
}

/**
 * A value after a key that starts with a provider's prefix but is not a
 * token of that provider (`xoxb-12345-abcd234`, `sk-ant-api03-abc123...`
 * of the wrong length, `28249462:Ahello...`): documentation and tests write
 * such values, and the provider's own format says they are not its tokens.
 */
function malformedToken(value: string): boolean {
  let claimed = false;
  // A long value is a token of a shape we do not know yet, not an example, unless a part of it
  // is hand-typed (`xoxp-1234-1234-1234-...`: ids the provider never issues).
  const typed = value.length >= 40 && value.split(/[-_.:|]/).filter((part) => part.length >= 4 && sequential(part)).length >= 2;
  for (const [prefix, patterns] of prefixTable()) {
    if (!value.startsWith(prefix) || (value.length - prefix.length >= 40 && !typed)) continue;
    claimed = true;
    if (patterns.some((re) => re.test(value))) return false;
  }
  if (!claimed && /^[0-9]{5,16}:A/.test(value)) return !/^[0-9]{5,16}:A[A-Za-z0-9_-]{34}$/.test(value);
  return claimed;
}
