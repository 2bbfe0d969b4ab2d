/**
 * The built-in rules of wuu-redact, as data: generic key-value and
 * authorization rules, private keys, URL credentials, home directories,
 * e-mail and paths. Provider tokens with their own prefix live in
 * ./providers.ts and come first (the most specific rule wins at a position).
 * The regex toolkit and the rule shape are in ./rule-spec.ts.
 */
import { caseless, NOT_AFTER_PLACEHOLDER, prefixPattern, type RuleSpec } from './rule-spec.js';
import { PROVIDER_RULES } from './providers.js';
/** Left edge of a token: not glued to a preceding letter or digit. */
const EDGE = `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}`;

/**
 * Words that name a secret in `KEY=value`, `key: value`, `"key": "value"`.
 * Matched case-insensitively at a name boundary (after a non-letter, or at a
 * camelCase hump), and followed only by a suffix that starts with a
 * non-lowercase character, so `author`, `tokens` and `secretary` do not count.
 */
export const SECRET_KEY_WORDS: readonly string[] = Object.freeze([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'apikey',
  'api_key',
  'api-key',
  'access_key',
  'access-key',
  'accesskey',
  'private_key',
  'private-key',
  'privatekey',
  'auth',
  'authorization',
  'authentication',
  'credential',
  'credentials',
  'creds',
]);


/**
 * Markers that count only when no lower-case letter follows them (`token`
 * but not `tokens`): every key word, as the key-value rules require.
 */
export const WORD_MARKERS: ReadonlySet<string> = new Set(SECRET_KEY_WORDS);
const KEY_MARKERS = [...SECRET_KEY_WORDS];

const NAME_BOUNDARY = `(?:(?<![A-Za-z])${NOT_AFTER_PLACEHOLDER}|(?<=[a-z])(?=[A-Z]))`;
const KEY_WORD = `(?:${[...SECRET_KEY_WORDS].sort((a, b) => b.length - a.length).map(caseless).join('|')})`;
const KEY_SUFFIX = '(?:[A-Z0-9_.-][A-Za-z0-9_.-]{0,32})?';
/**
 * Between a key and its value: a closing quote or bracket (`os.environ["X"] =`),
 * any run of blanks, an optional declared type (`var x string =`,
 * `const x: string =`), and an assignment operator of any common language
 * (`=`, `:`, `:=`, `::=`, `?=`, `.=`, `+=`, `=>`, `||=`, `??=`, `<-`).
 */
const KEY_SEPARATOR =
  '(?:\\\\?["\'`]\\]?)?[ \\t]{0,64}' +
  '(?:(?::[ \\t]{0,4})?[A-Za-z_][A-Za-z0-9_.]{0,32}(?:\\[\\])?[ \\t]{1,8}(?=[:?.+|]{0,3}=))?' +
  '(?:::=|:=|\\?\\?=|\\|\\|=|[?.+]=|=>|<-|[:=])[ \\t]{0,64}';
/**
 * The start of a placeholder: a value that is already one is left alone (idempotence).
 * `[REDACTED]` is exec's own mask (it redacts tool arguments upstream: `token=[REDACTED]`,
 * `Authorization: [REDACTED] [REDACTED]`); taking it for a value would cut it in two.
 */
const PLACEHOLDER_START = '(?:<(?:secret|redacted|email|user|home|workspace|path)[:>]|\\[REDACTED\\])';
const NOT_PLACEHOLDER = `(?!${PLACEHOLDER_START})`;
/** A PEM block's armour: a key pasted as a header value is the private-key rule's, whole. */
const PEM_START = '-----BEGIN';
const AUTH_SCHEME = '(?:[Bb]earer|BEARER|[Bb]asic|BASIC)';
/** A value that is itself another key and its separator (`credential: password = S`): the inner key wins. */
const NOT_KEY = `(?!${KEY_WORD}${KEY_SUFFIX}[ \\t]{0,8}(?:::=|:=|\\?=|[:=]))`;
/**
 * A provider's error code and its message (`invalid_api_key: Incorrect API key provided`,
 * `authentication_error: invalid x-api-key`): the code names a problem with a secret and
 * what follows is prose, a word of letters then a blank. Checked at the value's start;
 * a value with a digit or a symbol after such a code is still taken.
 */
