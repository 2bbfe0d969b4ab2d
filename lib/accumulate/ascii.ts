/**
 * A long ASCII string literal decoded into bytes rather than into a string:
 * a tool output of 8 MiB on one line is kept from its bytes
 * (CappedText.appendAscii keeps its head and tail, the trailer its end)
 * without an 8 MiB source string, an 8 MiB parsed string and their garbage.
 * The producer escapes a newline, a tab, `<`, `>` and `&` (Go), so such an
 * output holds escapes; those that stand for ASCII are decoded here, one
 * native copy per run of plain bytes between them.
 */
import { isAscii } from 'node:buffer';
import { SHORT_ESCAPE_VALUE } from '../scan.js';
import { hex4 } from './canonical.js';

const BACKSLASH = 0x5c;
const LETTER_U = 0x75;


/**
 * Decodes ASCII literals into one buffer, reused: what {@link decode}
 * returns lasts until its next call. The buffer grows to the longest
 * literal decoded and stays (one resident copy instead of garbage per line).
 */
export class AsciiText {
  private out: Buffer = Buffer.alloc(0);

  /**
   * The text of the string literal between the quotes at `open` and `close`
   * as its bytes, when it is ASCII and so is every escape in it; undefined
   * otherwise (a non-ASCII byte, a `\u` escape of a character past ASCII, a
   * bad escape): then decode it as a string. The literal is taken to be
   * valid JSON text otherwise (its line was proven or parsed): raw control
   * bytes are not looked for.
   */
  decode(source: Buffer, open: number, close: number): Buffer | undefined {
    const body = source.subarray(open + 1, close);
    if (!isAscii(body)) return undefined;
    let at = body.indexOf(BACKSLASH);
    if (at < 0) return body;
    if (this.out.length < body.length) this.out = Buffer.allocUnsafeSlow(Math.max(body.length, 2 * this.out.length));
    const out = this.out;
    let p = 0;
    let from = 0;
    while (at >= 0) {
      p += body.copy(out, p, from, at);
      const letter = body[at + 1] ?? 0;
      let byte: number;
      if (letter === LETTER_U) {
        byte = hex4(body, at + 2);
        // Past ASCII (or not hex, or cut off by the literal's end): read as a string.
        if (byte < 0 || byte >= 0x80 || at + 6 > body.length) return undefined;
        from = at + 6;
      } else {
        byte = SHORT_ESCAPE_VALUE[letter] ?? 0;
        if (byte === 0) return undefined;
        from = at + 2;
      }
      out[p++] = byte;
      at = body.indexOf(BACKSLASH, from);
    }
    p += body.copy(out, p, from);
    return out.subarray(0, p);
  }
}
