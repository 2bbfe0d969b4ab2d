/**
 * Values that follow a key naming a secret but are not secrets: settings
 * (`TOKEN_LIMIT=4000`, `PASSWORD_MIN_LENGTH=12`), references to where a secret
 * lives (`api_key_env: OPENAI_API_KEY`, `${GITHUB_TOKEN}`), words
 * (`token_type: Bearer`) and masks (`****`). Decided by the value's shape.
 */

const WORDS: ReadonlySet<string> = new Set(
  (
    'bearer basic digest token tokens none null nil true false yes no on off enabled disabled required optional ' +
    'string str int integer number float bool boolean object array list map dict env environment file path ' +
    'secret secrets password passwd redacted hidden masked empty undefined unset default auto header query ' +
    'cookie body jwt oauth oauth2 apikey api_key hmac sha256 plain text base64 hex keychain vault ' +
    'test pass user username changeme example dummy sample placeholder todo tbd your_token your_password'
  ).split(' '),
);

/** An env-var name: upper-case words of letters or digits joined by `_` (at least two). */
const ENV_NAME = /^[A-Z][A-Z]*(?:_(?:[A-Z]+|[0-9]{1,3}))+$/;
/** A reference to a variable: `$X`, `${X}`, `%X%`, `env.X`, `process.env.X`. */
const REFERENCE =
  /^(?:\$\{?[A-Za-z0-9_]+(?::-[^}]*)?\}?|%[A-Za-z_][A-Za-z0-9_]*%|(?:process\.)?env\.[A-Za-z_][A-Za-z0-9_]*|\$?\{\{[^{}]{1,200}\}\}|\[[^\[\]]{1,64}\]|<[^<>]{1,64}>)$/;
/** A number of at most 6 digits, maybe with a fraction or a unit. */
const SMALL_NUMBER = /^-?[0-9]{1,6}(?:\.[0-9]+)?(?:[a-z]{1,3})?$/;

/** Whether a value after a secret's key name is a setting or reference rather than a secret. */
export function isConfigValue(value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (v.length <= 40 && WORDS.has(v.toLowerCase())) return true;
  if (SMALL_NUMBER.test(v)) return true;
  if (v.length <= 64 && (ENV_NAME.test(v) || REFERENCE.test(v))) return true;
  // A mask: one character repeated (`****`, `xxxxxxxx`, `yyy`), or mostly x's (`xxxx.atlasv1.xxxx`).
  if (/^(.)\1{2,}$/.test(v)) return true;
  const alnum = v.replace(/[^A-Za-z0-9]/g, '');
  return alnum.length >= 8 && alnum.replace(/[xX]/g, '').length * 4 <= alnum.length;
}
