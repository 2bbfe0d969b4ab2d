/**
 * Lines beyond --max-line-bytes: redacted in a streaming pass instead of
 * being dropped. The line's bytes go through stream-json's parser (a token
 * stream: keys, string chunks, numbers, structure), every string is redacted
 * in slices as its chunks arrive (a slice ends before any text that could
 * begin a match, as between delta pieces), and the tokens go back out through
 * stream-json's stringer. Memory stays bounded by the slice size whatever the
 * line's length; each write yields to the event loop, so signals are served.
 *
 * The parser runs synchronously (stream-chain's `fun` over stream-json's own
 * functions): its async generator made a promise and an iterator result per
 * token, some 4000 per MiB, which lived long enough to be promoted.
 */
import type { Emit } from '../core.js';
import type { Redactor, Span } from './engine.js';
import { applySpans } from './engine.js';
import { holdPoint } from './hold-back.js';
import type { Where } from './deltas.js';
import { PLACEHOLDER_ONLY } from './placeholders.js';
import { namesSecret } from './walk.js';
import { isConfigValue } from './values.js';

/**
 * Text of one string redacted at a time, in characters: small, so that what
 * a slice makes (its text, spans and output) dies young.
 */
const SLICE = 32 * 1024;
/** Original text kept before a slice as context for lookbehinds. */
const CONTEXT = 96;
/** Keys are judged whole up to this size. */
const MAX_KEY = 64 * 1024;
/**
 * Bytes parsed at a time. The runner hands over its reads (1 MiB, the first
 * 32 MiB of the line at once): parsed whole, a read's tokens, their text and
 * its output all lived until the read was done, long enough to be promoted
 * to the old generation, where they piled up as garbage.
 */
const STEP = 64 * 1024;

interface Token {
  name: string;
  value?: unknown;
}

/** The tokens of the next bytes (or of the end, `none`). */
type TokenSource = (chunk: Buffer | symbol) => Token[];
type TokenSink = (token: Token) => string | symbol;

interface StreamJson {
  parser: () => TokenSource;
  stringer: () => TokenSink;
  none: symbol;
}

let loaded: Promise<StreamJson> | undefined;

type Fn = (value: unknown) => unknown;

