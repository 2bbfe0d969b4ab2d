/**
 * The rules of wuu-redact, as data, and the small regex toolkit that keeps
 * them safe: a source analyser (bounded quantifiers only, no nested
 * repetition, group renaming so rules can share one alternation) and a
 * builder for "partial" patterns (a suffix of a delta piece that could be the
 * beginning of a match, so that a secret split across pieces is held back).
 *
 * LINEAR TIME. Every built-in pattern uses bounded quantifiers only and never
 * repeats a group that itself repeats. Each rule starts with a literal marker
 * (or, for e-mail, anchors on `@`), and where a long bounded run is followed
 * by more syntax, that syntax is optional: an attempt either fails within a
 * few characters of its marker or succeeds and consumes what it scanned. So
 * the scan of a line costs O(length x small constant) whatever its content;
 * test/redact.test.ts checks the structure, bench/redact-adversarial.ts runs
 * every rule on 8 MiB adversarial strings.
 */

/** One redaction rule. Built-in and user rules have the same shape. */
export interface RuleSpec {
  /** Placeholder and report name: letters, digits, `_`, `.`, `-`. */
  name: string;
  /**
   * JavaScript regex source. The whole match is replaced, unless the pattern
   * has a group named `secret`: then only that group is (the rest is kept,
   * e.g. `password=` before the value).
   */
  pattern: string;
  /** Extra regex flags: any of `i`, `m`, `s`, `u`. */
  flags?: string;
  /**
   * Literals (ASCII, compared case-insensitively), one of which occurs in
   * every match. They let a line be passed through unparsed when none occurs.
   * A rule without markers turns that shortcut off.
   */
  markers?: string[];
  /**
   * Regex source that matches, at the END of a delta piece, a suffix that
   * could begin a match continued by the next piece. Without it a rule is
   * covered by holding back a fixed tail of every piece.
   */
  partial?: string;
  /**
   * How many characters before the start of a marker a match may begin
   * (default 0: every match starts with a marker). The engine only tries the
   * rules near marker occurrences.
   */
  reach?: number;
  /** Literals (ASCII, case-insensitive) near which a `partial` match starts; default: the markers. */
  partialAnchors?: string[];
  /** How far before a partial anchor a partial match may start (default 0). */
  partialReach?: number;
  /** One line for the man page and --help. */
  description?: string;
  /** What the match is; built-ins only. Default `secret`. */
  kind?: RuleKind;
}

/** What a match stands for; it decides the placeholder. */
export type RuleKind = 'secret' | 'home' | 'root' | 'user' | 'workspace' | 'email' | 'path';

/** Escapes a literal for use in a regex source. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** A literal with ASCII letters matched in either case (`[Tt][Oo]...`), without the `i` flag. */
export function caseless(word: string): string {
  let out = '';
  for (const ch of word) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    out += /[a-z]/i.test(ch) && lower !== upper ? `[${upper}${lower}]` : escapeRegex(ch);
  }
  return out;
}

interface TrieNode {
  next: Map<string, TrieNode>;
}

/**
 * A regex source matching any non-empty prefix of any of `words` (the words
 * themselves included), as nested optional groups: a trie, linear to match.
 */
export function prefixPattern(words: readonly string[], options: { caseless?: boolean } = {}): string {
  const root: TrieNode = { next: new Map() };
  for (const word of words) {
    let node = root;
    for (const ch of word) {
      const key = options.caseless ? ch.toLowerCase() : ch;
      let child = node.next.get(key);
      if (!child) {
        child = { next: new Map() };
        node.next.set(key, child);
      }
      node = child;
    }
  }
  const atom = (ch: string) => (options.caseless ? caseless(ch) : escapeRegex(ch));
  const build = (node: TrieNode): string => {
    const alternatives = [...node.next].map(([ch, child]) => atom(ch) + (child.next.size > 0 ? `(?:${build(child)})?` : ''));
    return alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
  };
  return root.next.size === 0 ? '(?!)' : build(root);
}

// ---------------------------------------------------------------------------
// Regex source analysis

/** What {@link analyzePattern} finds in a regex source. */
export interface PatternAnalysis {
  /** Number of capturing groups. */
  captures: number;
  /** Names of the named groups, in order. */
  names: string[];
  /** Uses a numbered backreference (`\1`): cannot share an alternation. */
  numberedBackref: boolean;
  /** Uses `*`, `+` or `{n,}`. */
  unbounded: boolean;
  /** Repeats (max > 1) a group that itself contains a repetition (max > 1). */
  nestedRepetition: boolean;
  /** Largest finite upper bound of any quantifier. */
  maxBound: number;
  /** The source with every group name `N` renamed `prefix + N`. */
  renamed: string;
}