const ERROR_CODE_KEY =
  `(?:${['invalid', 'incorrect', 'missing', 'expired', 'revoked', 'unknown', 'bad', 'wrong'].map(caseless).join('|')})[_-][A-Za-z_-]{0,40}` +
  `|[_-](?:${['error', 'invalid', 'expired', 'missing', 'required'].map(caseless).join('|')})`;
const NOT_ERROR_MESSAGE = `(?!(?<=(?:${ERROR_CODE_KEY})[ \\t]{0,4}:[ \\t]{1,4})[A-Za-z]{1,40}[ \\t])`;
/**
 * Last words of URL query parameters that carry a secret (`?key=`, `api_key=`,
 * `access_token=`, `&sig=`, `X-Amz-Signature=`, `client_secret=`...).
 */
const URL_PARAM_WORDS: readonly string[] = ['key', 'apikey', 'token', 'sig', 'signature', 'secret', 'password', 'passwd', 'pwd', 'auth'];

/** Longest value taken after a key name. */
const VALUE_MAX = 4096;

/**
 * A key whose last word says it holds something about a secret, not the
 * secret: `credentialsId`, `UserSecretsId`, `TOKEN_URL`, `authSource`,
 * `password_file`. Checked right after the key (a lookbehind). `secret_id`
 * (Vault) stays a secret.
 */
const NOT_ID_KEY =
  `(?<!(?<!${caseless('secret')}[_.-]?)(?:[Ii][Dd]|IDS?|[Ii]ds)|${['name', 'url', 'uri', 'path', 'file', 'type', 'length', 'count', 'env', 'limit', 'source', 'size', 'ttl', 'mode', 'format', 'header', 'field', 'label', 'store', 'hash', 'provider', 'endpoint', 'host', 'expiry', 'version', 'policy', 'min', 'max'].map((w) => `[${w.charAt(0).toUpperCase()}${w.charAt(0)}]${caseless(w.slice(1))}`).join('|')})`;

/** Matches a whole object key that names a secret (for structured values). */
export const SECRET_KEY_NAME = new RegExp(`${NAME_BOUNDARY}${KEY_WORD}(?![a-z])`);

/** True for a key that does not end with a word saying it is about a secret (an id, a URL, a name...). */
export const NOT_ABOUT_SECRET = new RegExp(`${NOT_ID_KEY}$`);

/** Characters of a user name in a home path (no trailing dot). */
const USER_CHAR = 'A-Za-z0-9_\\-\\u0080-\\uFFFF';
const USER_NAME = `[${USER_CHAR}](?:[${USER_CHAR}.]{0,62}[${USER_CHAR}])?`;
const USER_NAME_PARTIAL = `[${USER_CHAR}.]{0,64}`;


