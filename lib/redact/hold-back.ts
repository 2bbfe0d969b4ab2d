/**
 * The delta hold-back: where to cut a delta piece so that a secret split
 * across two pieces of one stream is still caught. A piece that ENDS with
 * text that could begin a match (each rule's `partial` pattern: `sk-pro`,
 * `/home/al`, `password=`...) keeps that tail back for the next piece.
 */
import type { Redactor } from './engine.js';

/** The longest tail held back per delta stream, in characters. */
export const MAX_HOLD = 20000;

/** How far back from the end anchors of ordinary partials are searched. */
const SHORT_WINDOW = 1100;
/** The same for long partials (private keys, JWTs, authorization values). */
const MAX_WINDOW = 16600;

/**
 * Where to cut a delta piece: the start of the earliest suffix that could
 * begin a match continued by the next piece (the text's length when none).
 */
export function holdPoint(engine: Redactor, text: string): number {
  const built = engine.compiled();
  const len = text.length;
  if (len === 0) return 0;
  let hold = len;
  if (built.fallbackHold > 0) hold = Math.max(0, len - built.fallbackHold);
  const attempts: number[] = [];
  const tryAt = (at: number, indexes: number[]) => {
    for (const index of indexes) {
      const reach = built.partials[index]!.reach;
      for (let k = reach; k >= 0; k--) if (at - k >= 0) attempts.push((at - k) * 4096 + index);
    }
  };
  // Anchors cut by the end of the piece: the text ends with their beginning.
  const tail = text.slice(-16).toLowerCase();
  for (const [reversed, indexes] of built.prefixes.get(tail[tail.length - 1]!) ?? []) {
    const prefix = [...reversed].reverse().join('');
    if (tail.endsWith(prefix)) tryAt(len - prefix.length, indexes);
  }
  // Whole anchors within reach of the end.
  const search = (re: RegExp | undefined, window: number) => {
    if (re === undefined || window <= 0) return;
    re.lastIndex = Math.max(0, len - window);
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const at = m.index;
      for (const [literal, indexes] of built.anchorDispatch.get(text[at]!.toLowerCase()) ?? []) {
        if (text.slice(at, at + literal.length).toLowerCase() === literal) tryAt(at, indexes);
      }
      re.lastIndex = at + 1;
    }
  };
  // Short partials never span a line break (their classes exclude \n): only
  // the last line can hold their start. Long ones (PEM blocks) can.
  const lastBreak = text.lastIndexOf('\n');
  search(built.shortAnchors, Math.min(SHORT_WINDOW, len - lastBreak - 1));
  search(built.longAnchors, MAX_WINDOW);
  attempts.sort((a, b) => a - b);
  for (const attempt of attempts) {
    const at = Math.floor(attempt / 4096);
    if (at >= hold) break;
    if (built.partials[attempt % 4096]!.test(text, at)) {
      hold = at;
      break;
    }
  }
  const windowStart = Math.max(0, len - SHORT_WINDOW);
  for (const free of built.freePartials) hold = Math.min(hold, free(text, windowStart));
  if (len - hold > MAX_HOLD) hold = len - MAX_HOLD;
  if (hold < len) hold = outsideMatches(engine, text, hold);
  return hold;
}

/** Moves a cut point back to the start of a complete match that spans it. */
function outsideMatches(engine: Redactor, text: string, cut: number): number {
  let result = cut;
  engine.scan(text, Math.max(0, cut - 70000), (m) => {
    if (m.start >= cut) return false;
    if (m.end > cut) {
      result = m.start;
      return false;
    }
    return true;
  });
  return result;
}