/**
 * Walks a regex source (flags without `v`): counts groups, finds named groups
 * and backreferences, checks quantifiers, and renames named groups so several
 * rules can live in one alternation.
 */
export function analyzePattern(source: string, renamePrefix = '', groupOffset = 0): PatternAnalysis {
  // Numbered backreferences are shifted by `groupOffset` (the rule's place in
  // an alternation), which needs the rule's own group count first.
  const ownCaptures = groupOffset > 0 ? analyzePattern(source).captures : 0;
  const result: PatternAnalysis = {
    captures: 0,
    names: [],
    numberedBackref: false,
    unbounded: false,
    nestedRepetition: false,
    maxBound: 0,
    renamed: '',
  };
  // One frame per open group: whether something inside repeats.
  const frames: Array<{ repeats: boolean }> = [{ repeats: false }];
  let out = '';
  let lastAtom: 'none' | 'char' | 'group' | 'quantifier' = 'none';
  let lastGroupRepeats = false;
  const quantify = (max: number) => {
    if (max === Infinity) result.unbounded = true;
    else result.maxBound = Math.max(result.maxBound, max);
    if (max > 1) {
      if (lastAtom === 'group' && lastGroupRepeats) result.nestedRepetition = true;
      frames[frames.length - 1]!.repeats = true;
    }
    lastAtom = 'quantifier';
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next)) {
        const digits = /^\d+/.exec(source.slice(i + 1))![0];
        result.numberedBackref = true;
        const n = Number(digits);
        out += groupOffset > 0 && n <= ownCaptures ? `\\${n + groupOffset}` : `\\${digits}`;
        i += 1 + digits.length;
        lastAtom = 'char';
        continue;
      }
      if (next === 'k' && source[i + 2] === '<') {
        const close = source.indexOf('>', i + 3);
        const name = source.slice(i + 3, close < 0 ? source.length : close);
        out += `\\k<${renamePrefix}${name}>`;
        i = close < 0 ? source.length : close + 1;
        lastAtom = 'char';
        continue;
      }
      out += ch + next;
      i += 2;
      lastAtom = 'char';
      continue;
    }
    if (ch === '[') {
      // A class runs to the first unescaped `]` (in JS, even right after `[`).
      let j = i + 1;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
      lastAtom = 'char';
      continue;
    }
    if (ch === '(') {
      frames.push({ repeats: false });
      if (source[i + 1] === '?') {
        if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
          const close = source.indexOf('>', i + 3);
          const name = source.slice(i + 3, close < 0 ? source.length : close);
          result.names.push(name);
          result.captures++;
          out += `(?<${renamePrefix}${name}>`;
          i = close < 0 ? source.length : close + 1;
          lastAtom = 'none';
          continue;
        }
      } else {
        result.captures++;
      }
      out += ch;
      i++;
      lastAtom = 'none';
      continue;
    }
    if (ch === ')') {
      const frame = frames.length > 1 ? frames.pop()! : { repeats: false };
      lastGroupRepeats = frame.repeats;
      if (frame.repeats) frames[frames.length - 1]!.repeats = true;
      out += ch;
      i++;
      lastAtom = 'group';
      continue;
    }
    if (ch === '*' || ch === '+') {
      out += ch;
      i++;
      quantify(Infinity);
      continue;
    }
    if (ch === '?') {
      out += ch;
      i++;
      if ((lastAtom as string) === 'quantifier') continue; // lazy modifier
      quantify(1);
      continue;
    }
    if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (m) {
        out += m[0];
        i += m[0].length;
        quantify(m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]));
        continue;
      }
    }
    out += ch;
    i++;
    lastAtom = 'char';
  }
  result.renamed = out;
  return result;
}

// ---------------------------------------------------------------------------
// Building blocks of the built-in rules

/** Placeholders already in the text; a rule never matches inside one. */
export const PLACEHOLDER_PATTERN = '<(?:secret:[A-Za-z0-9_.-]{1,64}|email|user|home|workspace|path|redacted)(?::[0-9a-f]{8})?>';

/**
 * Not right after a placeholder. A lookbehind that refuses a letter before a
 * match must refuse a placeholder too: it replaced text that refused it the
 * first time, and a second pass must find nothing new (idempotence).
 */
