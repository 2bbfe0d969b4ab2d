/**
 * Bytes of one input to the scanner. Lines are framed by the shared
 * LineSplitter and read by the shared `readLine` (size cap, validation,
 * bad-line wording), but a line whose tail names a type wuu-usage does not
 * read (`..."type":"agent_message_delta"}`, most of a stream) is skipped as
 * bytes before any record is built: Go sorts keys, so `type` is the last
 * member of almost every event. Lines of other shapes take the general path.
 * Under --strict every line is validated.
 */
import { badLineMessage, LineSplitter, readLine, type Line } from '../jsonl.js';
import { lastMemberOpen, topLevelString } from '../scan.js';
import { judgeBadLine, type BadLinePolicy } from '../cli/policy.js';
import type { UsageScanner } from './scanner.js';
import { USAGE_TYPES } from './types.js';

/** How a file's lines are handled: the runner's bad-line policy (lib/cli/policy.ts) and size cap. */
export interface ScanPolicy extends BadLinePolicy {
  maxLineBytes: number;
  /** -q: no warnings (anomalies of the run); bad lines and unreadable inputs are still reported. */
  quiet?: boolean;
}

/**
 * Where a counted bad line goes: the flood rule (lib/cli/policy.ts
 * BadLineLog) in the main thread, or a worker's list replayed into it in
 * file order. `fresh`: a good line came before it (the streak starts over).
 */
export type BadLineReport = (file: string, line: number, message: string, fresh: boolean) => void;

const QUOTE = 0x22;
const RBRACE = 0x7d;
/**
 * Lines up to this size whose tail does not name their type are parsed
 * outright (JSON.parse), not walked by the structural scan: V8's parser reads
 * a short line faster than a JS byte walk that has to cross most of it
 * anyway, and a usage line among them needs the parse regardless. Longer
 * lines keep the scan, which builds nothing.
 */
export const PARSE_UNSNIFFED_BYTES = 64 * 1024;
const TYPE = Buffer.from('type');
/** A type name is short: a longer last value is not a type the scanner reads. */
const MAX_TYPE_BYTES = 48;
const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);
/** `current` between lines. */
const NO_LINE: Line = { source: EMPTY, start: 0, end: 0, line: 0, terminated: true };

/** The usage types as bytes, by length, for a comparison that allocates nothing. */
const NEEDED_BY_LENGTH = new Map<number, Buffer[]>();
for (const type of USAGE_TYPES) {
  const bytes = Buffer.from(type, 'latin1');
  const list = NEEDED_BY_LENGTH.get(bytes.length) ?? [];
  list.push(bytes);
  NEEDED_BY_LENGTH.set(bytes.length, list);
}

/**
 * Whether a line's tail names a type wuu-usage reads: true or false when the
 * line ends `,"type":"NAME"}`, undefined for any other shape. Allocates
 * nothing: this runs on every line.
 */
export function tailNeeded(src: Buffer, start: number, end: number): boolean | undefined {
  const open = lastMemberOpen(src, TYPE, start, end, MAX_TYPE_BYTES);
  if (open < 0) return undefined;
  // The value has no quote inside (lastMemberOpen's proof): it ends at the
  // quote before the closing brace. A byte loop, not Buffer#indexOf, whose
  // wrapper costs more than the few bytes it would search.
  let close = end - 1;
  while (src[close] !== RBRACE) close--;
  const list = NEEDED_BY_LENGTH.get(close - 1 - (open + 1));
  if (list === undefined) return false;
  outer: for (const name of list) {
    for (let k = 0; k < name.length; k++) if (src[open + 1 + k] !== name[k]) continue outer;
    return true;
  }
  return false;
}

/**
 * Whether a line whose tail is not its type (`file_changed` ends in
 * `"workspace_revision":0}`, `session_configured` in `"workspace_root":...}`)
 * names a type wuu-usage reads, by the shared structural scan readLine would
 * run for it (lib/scan.ts topLevelString), without building a record; undefined
 * when the scan cannot vouch for a type (then readLine parses and judges it).
 */
export function scannedNeeded(src: Buffer, start: number, end: number): boolean | undefined {
  const type = topLevelString(src, 'type', start, end);
  return type === undefined ? undefined : USAGE_TYPES.has(type);
}

/**
 * The type named by a line's tail when the line ends `,"type":"NAME"}` (or
 * `{"type":"NAME"}`); undefined for any other shape.
 */
export function tailType(src: Buffer, start: number, end: number): string | undefined {
  const open = lastMemberOpen(src, TYPE, start, end, MAX_TYPE_BYTES);
  return open < 0 ? undefined : src.toString('latin1', open + 1, src.indexOf(QUOTE, open + 1));
}

/** Reads one input's chunks into a scanner, with the shared line policy. */
export class InputReader {
  /** Frames the lines that straddle chunks (and the first, for its BOM), with the shared size cap. */
  private readonly splitter: LineSplitter;
  /** Bad lines counted against the exit status. */
  badLines = 0;
  /** A bad line under --strict stopped it: nothing after it counts. */
  stopped = false;
  /** Physical lines so far (the splitter sees only some of them). */
  private lineNo = 0;
  /** The line readLine is reading (its `bad` callback reports it). */
  private current: Line = NO_LINE;
  private readonly handler: Parameters<typeof readLine>[2];
  private readonly onSplit: (line: Line) => void;
  /** The last bad line's number: a bad line right after it continues a streak (every line is good or bad); 0: a streak from the previous input goes on. */
  private lastBad = 0;

