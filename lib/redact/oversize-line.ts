/**
 * Lines beyond --max-line-bytes: redacted in a streaming pass instead of
 * being dropped. The line's bytes go through stream-json's parser (a token
 * stream: keys, string chunks, numbers, structure), every string is redacted
 * in slices as its chunks arrive (a slice ends before any text that could
 * begin a match, as between delta pieces), and the tokens go back out through
 * stream-json's stringer. Memory stays bounded by the slice size whatever the
 * line's length; each write yields to the event loop, so signals are served.
 */
import type { Emit } from '../core.js';
import type { Redactor } from './engine.js';
import { applySpans } from './engine.js';
import { holdPoint } from './hold-back.js';
import type { Where } from './deltas.js';
import { PLACEHOLDER_ONLY } from './placeholders.js';
import { namesSecret } from './walk.js';
import { isConfigValue } from './values.js';

/** Text of one string redacted at a time, in characters. */
const SLICE = 256 * 1024;
/** Original text kept before a slice as context for lookbehinds. */
const CONTEXT = 96;
/** Keys are judged whole up to this size. */
const MAX_KEY = 64 * 1024;

interface Token {
  name: string;
  value?: unknown;
}

type TokenSource = (chunk: Buffer | symbol) => AsyncGenerator<Token>;
type TokenSink = (token: Token) => string | symbol;

interface StreamJson {
  parser: (options: Record<string, unknown>) => TokenSource;
  stringer: () => TokenSink;
  none: symbol;
}

let loaded: Promise<StreamJson> | undefined;

/** stream-json, loaded on the first oversize line only (start-up stays light). */
function streamJson(): Promise<StreamJson> {
  loaded ??= (async () => {
    const [parser, stringer, defs] = await Promise.all([
      import('stream-json/parser.js'),
      import('stream-json/stringer.js'),
      import('stream-chain/defs.js'),
    ]);
    return {
      parser: parser.default as unknown as StreamJson['parser'],
      stringer: stringer.default as unknown as StreamJson['stringer'],
      none: (defs.default as unknown as { none: symbol }).none,
    };
  })();
  return loaded;
}

/** What the runner drives for one oversize line. */
export interface OversizeRedaction {
  /** The next bytes of the line. */
  write(piece: Buffer): Promise<void>;
  /** The line ended; resolves to an error message when it was not a JSON value. */
  end(): Promise<string | undefined>;
}

/** Redacts one oversize line as a token stream; outputs go to `emit` as text. */
export function redactOversize(
  engine: Redactor,
  emit: Emit,
  where: Where,
  record: (type: string, hits: ReadonlyMap<string, number>, where: Where) => void,
  write: boolean,
): OversizeRedaction {
  let source: TokenSource | undefined;
  let sink: TokenSink | undefined;
  let none: symbol | undefined;
  let failed: string | undefined;
  const hits: string[] = [];
  const counts = new Map<string, number>();
  let type = '(oversize line)';
  let depth = 0;
  // Per open object: the current key.
  const keys: Array<string | undefined> = [];
  let inKey = false;
  let key = '';
  let inString = false;
  let secretValue = false;
  let dropped = false;
  let text = '';
  let left = '';
  let typeValue: string | undefined;
  const out: string[] = [];

  const put = (token: Token) => {
    const s = sink!(token);
    if (typeof s === 'string') out.push(s);
  };

  const slice = (final: boolean) => {
    if (text === '') return;
    const context = left + text;
    let cut = context.length;
    if (!final) {
      cut = Math.max(left.length, holdPoint(engine, context));
      if (cut === left.length) return; // all of it could begin a match: wait for more
    }
    const part = context.slice(0, cut);
    put({ name: 'stringChunk', value: applySpans(part, engine.spans(part, hits, left.length), left.length) });
    left = context.slice(Math.max(0, cut - CONTEXT), cut);
    text = context.slice(cut);
  };

  const onToken = (token: Token) => {
    switch (token.name) {
      case 'startKey':
        inKey = true;
        key = '';
        return;
      case 'endKey': {
        inKey = false;
        keys[keys.length - 1] = key;
        put({ name: 'startKey' });
        put({ name: 'stringChunk', value: depth === 1 ? key : engine.text(key, hits) });
        put({ name: 'endKey' });
        return;
      }
      case 'startString': {
        inString = true;
        text = '';
        left = '';
        dropped = false;
        const parentKey = keys[keys.length - 1];
        secretValue = engine.secretKeys && parentKey !== undefined && namesSecret(parentKey);
        put(token);
        return;
      }
      case 'stringChunk': {
        const value = String(token.value);
        if (inKey) {
          if (key.length < MAX_KEY) key += value;
          return;
        }
        if (inString) {
          text += value;
          if (depth === 1 && keys[0] === 'type' && text.length < 256) typeValue = text;
          if (secretValue) {
            // A value under a secret's key: judged whole while short, replaced whole once long.
            if (text.length > 256) {
              dropped = true;
              text = '';
            }
            return;
          }
          if (text.length >= SLICE) slice(false);
          return;
        }
        put(token);
        return;
      }
      case 'endString': {
        if (!secretValue) slice(true);
        else if (!dropped && (text === '' || PLACEHOLDER_ONLY.test(text) || isConfigValue(text))) put({ name: 'stringChunk', value: text });
        else {
          put({ name: 'stringChunk', value: engine.placeholder('secret', 'key-value', text) });
          hits.push('key-value');
        }
        inString = false;
        secretValue = false;
        if (depth === 1 && keys[0] === 'type' && typeValue !== undefined) type = typeValue;
        typeValue = undefined;
        put(token);
        return;
      }
      case 'startObject':
      case 'startArray':
        depth++;
        keys.push(undefined);
        put(token);
        return;
      case 'endObject':
      case 'endArray':
        depth--;
        keys.pop();
        put(token);
        return;
      default:
        put(token);
    }
  };

  const run = async (chunk: Buffer | symbol) => {
    if (failed !== undefined) return;
    if (source === undefined) {
      const lib = await streamJson();
      source = lib.parser({ packValues: false, streamValues: true });
      sink = lib.stringer();
      none = lib.none;
    }
    try {
      for await (const token of source(chunk === END ? none! : chunk)) onToken(token);
    } catch (err) {
      failed = (err as Error).message;
    }
    if (out.length > 0 && write) emit(out.join(''));
    out.length = 0;
    for (const name of hits) counts.set(name, (counts.get(name) ?? 0) + 1);
    hits.length = 0;
  };

  return {
    write: (piece) => run(piece),
    async end() {
      await run(END);
      if (failed === undefined && depth !== 0) failed = 'the line ends inside a value';
      record(type, counts, where);
      if (write) emit('\n');
      return failed === undefined ? undefined : `not valid JSON (${failed}); the redacted part before the error was written`;
    },
  };
}

const END = Symbol('end of line');