export const NOT_AFTER_PLACEHOLDER = `(?<!${PLACEHOLDER_PATTERN})`;

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
const KEY_SEPARATOR = '(?:\\\\?["\'])?[ \\t]{0,4}(?::=|=>|[:=])[ \\t]{0,4}';
/** The start of a placeholder: a value that is already one is left alone (idempotence). */
const PLACEHOLDER_START = '<(?:secret|redacted|email|user|home|workspace|path)[:>]';
const NOT_PLACEHOLDER = `(?!${PLACEHOLDER_START})`;
const AUTH_SCHEME = '(?:[Bb]earer|BEARER|[Bb]asic|BASIC)';

/** Matches a whole object key that names a secret (for structured values). */
export const SECRET_KEY_NAME = new RegExp(`${NAME_BOUNDARY}${KEY_WORD}(?![a-z])`);

/** Characters of a user name in a home path (no trailing dot). */
const USER_CHAR = 'A-Za-z0-9_\\-\\u0080-\\uFFFF';
const USER_NAME = `[${USER_CHAR}](?:[${USER_CHAR}.]{0,62}[${USER_CHAR}])?`;
const USER_NAME_PARTIAL = `[${USER_CHAR}.]{0,64}`;


/** The built-in secret rules, most specific first (earlier wins at the same position). */
export const DEFAULT_RULES: readonly RuleSpec[] = Object.freeze([
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
    name: 'anthropic-key',
    description: 'Anthropic API keys (sk-ant-...)',
    pattern: `${EDGE}sk-ant-[A-Za-z0-9_-]{16,256}`,
    markers: ['sk-ant-'],
    partial: `${EDGE}(?:${prefixPattern(['sk-'])}|sk-[A-Za-z0-9_-]{0,256})`,
  },
  {
    name: 'stripe-key',
    description: 'Stripe keys (sk_live_, rk_live_, pk_live_, and _test_)',
    pattern: `${EDGE}[srp]k_(?:live|test)_[0-9A-Za-z]{10,247}`,
    markers: ['sk_live_', 'rk_live_', 'pk_live_', 'sk_test_', 'rk_test_', 'pk_test_'],
    partial: `${EDGE}(?:[srp](?:k(?:_(?:${prefixPattern(['live', 'test'])})?)?)?|[srp]k_(?:live|test)_[0-9A-Za-z]{0,247})`,
  },
  {
    name: 'openai-key',
    description: 'OpenAI-style API keys (sk-..., sk-proj-..., sk-svcacct-...)',
    pattern: `${EDGE}sk-[A-Za-z0-9_-]{20,256}`,
    markers: ['sk-'],
    partial: `${EDGE}(?:${prefixPattern(['sk-'])}|sk-[A-Za-z0-9_-]{0,256})`,
  },
  {
    name: 'github-token',
    description: 'GitHub tokens (ghp_, gho_, ghs_, ghu_, ghr_, github_pat_)',
    pattern: `${EDGE}(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})`,
    markers: ['ghp_', 'gho_', 'ghs_', 'ghu_', 'ghr_', 'github_pat_'],
    partial: `${EDGE}(?:${prefixPattern(['ghp_', 'gho_', 'ghs_', 'ghu_', 'ghr_', 'github_pat_'])}|gh[pousr]_[A-Za-z0-9]{0,255}|github_pat_[A-Za-z0-9_]{0,255})`,
  },
  {
    name: 'gitlab-token',
    description: 'GitLab personal access tokens (glpat-)',
    pattern: `${EDGE}glpat-[A-Za-z0-9_-]{20,255}`,
    markers: ['glpat-'],
    partial: `${EDGE}(?:${prefixPattern(['glpat-'])}|glpat-[A-Za-z0-9_-]{0,255})`,
  },
  {
    name: 'slack-token',
    description: 'Slack tokens (xoxa-, xoxb-, xoxp-, xoxo-, xoxs-, xoxr-)',
    pattern: `${EDGE}xox[abposr]-[A-Za-z0-9-]{10,255}`,
    markers: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-'],
    partial: `${EDGE}(?:x(?:o(?:x(?:[abposr](?:-[A-Za-z0-9-]{0,255})?)?)?)?)`,
  },
  {
    name: 'aws-access-key',
    description: 'AWS access key ids (AKIA..., ASIA...)',
    pattern: `(?<![A-Z0-9])${NOT_AFTER_PLACEHOLDER}(?:AKIA|ASIA)[A-Z0-9]{16,64}`,
    markers: ['AKIA', 'ASIA'],
    partial: `(?<![A-Z0-9])${NOT_AFTER_PLACEHOLDER}(?:${prefixPattern(['AKIA', 'ASIA'])}|(?:AKIA|ASIA)[A-Z0-9]{0,64})`,
  },
  {
    name: 'aws-secret-key',
    description: 'AWS secret access keys after a key name (aws_secret_access_key=...)',
    pattern: `${caseless('aws')}[A-Za-z0-9_.-]{0,32}${caseless('secret')}[A-Za-z0-9_.-]{0,32}${KEY_SEPARATOR}(?:\\\\?["'])?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    markers: ['aws'],
    // Covered by the key-value partial: the key word `secret` is held back.
  },
  {
    name: 'google-api-key',
    description: 'Google API keys (AIza...)',
    pattern: `${EDGE}AIza[0-9A-Za-z_-]{30,64}`,
    markers: ['AIza'],
    partial: `${EDGE}(?:${prefixPattern(['AIza'])}|AIza[0-9A-Za-z_-]{0,64})`,
  },
  {
    name: 'npm-token',
    description: 'npm access tokens (npm_...)',
    pattern: `${EDGE}npm_[A-Za-z0-9]{30,255}`,
    markers: ['npm_'],
    partial: `${EDGE}(?:${prefixPattern(['npm_'])}|npm_[A-Za-z0-9]{0,255})`,
  },
  {
    name: 'huggingface-token',
    description: 'Hugging Face tokens (hf_...)',
    pattern: `${EDGE}hf_[A-Za-z0-9]{30,255}`,
    markers: ['hf_'],
    partial: `${EDGE}(?:${prefixPattern(['hf_'])}|hf_[A-Za-z0-9]{0,255})`,
  },
  {
    name: 'jwt',
    description: 'JSON Web Tokens and other base64url JSON (eyJ...)',
    pattern: `(?<![A-Za-z0-9_-])${NOT_AFTER_PLACEHOLDER}eyJ[A-Za-z0-9_-]{8,1024}(?:\\.[A-Za-z0-9_-]{0,8192}(?:\\.[A-Za-z0-9_-]{0,4096})?)?`,
    markers: ['eyJ'],
    partial: `(?<![A-Za-z0-9_-])${NOT_AFTER_PLACEHOLDER}(?:${prefixPattern(['eyJ'])}|eyJ[A-Za-z0-9_-]{0,1024}(?:\\.[A-Za-z0-9_-]{0,8192}(?:\\.[A-Za-z0-9_-]{0,4096})?)?)`,
  },
  {
    name: 'aws-secret-key',
    description: 'AWS secret keys in JSON (SecretAccessKey)',
    pattern: `${caseless('secretaccesskey')}(?:\\\\?["'])?[ \\t]{0,4}[:=][ \\t]{0,4}(?:\\\\?["'])?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    markers: ['secretaccesskey'],
  },
  {
    name: 'authorization',
    description: 'Authorization header values, whatever the scheme',
    pattern: `${NAME_BOUNDARY}${caseless('authorization')}${KEY_SEPARATOR}(?:\\\\?["'])?(?:[A-Za-z]{1,20}[ \\t]{1,4})?${NOT_PLACEHOLDER}(?<secret>[A-Za-z0-9._~+/=-]{1,4096})(?![A-Za-z0-9._~+/=-]|[ \\t]{1,4}<)`,
    markers: ['authorization'],
    // Covered by the key-value partial.
  },
  {
    name: 'key-value',
    description: 'quoted values after a key naming a secret ("password": "...", token=\'...\')',
    pattern: `${NAME_BOUNDARY}${KEY_WORD}${KEY_SUFFIX}${KEY_SEPARATOR}\\\\?["']${NOT_PLACEHOLDER}(?<secret>[^"'\\\\\\r\\n]{1,512})`,
    markers: KEY_MARKERS,
    partial:
      `${NAME_BOUNDARY}(?:${prefixPattern(SECRET_KEY_WORDS, { caseless: true })}` +
      `|${KEY_WORD}${KEY_SUFFIX}(?:\\\\?["'])?[ \\t]{0,4}(?:[:=]{1,2}|=>)?[ \\t]{0,4}\\\\?["'][^"'\\\\\\r\\n]{0,512}` +
      `|${KEY_WORD}${KEY_SUFFIX}(?:\\\\?["'])?[ \\t]{0,4}(?:(?:[:=]{1,2}|=>)[ \\t]{0,4}\\\\?[^\\s"'\\\\&,;<>)\\]}]{0,512})?)`,
  },
  {
    name: 'key-value',
    description: 'bare values after a key naming a secret (PASSWORD=..., api_key: ...)',
    pattern: `${NAME_BOUNDARY}${KEY_WORD}${KEY_SUFFIX}${KEY_SEPARATOR}(?!${PLACEHOLDER_START}|${AUTH_SCHEME}[ \\t])(?<secret>[^\\s"'\\\\&,;<>)\\]}]{1,512})`,
    markers: KEY_MARKERS,
  },
  {
    name: 'authorization',
    description: 'Bearer and Basic authorization values',
    pattern: `${EDGE}${AUTH_SCHEME}[ \\t]{1,4}(?![<~])(?<secret>(?=[A-Za-z]{0,4096}[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,4096}|[A-Za-z]{20,4096})`,
    markers: ['bearer', 'basic'],
    partial: `${EDGE}(?:${prefixPattern(['bearer', 'basic'], { caseless: true })})(?:[ \\t]{1,4}[A-Za-z0-9._~+/=-]{0,4096})?`,
  },
  {
    name: 'url-password',
    description: 'passwords in URLs (scheme://user:password@host)',
    pattern: `(?:://|^//)[^\\s/:@"'<>]{0,256}:(?!~)(?<secret>[^\\s/@"'<>]{1,256})@`,
    markers: ['//'],
    reach: 1,
    partialAnchors: [':/'],
    partial: `:/(?:/(?:[^\\s/:@"'<>]{0,256}(?::[^\\s/@"'<>]{0,256})?)?)?`,
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
  pattern: "@(?<=(?<![A-Za-z0-9._%+-])(?<lead>[A-Za-z0-9._%+-]{1,64})@)[A-Za-z0-9.-]{1,253}\\.[A-Za-z]{2,24}(?![A-Za-z0-9-])",
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

/** Thrown for a rule that cannot be used; the CLI turns it into a usage error. */
export class RuleError extends Error {
  override name = 'RuleError';
}

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Checks one user rule and returns it normalised; throws {@link RuleError}. */
export function checkRule(rule: unknown, where: string): RuleSpec {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new RuleError(`${where}: a rule is an object {name, pattern, flags?}`);
  const { name, pattern, flags, partial, markers } = rule as Record<string, unknown>;
  if (typeof name !== 'string' || !NAME_RE.test(name)) {
    throw new RuleError(`${where}: rule name must be 1-64 letters, digits, '_', '.' or '-', not ${JSON.stringify(name)}`);
  }
  if (typeof pattern !== 'string' || pattern === '') throw new RuleError(`${where}: rule '${name}' needs a non-empty string "pattern"`);
  if (flags !== undefined && (typeof flags !== 'string' || !/^[imsu]*$/.test(flags) || new Set(flags).size !== flags.length)) {
    throw new RuleError(`${where}: rule '${name}': flags may only combine i, m, s, u`);
  }
  try {
    new RegExp(pattern, `${flags ?? ''}gd`);
  } catch (err) {
    throw new RuleError(`${where}: rule '${name}': ${(err as Error).message}`);
  }
  if (partial !== undefined) {
    if (typeof partial !== 'string') throw new RuleError(`${where}: rule '${name}': "partial" must be a string`);
    try {
      new RegExp(`(?:${partial})$`, `${flags ?? ''}g`);
    } catch (err) {
      throw new RuleError(`${where}: rule '${name}': partial: ${(err as Error).message}`);
    }
  }
  if (markers !== undefined && (!Array.isArray(markers) || markers.some((m) => typeof m !== 'string' || m === '' || /[^\x20-\x7e]/.test(m)))) {
    throw new RuleError(`${where}: rule '${name}': "markers" must be a list of non-empty ASCII strings`);
  }
  const spec: RuleSpec = { name, pattern };
  if (flags) spec.flags = flags as string;
  if (partial !== undefined) spec.partial = partial as string;
  if (markers !== undefined) spec.markers = markers as string[];
  return spec;
}

/** Parses `NAME=REGEX` (from --pattern). */
export function parsePatternOption(text: string): RuleSpec {
  const at = text.indexOf('=');
  if (at <= 0) throw new RuleError(`--pattern takes NAME=REGEX, not '${text}'`);
  return checkRule({ name: text.slice(0, at), pattern: text.slice(at + 1) }, '--pattern');
}

/** Parses the text of a rule file: a JSON array of {name, pattern, flags?, partial?, markers?}. */
export function parseRuleFile(text: string, file: string): RuleSpec[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RuleError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(value)) throw new RuleError(`${file}: a rule file is a JSON array of rules`);
  return value.map((rule, i) => checkRule(rule, `${file}: rule ${i + 1}`));
}