  constructor(
    readonly file: string,
    private readonly policy: ScanPolicy,
    private readonly scanner: UsageScanner,
    private readonly message: (text: string) => void,
    report?: BadLineReport,
  ) {
    const reportBad: BadLineReport = report ?? ((f, n, text) => message(`${f}:${n}: ${text}`));
    this.splitter = new LineSplitter(policy.maxLineBytes);
    const badLines: BadLinePolicy = { ...policy, cutLineIsWarning: true };
    this.handler = {
      maxLineBytes: policy.maxLineBytes,
      // --strict promises every line is checked, as in the runner.
      needsParse: policy.strict ? undefined : (type: string) => USAGE_TYPES.has(type),
      push: (rec) => {
        const type = rec.type;
        if (USAGE_TYPES.has(type)) this.scanner.push(type, rec.event as unknown as Record<string, unknown>, rec.line, rec.raw);
        else this.scanner.seen(rec.line);
      },
      bad: (reason: string) => {
        const line = this.current;
        // A producer killed mid-write leaves a cut last line (trap 11): a
        // fact about the run, reported like the missing result, not bad data.
        const verdict = judgeBadLine(badLines, line);
        if (verdict === 'warn') {
          if (!policy.quiet) this.message(`${file}:${line.line}: warning: ${badLineMessage(line, reason)}; not counted`);
          return;
        }
        if (verdict === 'pass') {
          this.message(`${file}:${line.line}: ${badLineMessage(line, reason)}`);
          return;
        }
        reportBad(file, line.line, badLineMessage(line, reason), line.line !== this.lastBad + 1);
        this.lastBad = line.line;
        this.badLines++;
        if (policy.strict) this.stopped = true;
      },
    };
    this.onSplit = (line: Line) => this.handle({ ...line, line: ++this.lineNo });
  }

  /** One framed line: skipped as bytes when its tail names a type nobody reads, else the shared readLine. */
  private handle(line: Line): void {
    if (this.stopped) return;
    if (!this.policy.strict && line.terminated && line.oversizeBytes === undefined && tailNeeded(line.source, line.start, line.end) === false) {
      this.scanner.seen(line.line);
      return;
    }
    this.current = line;
    readLine(this.file, line, this.handler);
    // No chunk is kept past its line.
    this.current = NO_LINE;
  }

  /**
   * Feeds one chunk of the input. Lines wholly inside the chunk are found
   * with indexOf and judged by their tail without building anything; the
   * first and last pieces go through the shared LineSplitter.
   */
  push(chunk: Buffer): void {
    if (this.stopped) return;
    const first = chunk.indexOf(NEWLINE);
    if (first < 0) {
      this.splitter.push(chunk, this.onSplit);
      return;
    }
    this.splitter.push(chunk.subarray(0, first + 1), this.onSplit);
    const max = this.policy.maxLineBytes;
    const strict = this.policy.strict;
    let from = first + 1;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, from);
      if (nl < 0 || this.stopped) break;
      const line = ++this.lineNo;
      if (nl - from > max) {
        this.handle({ source: EMPTY, start: 0, end: 0, line, terminated: true, oversizeBytes: nl - from });
      } else if (strict) {
        this.handle({ source: chunk, start: from, end: nl, line, terminated: true });
      } else {
        this.line(chunk, from, nl, line);
      }
      from = nl + 1;
    }
    if (from < chunk.length && !this.stopped) this.splitter.push(chunk.subarray(from), this.onSplit);
  }

  /** One line wholly inside a chunk (lax mode, under the cap): skipped, read or handed to readLine. */
  private line(chunk: Buffer, start: number, end: number, line: number): void {
    let needed = tailNeeded(chunk, start, end);
    if (needed === undefined) {
      if (end - start <= PARSE_UNSNIFFED_BYTES && this.parsed(chunk, start, end, line)) return;
      needed = scannedNeeded(chunk, start, end);
    }
    if (needed === false) this.scanner.seen(line);
    else if (needed !== true || !this.fast(chunk, start, end, line)) this.handle({ source: chunk, start, end, line, terminated: true });
  }

  /**
   * A short line whose tail is not its type (`session_configured`,
   * `file_changed`, another key order): parsed, and read or skipped by the
   * parsed type. A valid event's type is what the structural scan and
   * readLine would find (the scan vouches only for a type it would read the
   * same), so the outcome is theirs. False for anything else (not JSON, not
   * an object, no string type): the line takes the general path, which
   * judges it as ever.
   */
  private parsed(chunk: Buffer, start: number, end: number, line: number): boolean {
    const parsed = parsedEvent(chunk, start, end);
    if (parsed === undefined) return false;
    if (USAGE_TYPES.has(parsed.type)) this.scanner.pushSpan(parsed.type, parsed.event, line, chunk, start, end);
    else this.scanner.seen(line);
    return true;
  }

  /**
   * The happy path of a usage line in the producer's shape: parsed at once.
   * Anything unexpected (not JSON, not an event, nested too deep) returns
   * false, and the shared readLine judges and reports the line.
   */
  private fast(chunk: Buffer, start: number, end: number, line: number): boolean {
    const parsed = parsedEvent(chunk, start, end);
    if (parsed === undefined || !USAGE_TYPES.has(parsed.type)) return false;
    this.scanner.pushSpan(parsed.type, parsed.event, line, chunk, start, end);
    return true;
  }

  /** End of the input: a last line without newline is read (or reported). */
  end(): void {
    if (!this.stopped) this.splitter.end(this.onSplit);
  }
}

/**
 * A line parsed at once when it is a JSON object with a string type;
 * undefined for anything else, which the general path then judges and reports.
 */
function parsedEvent(chunk: Buffer, start: number, end: number): { type: string; event: Record<string, unknown> } | undefined {
  let event: unknown;
  try {
    event = JSON.parse(chunk.toString('utf8', start, end));
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return undefined;
  const type = (event as { type?: unknown }).type;
  return typeof type === 'string' ? { type, event: event as Record<string, unknown> } : undefined;
}