/** stream-json, loaded on the first oversize line only (start-up stays light). */
function streamJson(): Promise<StreamJson> {
  loaded ??= (async () => {
    const [parser, stringer, defs, fun] = await Promise.all([
      import('stream-json/parser.js'),
      import('stream-json/stringer.js'),
      import('stream-chain/defs.js'),
      import('stream-chain/fun.js'),
    ]);
    const { none, getManyValues } = defs.default as unknown as { none: symbol; getManyValues: (many: unknown) => Token[] };
    const makeParser = parser.default as unknown as (options: Record<string, unknown>) => Fn;
    const sync = fun.default as unknown as (fn: Fn) => Fn;
    return {
      // Every function of the parser is synchronous, so `fun` returns the tokens at once.
      parser: () => {
        const parse = sync(makeParser({ packValues: false, streamValues: true }));
        return (chunk) => getManyValues(parse(chunk));
      },
      stringer: stringer.default as unknown as StreamJson['stringer'],
      none,
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
  report: (span: Span) => void = () => {},
): OversizeRedaction {
  const line = new OversizeLine(engine, report);
  let failed: string | undefined;
  const counts = new Map<string, number>();
  const run = async (chunk: Buffer | symbol) => {
    if (failed !== undefined) return;
    try {
      await line.feed(chunk);
    } catch (err) {
      failed = (err as Error).message;
    }
    if (write) line.take(emit);
    else line.take(() => {});
    for (const name of line.hits) counts.set(name, (counts.get(name) ?? 0) + 1);
    line.hits.length = 0;
  };
  return {
    async write(piece) {
      for (let at = 0; at < piece.length; at += STEP) await run(piece.subarray(at, Math.min(piece.length, at + STEP)));
    },
    async end() {
      await run(END);
      if (failed === undefined && line.depth !== 0) failed = 'the line ends inside a value';
      record(line.type, counts, where);
      if (write) emit('\n');
      return failed === undefined ? undefined : `not valid JSON (${failed}); the redacted part before the error was written`;
    },
  };
}

/**
 * One oversize line's tokens: keys judged whole, strings redacted slice by
 * slice, a value under a secret's key replaced whole; what goes out collects
 * in `out` until {@link take}.
 */
class OversizeLine {
  /** Rule names found since the caller last emptied it. */
  readonly hits: string[] = [];
  /** The event's type, once its top-level `type` string ended. */
  type = '(oversize line)';
  depth = 0;
  private source: TokenSource | undefined;
  private sink: TokenSink | undefined;
  private none: symbol | undefined;
  /** Per open container: the current key (objects). */
  private readonly keys: Array<string | undefined> = [];
  private inKey = false;
  private key = '';
  private inString = false;
  private secretValue = false;
  private dropped = false;
  /**
   * The string's text not yet written, as its chunks came (joined once per
   * slice: a string grown chunk by chunk is a chain that keeps every chunk and
   * the parser's input it points into), and the written text kept before it
   * as context.
   */
  private readonly parts: string[] = [];
  private length = 0;
  private left = '';
  private typeValue: string | undefined;
  private readonly out: string[] = [];

  constructor(
    private readonly engine: Redactor,
    private readonly report: (span: Span) => void,
  ) {}

  /** Parses the next bytes (or the end) and handles their tokens; throws when they are not JSON. */
  async feed(chunk: Buffer | symbol): Promise<void> {
    if (this.source === undefined) {
      const lib = await streamJson();
      this.source = lib.parser();
      this.sink = lib.stringer();
      this.none = lib.none;
    }
    const tokens = this.source(chunk === END ? (this.none ?? chunk) : chunk);
    for (let i = 0; i < tokens.length; i++) this.onToken(tokens[i]!);
  }

  /** The string's text not yet written, in one piece. */
  private text(): string {
    const parts = this.parts;
    const text = parts.length === 1 ? parts[0]! : parts.join('');
    parts.length = 0;
    this.length = 0;
    return text;
  }

  private append(value: string): void {
    this.parts.push(value);
    this.length += value.length;
  }

  /**
   * Hands over the text written since the last call: a long string alone (a
   * slice of the line's text, not copied into a bigger one), the short ones
   * between them (the tokens around the strings) joined.
   */
  take(emit: (text: string) => void): void {
    const out = this.out;
    let from = 0;
    for (let i = 0; i < out.length; i++) {
      if (out[i]!.length < ALONE) continue;
      if (i > from) emit(joined(out, from, i));
      emit(out[i]!);
      from = i + 1;
    }
    if (from < out.length) emit(joined(out, from, out.length));
    out.length = 0;
  }

  private put(token: Token): void {
    const s = this.sink?.(token);
    if (typeof s === 'string') this.out.push(s);
  }

  /** The spans of a piece of text, each reported as it is found (nothing accumulates over the line). */
  private spansOf(input: string, from = 0): Span[] {
    const spans = this.engine.spans(input, this.hits, from);
    for (const span of spans) this.report(span);
    return spans;
  }

  private onToken(token: Token): void {
    switch (token.name) {
      case 'startKey':
        this.inKey = true;
        this.key = '';
        return;
      case 'endKey':
        this.endKey();
        return;
      case 'startString':
        this.startString(token);
        return;
      case 'stringChunk':
        this.chunk(token);
        return;
      case 'endString':
        this.endString(token);
        return;
      case 'startObject':
      case 'startArray':
        this.depth++;
        this.keys.push(undefined);
        this.put(token);
        return;
      case 'endObject':
      case 'endArray':
        this.depth--;
        this.keys.pop();
        this.put(token);
        return;
      default:
        this.put(token);
    }
  }

  private endKey(): void {
    this.inKey = false;
    this.keys[this.keys.length - 1] = this.key;
    this.put({ name: 'startKey' });
    this.put({ name: 'stringChunk', value: this.depth === 1 ? this.key : applySpans(this.key, this.spansOf(this.key)) });
    this.put({ name: 'endKey' });
  }

  private startString(token: Token): void {
    this.inString = true;
    this.parts.length = 0;
    this.length = 0;
    this.left = '';
    this.dropped = false;
    const parentKey = this.keys[this.keys.length - 1];
    this.secretValue = this.engine.secretKeys && parentKey !== undefined && namesSecret(parentKey);
    this.put(token);
  }

  private chunk(token: Token): void {
    const value = String(token.value);
    if (this.inKey) {
      if (this.key.length < MAX_KEY) this.key += value;
      return;
    }
    if (!this.inString) {
      this.put(token);
      return;
    }
    this.append(value);
    if (this.depth === 1 && this.keys[0] === 'type' && this.length < 256) {
      const text = this.text();
      this.append(text);
      this.typeValue = text;
    }
    if (this.secretValue) {
      // A value under a secret's key: judged whole while short, replaced whole once long.
      if (this.length > 256) {
        this.dropped = true;
        this.parts.length = 0;
        this.length = 0;
      }
      return;
    }
    if (this.length >= SLICE) this.slice(false);
  }

  private endString(token: Token): void {
    const engine = this.engine;
    const text = this.secretValue ? this.text() : '';
    if (!this.secretValue) this.slice(true);
    else if (!this.dropped && (text === '' || PLACEHOLDER_ONLY.test(text) || isConfigValue(text) || engine.allow?.has(text) === true)) {
      this.put({ name: 'stringChunk', value: text });
    } else {
      this.put({ name: 'stringChunk', value: engine.placeholder('secret', 'key-value', text) });
      this.hits.push('key-value');
      if (!this.dropped) this.report({ start: 0, end: text.length, text: '', rule: 'key-value', value: text });
    }
    this.inString = false;
    this.secretValue = false;
    if (this.depth === 1 && this.keys[0] === 'type' && this.typeValue !== undefined) this.type = this.typeValue;
    this.typeValue = undefined;
    this.put(token);
  }

  /** Writes the string's text up to where a match could begin (all of it when `final`). */
  private slice(final: boolean): void {
    if (this.length === 0) return;
    const left = this.left;
    // The context and the text joined at once: `left + text` was a second copy of the text (flattened by the scan).
    if (left !== '') this.parts.unshift(left);
    const context = this.text();
    let cut = context.length;
    if (!final) {
      cut = Math.max(left.length, holdPoint(this.engine, context));
      if (cut === left.length) {
        this.append(context.slice(left.length)); // all of it could begin a match: wait for more
        return;
      }
    }
    const part = context.slice(0, cut);
    this.put({ name: 'stringChunk', value: applySpans(part, this.spansOf(part, left.length), left.length) });
    this.left = context.slice(Math.max(0, cut - CONTEXT), cut);
    if (cut < context.length) this.append(context.slice(cut));
  }
}

const END = Symbol('end of line');

/** Output strings this long are handed over alone (see OversizeLine.take). */
const ALONE = 4096;

/** `parts[from, to)` as one string. */
function joined(parts: readonly string[], from: number, to: number): string {
  return to - from === 1 ? parts[from]! : parts.slice(from, to).join('');
}