/** The built-in secret rules, most specific first (earlier wins at the same position). */
export const DEFAULT_RULES: readonly RuleSpec[] = Object.freeze([
  ...PROVIDER_RULES,
  {
    name: 'private-key',
    description: 'PEM private key blocks (RSA, EC, OpenSSH, PGP, PKCS#8), up to 32 KiB',
    pattern:
      '-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY[A-Z ]{0,12}-----(?:[\\s\\S]{0,32768}?-----END[A-Z0-9 ]{0,40}PRIVATE KEY[A-Z ]{0,12}-----|[\\s\\S]{0,32768})',
    markers: ['-----BEGIN'],
    partial:
      `(?<!-)(?:-{1,5}|-----${prefixPattern(['BEGIN'])}|-----BEGIN[A-Z0-9 ]{1,64}-{0,5}` +
      '|-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY[A-Z ]{0,12}-----(?:(?!-----END)[\\s\\S]){0,16384}(?:-{1,5}(?:E(?:N(?:D[A-Z0-9 ]{0,64}-{0,5})?)?)?)?)',
  },
  {
    name: 'aws-secret-key',
    description: 'AWS secret access keys after a key name (aws_secret_access_key=...)',
    pattern: `${caseless('aws')}[A-Za-z0-9_.-]{0,32}${caseless('secret')}[A-Za-z0-9_.-]{0,32}${KEY_SEPARATOR}(?:\\\\?["'])?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    markers: ['aws'],
    // Covered by the key-value partial: the key word `secret` is held back.
  },
  {
    name: 'jwt',
    description: 'JSON Web Tokens and other base64url JSON (eyJ...)',
    // Not the payload of a dotted token (`header.eyJ...`): the token is taken from its header.
    pattern: `(?<![A-Za-z0-9_-]|[A-Za-z0-9_-]\\.)${NOT_AFTER_PLACEHOLDER}eyJ[A-Za-z0-9_-]{8,1024}(?:\\.[A-Za-z0-9_-]{0,8192}(?:\\.[A-Za-z0-9_-]{0,4096})?)?`,
    markers: ['eyJ'],
    partial: `(?<![A-Za-z0-9_-])${NOT_AFTER_PLACEHOLDER}(?:${prefixPattern(['eyJ'])}|eyJ[A-Za-z0-9_-]{0,1024}(?:\\.[A-Za-z0-9_-]{0,8192}(?:\\.[A-Za-z0-9_-]{0,4096})?)?)`,
  },
  {
    name: 'jwt',
    description: 'JSON Web Tokens whose header is not the usual eyJ (ey.../ew... base64url JSON, two dotted parts at least)',
    // Matched at the `.ey` between header and payload; the header is the `lead` group, inside a lookbehind.
    pattern: `\\.(?<=(?<![A-Za-z0-9_/\\\\-])${NOT_AFTER_PLACEHOLDER}(?<lead>e[wy][A-Za-z0-9_-]{17,1024}={0,2})\\.)ey[A-Za-z0-9_-]{17,8192}={0,2}(?:\\.[A-Za-z0-9_-]{0,4096}={0,2})?`,
    markers: ['.ey'],
  },
  {
    name: 'aws-secret-key',
    description: 'AWS secret keys in JSON (SecretAccessKey)',
    pattern: `${caseless('secretaccesskey')}(?:\\\\?["'])?[ \\t]{0,4}[:=][ \\t]{0,4}(?:\\\\?["'])?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    markers: ['secretaccesskey'],
  },
  {
    name: 'authorization',
    description: 'Authorization header values, whatever the scheme (Bearer, Basic, Token 2|...)',
    pattern: `${NAME_BOUNDARY}${caseless('authorization')}${KEY_SEPARATOR}(?:\\\\?["'])?(?:[A-Za-z]{1,20}[ \\t]{1,4})?${NOT_PLACEHOLDER}(?![=|]|${PEM_START})(?<secret>[A-Za-z0-9._~+/=|-]{1,${VALUE_MAX}})(?![A-Za-z0-9._~+/=|-]|[ \\t]{1,4}<)`,
    markers: ['authorization'],
    keepSettings: true,
    // Covered by the key-value partial.
  },
  {
    name: 'key-value',
    description: 'values of XML elements naming a secret (<apiToken>...</apiToken>)',
    pattern: `(?<=<[A-Za-z0-9_.:-]{0,40})${NAME_BOUNDARY}${KEY_WORD}${KEY_SUFFIX}${NOT_ID_KEY}>(?!${PLACEHOLDER_START})(?<secret>[^<>\\s][^<>]{0,${VALUE_MAX - 1}})</`,
    markers: KEY_MARKERS,
    keepSettings: true,
  },
  {
    name: 'key-value',
    description: 'XML attributes: key="apiToken" value="..."',
    pattern: `(?<=\\b(?:key|name|id)[ \\t]{0,4}=[ \\t]{0,4}\\\\?["'][A-Za-z0-9_.:-]{0,40})${NAME_BOUNDARY}${KEY_WORD}${KEY_SUFFIX}${NOT_ID_KEY}\\\\?["'][ \\t]{1,8}(?:value|content|password)[ \\t]{0,4}=[ \\t]{0,4}\\\\?["']${NOT_PLACEHOLDER}(?<secret>[^"'\\\\\\r\\n]{1,${VALUE_MAX}})`,
    markers: KEY_MARKERS,
    keepSettings: true,
  },
  {
    name: 'key-value',
    description: 'a quoted value passed with a key naming a secret (System.setProperty("X_TOKEN", "..."), setenv(...))',
    pattern: `(?<=\\(\\s{0,4}\\\\?["'][A-Za-z0-9_.-]{0,64})${NAME_BOUNDARY}${KEY_WORD}${KEY_SUFFIX}${NOT_ID_KEY}\\\\?["'][ \\t]{0,8},[ \\t]{0,8}\\\\?["']${NOT_PLACEHOLDER}(?<secret>[^"'\\\\\\r\\n]{1,${VALUE_MAX}})`,
    markers: KEY_MARKERS,
    keepSettings: true,
  },
  {
    name: 'key-value',
    description: 'quoted values after a key naming a secret ("password": "...", token=\'...\', $x .= "...")',
    // One alternative per quote character: a value may hold the other quotes (`'"user:pass"'`).
    pattern: `${NAME_BOUNDARY}${KEY_WORD}${KEY_SUFFIX}${NOT_ID_KEY}${KEY_SEPARATOR}(?:\\\\?'(?=[^'\\\\\\r\\n])|\\\\?"(?=[^"\\\\\\r\\n]))(?!-----BEGIN)${NOT_PLACEHOLDER}(?<secret>(?<=')[^'\\\\\\r\\n]{1,${VALUE_MAX}}|(?<=")[^"\\\\\\r\\n]{1,${VALUE_MAX}})`,
    markers: KEY_MARKERS,
    keepSettings: true,
    partial:
      `${NAME_BOUNDARY}(?:${prefixPattern(SECRET_KEY_WORDS, { caseless: true })}` +
      `|${KEY_WORD}${KEY_SUFFIX}(?:\\\\?["'\`]\\]?)?[ \\t]{0,64}[:=?.+|<>-]{0,3}[ \\t]{0,64}\\\\?["'\`][^"'\`\\\\\\r\\n]{0,${VALUE_MAX}}` +
      `|${KEY_WORD}${KEY_SUFFIX}(?:\\\\?["'\`]\\]?)?[ \\t]{0,64}(?:[:=?.+|<>-]{1,3}[ \\t]{0,64}(?:[A-Za-z]{1,20}[ \\t]{1,4})?\\\\?[^\\s"'\\\\&,;<>)\\]}]{0,${VALUE_MAX}})?` +
      `|-(?:u|-user)[ \\t]{1,4}['"]?[^\\s'"]{0,256}(?:['"]?[ \\t]{1,4}(?:-p?|--?(?:p(?:a(?:s(?:s(?:w(?:o(?:r(?:d)?)?)?)?)?)?)?)?)(?:[ \\t]{1,4}|=)?['"]?[^\\s'"]{0,256})?)`,
    partialAnchors: [...KEY_MARKERS, '-u', '--user'],
    partialReach: 0,
  },
  {
    name: 'key-value',
    description: 'bare values after a key naming a secret (PASSWORD=..., api_key: ..., --token ...)',
    pattern: `${NAME_BOUNDARY}${KEY_WORD}${KEY_SUFFIX}${NOT_ID_KEY}${KEY_SEPARATOR}(?!${PLACEHOLDER_START}|${AUTH_SCHEME}[ \\t]|-----BEGIN[A-Z0-9 ]{0,40}PRIVATE|\\$[{(A-Za-z_0-9]|\\{|%[A-Za-z_]|[=:])${NOT_KEY}${NOT_ERROR_MESSAGE}(?<secret>[^\\s"'\`\\\\&,;<>)\\]}]{1,${VALUE_MAX}}(?:'[^'\\s\\\\]{1,256}'|"[^"\\s\\\\]{1,256}")?)`,
    markers: KEY_MARKERS,
    keepSettings: true,
  },
  {
    name: 'key-value',
    description: 'command-line flags naming a secret followed by their value (--password S, --api-token S)',
    pattern: `(?<=--[A-Za-z0-9-]{0,32})${NAME_BOUNDARY}${KEY_WORD}(?:-[A-Za-z0-9-]{1,32})?[ \\t]{1,4}['"]?(?!-)${NOT_PLACEHOLDER}(?<secret>[^\\s'"\`\\\\;&|<>]{1,${VALUE_MAX}})`,
    markers: KEY_MARKERS,
    keepSettings: true,
  },
  {
    name: 'cli-password',
    description: 'user:password after -u/--user (curl -u user:pass)',
    pattern: `(?<![A-Za-z0-9_-])(?:-u|--user)(?:[ \\t]{1,4}|=)['"]?[^\\s:'"<>]{1,256}:${NOT_PLACEHOLDER}(?<secret>[^\\s'"]{1,256})`,
    markers: ['-u', '--user'],
    keepSettings: true,
  },
  {
    name: 'cli-password',
    description: 'the password after -u USER -p (mysql, docker login, ...)',
    pattern: `(?<![A-Za-z0-9_-])(?:-u|--user(?:name)?)(?:[ \\t]{1,4}|=)['"]?[^\\s:'"<>-][^\\s:'"<>]{0,255}['"]?[ \\t]{1,4}(?:-p|--password(?:[ \\t]{1,4}|=))[ \\t]{0,4}['"]?(?:(?!-)|(?=-[^\\s'"]{11}))${NOT_PLACEHOLDER}(?<secret>[^\\s'"]{1,${VALUE_MAX}})`,
    markers: ['-u', '--user'],
    keepSettings: true,
  },
  {
    name: 'authorization',
    description: 'Bearer and Basic authorization values',
    pattern: `${EDGE}${AUTH_SCHEME}[ \\t]{1,4}(?![<~]|${PEM_START})(?<secret>(?=[A-Za-z]{0,4096}[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,4096}|[A-Za-z]{20,4096})`,
    markers: ['bearer', 'basic'],
    partial: `${EDGE}(?:${prefixPattern(['bearer', 'basic'], { caseless: true })})(?:[ \\t]{1,4}[A-Za-z0-9._~+/=-]{0,4096})?`,
  },
  {
    name: 'url-parameter',
    description: 'URL query parameters naming a secret (?key=, &sig=, access_token=, client_secret=, api_key=, password=)',
    // The name ends with one of the words, at the start of the parameter or after `_`, `-`, `.` or a camelCase hump.
    pattern: `(?<=[?&;]|[?&;][A-Za-z0-9_.-]{0,40}[_.-]|[?&;][A-Za-z0-9_.-]{0,40}[a-z](?=[A-Z]))(?:${URL_PARAM_WORDS.map(caseless).join('|')})=${NOT_PLACEHOLDER}(?<secret>[^&#\\s"'\`<>\\\\]{1,${VALUE_MAX}})`,
    markers: URL_PARAM_WORDS.map((w) => `${w}=`),
    keepSettings: true,
    partialAnchors: ['key', 'sig', 'pwd'],
    partial: `(?:key|sig|signature|pwd)(?:=[^&#\\s"'\`<>\\\\]{0,${VALUE_MAX}})?`,
  },
  {
    name: 'url-password',
    description: 'passwords in URLs (scheme://user:password@host)',
    pattern: `(?:://|^//)[^\\s/:@"'<>]{0,256}:(?!~)(?<secret>[^\\s/@"'<>~]{1,256})@`,
    markers: ['//'],
    reach: 1,
    partialAnchors: [':'],
    partial: `:(?:/(?:/(?:[^\\s/:@"'<>]{0,256}(?::[^\\s/@"'<>]{0,256})?)?)?)?`,
  },
] satisfies RuleSpec[]);

/** Home directories: `/home/NAME`, `/Users/NAME`, `C:\Users\NAME`; the user name is group `name`. */
export const HOME_RULES: readonly RuleSpec[] = Object.freeze([
  {
    name: 'home',
    kind: 'home',
    pattern: `(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}/home/(?<name>${USER_NAME})`,
    markers: ['/home/'],
    partialAnchors: ['/'],
    partial: `(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}/(?:home/${USER_NAME_PARTIAL}|${prefixPattern(['home'])})?`,
  },
  {
    name: 'home',
    kind: 'home',
    pattern: `(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}/${caseless('users')}/(?<name>${USER_NAME})`,
    markers: ['/users/'],
    partialAnchors: ['/'],
    partial: `(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}/(?:${caseless('users')}/${USER_NAME_PARTIAL}|${prefixPattern(['users'], { caseless: true })})?`,
  },
  {
    name: 'home',
    kind: 'home',
    pattern: `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}(?:[A-Za-z]:)?\\\\{1,2}${caseless('users')}\\\\{1,2}(?<name>${USER_NAME})`,
    markers: ['\\users\\'],
    reach: 3,
    partialAnchors: ['\\'],
    partialReach: 3,
    partial: `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}(?:[A-Za-z]:)?\\\\{1,2}(?:${prefixPattern(['users'], { caseless: true })}|${caseless('users')}\\\\{1,2}${USER_NAME_PARTIAL})?`,
  },
  {
    name: 'home',
    kind: 'root',
    pattern: `(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}/root(?![A-Za-z0-9._-])`,
    markers: ['/root'],
    partialAnchors: ['/'],
    partial: `(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}/(?:${prefixPattern(['root'])})?`,
  },
] satisfies RuleSpec[]);

/** E-mail addresses; matched at `@`, the local part is group `lead` inside a lookbehind. */
export const EMAIL_RULE: RuleSpec = Object.freeze({
  name: 'email',
  kind: 'email',
  // Not the password of a URL (`scheme://user:PASSWORD@host`): that is url-password's, or a placeholder.
  pattern: "@(?<=(?<![A-Za-z0-9._%+-]|//[^\\s/@:]{0,256}:)(?<lead>[A-Za-z0-9._%+-]{1,64})@)[A-Za-z0-9.-]{1,253}\\.[A-Za-z]{2,24}(?![A-Za-z0-9-])",
  markers: ['@'],
  partialReach: 64,
  partial: '(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{0,253}',
});

/** Every absolute path (`--paths all`). */
export const PATH_RULES: readonly RuleSpec[] = Object.freeze([
  {
    name: 'path',
    kind: 'path',
    pattern: `(?<![A-Za-z0-9._~:/\\\\-])${NOT_AFTER_PLACEHOLDER}/[A-Za-z0-9._@%+=~\\-\\u0080-\\uFFFF][A-Za-z0-9._@%+=~/\\-\\u0080-\\uFFFF]{0,1022}`,
    markers: ['/'],
    partial: "(?<![A-Za-z0-9._~:/\\\\-])/[A-Za-z0-9._@%+=~/\\-\\u0080-\\uFFFF]{0,1023}",
  },
  {
    name: 'path',
    kind: 'path',
    pattern: `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}[A-Za-z]:\\\\{1,2}[^\\s\"'<>|*?,;]{0,1023}`,
    markers: [':\\'],
    reach: 1,
    partialAnchors: [':'],
    partialReach: 1,
    partial: "(?<![A-Za-z0-9])[A-Za-z]:(?:\\\\{1,2}[^\\s\"'<>|*?,;]{0,1023})?",
  },
] satisfies RuleSpec[]);

/** Home-directory names that are not a person's: still shortened to `~`, never collected. */
export const NOT_USER_NAMES: ReadonlySet<string> = new Set(['shared', 'public', 'default', 'default user', 'all users', 'guest']);
