/**
 * The walk of a line proven valid (Core.proves) and ASCII, at its own level:
 * the same findings and patches as ./walk.ts walkJson with `raw` (each
 * string of the line judged by the raw test on its bytes, a string with a
 * marker decoded and walked or scanned), read from the bytes with no state
 * machine of expectations: the line is known to be one JSON object, so a
 * string is a key exactly when it follows `{` or a `,` inside an object.
 * Keys are made strings (and a view) only when they are judged; numbers and
 * words are skipped. Most lines the prefilter flags hold one marker in one
 * string among ten: this is their walk.
 */
import { keyName, namesSecret, stringValue, WIRE_FIELDS, type Patch, type WalkOptions } from './walk.js';
import { View } from './view.js';

const OBJECT = 1;
const ARRAY = 2;

/**
 * The index of the quote closing the string whose body starts at `from`
 * (the line is valid: there is one), negated less one when the body holds
 * a backslash: `-(close + 1)`.
 */
function closing(raw: Uint8Array, from: number): number {
  let escaped = false;
  for (let k = from; ; k++) {
    const c = raw[k];
    if (c === 0x22) return escaped ? -(k + 1) : k;
    if (c === 0x5c) {
      escaped = true;
      k++;
    }
  }
}

/**
 * Walks `src` (a line proven valid JSON whose bytes `options.raw` it is,
 * offset for offset) at level 0 and appends the patches for what it finds;
 * the walk of {@link walkJson} with `raw`, no `skipKey`, `scan` and no
 * `paths`. False as walkJson would say it (a string that does not decode).
 */
export function walkProven(src: string, options: WalkOptions, patches: Patch[]): boolean {
  const raw = options.raw!;
  const { engine } = options;
  const secretKeys = engine.secretKeys;
  const end = raw.length;
  let kinds = new Uint8Array(16);
  // The current key of each open object (undefined in arrays).
  const keys: Array<string | undefined> = [];
  let depth = 0;
  let keyNext = false;
  for (let i = 0; i < end; ) {
    const c = raw[i]!;
    if (c === 0x22) {
      let close = closing(raw, i + 1);
      const plain = close >= 0;
      if (!plain) close = -close - 1;
      const a = i + 1;
      i = close + 1;
      if (keyNext) {
        keyNext = false;
        const top = depth === 1;
        let view: View | undefined;
        let name = plain ? src.slice(a, close) : undefined;
        if (name === undefined) {
          view = View.decode(src, a, close);
          if (view === undefined) return false;
          name = view.text;
        }
        // A wire field of the top level is never scanned, nor a key whose bytes hold no marker.
        if ((top && WIRE_FIELDS.has(name)) || !engine.mayMatchBody(raw, a, close)) keys[depth - 1] = name;
        else keys[depth - 1] = keyName(view ?? View.decode(src, a, close)!, top, options, patches, undefined).key;
        continue;
      }
      if (close === a) continue; // empty: not even its key is judged
      const key = kinds[depth - 1] === OBJECT ? keys[depth - 1] : undefined;
      // The raw test, unless the key makes the value a secret by itself.
      if (!(key !== undefined && secretKeys && namesSecret(key)) && !engine.mayMatchBody(raw, a, close)) continue;
      if (!stringValue(src, a, close, key, 0, options, patches)) return false;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (depth === kinds.length) {
        const grown = new Uint8Array(depth * 2);
        grown.set(kinds);
        kinds = grown;
      }
      kinds[depth++] = c === 0x7b ? OBJECT : ARRAY;
      keyNext = c === 0x7b;
      keys[depth - 1] = undefined;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c) keyNext = kinds[depth - 1] === OBJECT;
    i++;
  }
  return true;
}
