/**
 * The structure of a raw JSON line between its strings, for the combined
 * pass of ./prefilter.ts (Automaton.proveRaw): the marker automaton reads
 * the strings' text, this reads what lies between them (brackets, colons,
 * commas, numbers, `true`/`false`/`null`), and together they prove the line
 * a valid event with the verdicts of lib/validate.ts (isJsonEvent): one
 * object JSON.parse accepts whose last top-level `type` member is a string,
 * no top-level key spelled with escapes. Anything else is "not proven" and
 * the caller validates the line the usual way, so a doubt costs time, never
 * a verdict. No recursion: nesting lives in a byte stack.
 */
import { numberEnd, wordEnd } from '../validate.js';

const START = 0; // before the top-level `{`
const KEY_OR_CLOSE = 1; // after `{`
const KEY = 2; // after `,` in an object
const COLON = 3; // after a key
const VALUE = 4; // after `:`, or `,` in an array
const VALUE_OR_CLOSE = 5; // after `[`
const AFTER = 6; // after a value
const END = 7; // after the top-level `}`: only whitespace
const IN_KEY = 8; // inside a key string
const IN_VALUE = 9; // inside a value string

const OBJECT = 1;
const ARRAY = 2;
const QUOTE = 0x22;

/** The state of one line's structure, used again line after line. */
export class JsonTrack {
  private stack = new Uint8Array(64);
  private depth = 0;
  private state = START;
  /** The last top-level key read was `type`: its value is next. */
  private typeNext = false;
  /** The last top-level `type` member's value is a string (the one JSON.parse keeps). */
  typeString = false;
  /** The last top-level key read was `delta`: a string value is recorded (wuu-redact's hold-back reads it). */
  private deltaNext = false;
  /** Top-level keys spelled `delta`, and the quotes of the last one's string value (-1: none). */
  deltaKeys = 0;
  deltaOpen = -1;
  deltaClose = -1;
  /** The next string closed is the value of a top-level `type` member. */
  private typeValue = false;
  /**
   * Top-level keys spelled `type`, and the quotes of the last one's value when
   * it is a string (-1: not one); `typeEscaped`: that string holds an escape.
   * wuu-redact reads a proven line's type from them (Core.passLines).
   */
  typeKeys = 0;
  typeOpen = -1;
  typeClose = -1;
  typeEscaped = false;

  begin(): void {
    this.depth = 0;
    this.state = START;
    this.typeNext = false;
    this.typeString = false;
    this.deltaNext = false;
    this.deltaKeys = 0;
    this.deltaOpen = -1;
    this.typeValue = false;
    this.typeKeys = 0;
    this.typeOpen = -1;
  }

  /** Whether the line read so far is a whole valid event (call after {@link until} returned `end`). */
  get event(): boolean {
    return this.state === END && this.typeString;
  }

  private open(kind: number): void {
    if (this.depth === this.stack.length) {
      const grown = new Uint8Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    this.stack[this.depth++] = kind;
    this.state = kind === OBJECT ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
  }

  /**
   * Reads the structure from `k` (outside any string) to the next string's
   * opening quote: its index; `end` when the top-level object closed and
   * only whitespace follows; -1 when the bytes are not valid JSON here.
   */
  until(buf: Uint8Array, k: number, end: number): number {
    for (;;) {
      if (k >= end) return this.state === END ? end : -1;
      const b = buf[k]!;
      if (b === 0x20 || b === 0x09 || b === 0x0d) {
        k++;
        continue;
      }
      const state = this.state;
      if (state === AFTER) {
        const inObject = this.stack[this.depth - 1] === OBJECT;
        if (b === 0x2c) this.state = inObject ? KEY : VALUE;
        else if (b !== (inObject ? 0x7d : 0x5d)) return -1;
        else this.state = --this.depth === 0 ? END : AFTER;
        k++;
      } else if (state === KEY || state === KEY_OR_CLOSE) {
        if (b === QUOTE) {
          this.state = IN_KEY;
          return k;
        }
        if (state === KEY || b !== 0x7d) return -1;
        this.state = --this.depth === 0 ? END : AFTER;
        k++;
      } else if (state === COLON) {
        if (b !== 0x3a) return -1;
        this.state = VALUE;
        k++;
      } else if (state === VALUE || state === VALUE_OR_CLOSE) {
        if (state === VALUE_OR_CLOSE && b === 0x5d) {
          this.state = --this.depth === 0 ? END : AFTER;
          k++;
          continue;
        }
        if (this.typeNext) {
          this.typeNext = false;
          this.typeString = b === QUOTE;
          this.typeValue = b === QUOTE;
          this.typeOpen = -1;
        }
        if (b === QUOTE) {
          this.state = IN_VALUE;
          return k;
        }
        if (b === 0x7b || b === 0x5b) {
          this.open(b === 0x7b ? OBJECT : ARRAY);
          k++;
          continue;
        }
        k = (b >= 0x30 && b <= 0x39) || b === 0x2d ? numberEnd(buf, k) : wordEnd(buf, k);
        if (k < 0 || k > end) return -1;
        this.state = AFTER;
      } else if (state === START && b === 0x7b) {
        this.open(OBJECT);
        k++;
      } else return -1;
    }
  }

  /**
   * After a string: whether the byte `b` and then a quote open the next
   * string (`":"` after a key, `","` between members), as {@link until}
   * would read them; the state is then that string's. False: nothing read.
   */
  quoteAfter(b: number): boolean {
    if (this.state === COLON) {
      if (b !== 0x3a) return false;
      if (this.typeNext) {
        this.typeNext = false;
        this.typeString = true;
        this.typeValue = true;
      }
      this.state = IN_VALUE;
      return true;
    }
    if (this.state !== AFTER || b !== 0x2c) return false;
    this.state = this.stack[this.depth - 1] === OBJECT ? IN_KEY : IN_VALUE;
    return true;
  }

  /**
   * The string opened at `open` closed at `close` (its quotes' indexes);
   * `escaped`: it holds an escape. False when not proven: a top-level key
   * spelled with escapes (it may spell `type`: lib/validate.ts leaves it to
   * JSON.parse too).
   */
  closeString(buf: Uint8Array, open: number, close: number, escaped: boolean): boolean {
    if (this.state === IN_VALUE) {
      this.state = AFTER;
      if (this.deltaNext && this.depth === 1) {
        this.deltaOpen = open;
        this.deltaClose = close;
      }
      if (this.typeValue) {
        this.typeValue = false;
        this.typeOpen = open;
        this.typeClose = close;
        this.typeEscaped = escaped;
      }
      return true;
    }
    this.state = COLON;
    if (this.depth !== 1) return true;
    if (escaped) return false;
    this.typeNext = close - open === 5 && buf[open + 1] === 0x74 && buf[open + 2] === 0x79 && buf[open + 3] === 0x70 && buf[open + 4] === 0x65;
    this.deltaNext = close - open === 6 && buf[open + 1] === 0x64 && buf[open + 2] === 0x65 && buf[open + 3] === 0x6c && buf[open + 4] === 0x74 && buf[open + 5] === 0x61;
    if (this.deltaNext) this.deltaKeys++;
    if (this.typeNext) this.typeKeys++;
    return true;
  }
}
