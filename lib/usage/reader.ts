/**
 * Bytes of one input to the scanner. Lines are framed by the shared
 * LineSplitter and read by the shared `readLine` (size cap, validation,
 * bad-line wording), but a line whose tail names a type wuu-usage does not
 * read (`..."type":"agent_message_delta"}`, most of a stream) is skipped as
 * bytes before any record is built: Go sorts keys, so `type` is the last
 * member of almost every event. Lines of other shapes take the general path.
 * Under --strict every line is validated.
 */
import { LineSplitter, type Line } from '../jsonl.js';
import { badLineMessage, readLine } from '../runner.js';
import type { UsageScanner } from './scanner.js';
import { USAGE_TYPES } from './types.js';

/** How a file's lines are handled: the runner's bad-line policy. */
export interface ScanPolicy {
  maxLineBytes: number;
  strict: boolean;
  passInvalid: boolean;
}

const QUOTE = 0x22;
const RBRACE = 0x7d;
const BACKSLASH = 0x5c;
const TYPE_KEY = Buffer.from('"type":');

/**
 * The type named by a line's tail when the line ends `,"type":"NAME"}` (or
 * `{"type":"NAME"}`); undefined for any other shape.
 */
export function tailType(src: Buffer, start: number, end: number): string | undefined {
  const close = end - 1;
  if (close - start < 12 || src[close] !== RBRACE || src[close - 1] !== QUOTE) return undefined;
  let open = close - 2;
  const stop = Math.max(start + 8, close - 48);
  while (open > stop && src[open] !== QUOTE) {
    if (src[open] === BACKSLASH) return undefined;
    open--;
  }
  if (src[open] !== QUOTE) return undefined;
  const keyAt = open - TYPE_KEY.length;
  if (keyAt - 1 < start) return undefined;
  for (let k = 0; k < TYPE_KEY.length; k++) if (src[keyAt + k] !== TYPE_KEY[k]) return undefined;
  const before = src[keyAt - 1];
  if (before !== 0x2c && before !== 0x7b) return undefined;
  return src.toString('latin1', open + 1, close - 1);
}

/** Reads one input's chunks into a scanner, with the shared line policy. */
export class InputReader {
  private readonly splitter: LineSplitter;
  /** Bad lines counted against the exit status. */
  badLines = 0;
  /** A bad line under --strict stopped it: nothing after it counts. */
  stopped = false;
  private readonly onLine: (line: Line) => void;

  constructor(
    readonly file: string,
    policy: ScanPolicy,
    private readonly scanner: UsageScanner,
    private readonly message: (text: string) => void,
  ) {
    this.splitter = new LineSplitter(policy.maxLineBytes);
    const needsParse = policy.strict ? undefined : (type: string) => USAGE_TYPES.has(type);
    const handler = {
      maxLineBytes: policy.maxLineBytes,
      // --strict promises every line is checked, as in the runner.
      needsParse,
      push: (rec: { type: string; event: unknown; raw?: Buffer; line: number }) => {
        const type = rec.type;
        if (USAGE_TYPES.has(type)) this.scanner.push(type, rec.event as Record<string, unknown>, rec.line, rec.raw);
        else this.scanner.seen(rec.line);
      },
      bad: (reason: string) => {
        this.message(`${file}:${this.current?.line ?? 0}: ${this.current === undefined ? reason : badLineMessage(this.current, reason)}`);
        if (policy.passInvalid && this.current?.oversizeBytes === undefined) return;
        this.badLines++;
        if (policy.strict) this.stopped = true;
      },
    };
    const strict = policy.strict;
    this.onLine = (line: Line) => {
      if (this.stopped) return;
      if (!strict && line.terminated && line.oversizeBytes === undefined) {
        const type = tailType(line.source, line.start, line.end);
        if (type !== undefined && !USAGE_TYPES.has(type)) {
          this.scanner.seen(line.line);
          return;
        }
      }
      this.current = line;
      readLine(file, line, handler);
      this.current = undefined;
    };
  }

  private current: Line | undefined;

  /** Feeds one chunk of the input. */
  push(chunk: Buffer): void {
    if (!this.stopped) this.splitter.push(chunk, this.onLine);
  }

  /** End of the input: a last line without newline is read (or reported). */
  end(): void {
    if (!this.stopped) this.splitter.end(this.onLine);
  }
}
