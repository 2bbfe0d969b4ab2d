/**
 * wuu-check: validate a stream against the wire protocol
 * (WIRE-FORMAT-REFERENCE.md) and report every problem as
 * `FILE:LINE: rule: message`.
 *
 * Each input file is checked as its own stream (./stream-rules.ts holds the
 * cross-event rules and their per-file state). A line that is not an event is
 * a problem of its own (the core defines `badLine`, so the runner hands it
 * every bad line instead of reporting it). Where a user still wants to know
 * (a cut last line, no result, two racing results) it is a warning.
 *
 * The checker reads no line's content it does not need: lines reach `push`
 * unparsed and untyped (`needsParse` is parseNothing), and ./fields.ts proves
 * each one valid JSON while it reads the few fields the rules look at, its
 * type included, from the bytes. A line the
 * walk cannot vouch for is parsed (`rec.event`); a bad one then throws the
 * runner's InvalidLineError, and comes back through `badLine`.
 */
import type { Transform } from 'node:stream';
import { coreStream, type BadLine, type Core, type Emit } from '../core.js';
import { LineRecord, parseNothing, type EventRecord } from '../jsonl.js';
import { escapeControls } from '../text.js';
import { FieldReader, fieldsOfObject, type EventFields } from './fields.js';
import { StreamRules, type At } from './stream-rules.js';
import { RULE_SEVERITY } from './schema.js';

/** Options of {@link createCheck}. */
export interface CheckOptions {
  /** Print problems as JSONL objects {file, line, rule, severity, message}. */
  json?: boolean;
  /** Rule ids not to apply. */
  ignore?: readonly string[];
  /** Receives the summary line at the end (the binary sends it to stderr). Default: dropped. */
  summary?: (line: string) => void;
  /**
   * Whether this checker itself was stopped (a signal during `-f`): a stream
   * read only in part is then not judged for its missing result.
   */
  interrupted?: () => boolean;
  /**
   * Most warnings allowed (eslint's `--max-warnings`): more than this many
   * make the status 1, as an error would. Default: no limit (warnings never fail).
   */
  maxWarnings?: number;
}

/** Counts problems and writes them, as text or JSONL. */
class Reporter {
  errors = 0;
  warnings = 0;
  private readonly ignored: ReadonlySet<string>;

  constructor(private readonly options: CheckOptions) {
    this.ignored = new Set(options.ignore ?? []);
  }

  report(emit: Emit, file: string, line: number, rule: string, message: string): void {
    if (this.ignored.has(rule)) return;
    const severity = RULE_SEVERITY.get(rule) ?? 'error';
    if (severity === 'error') this.errors++;
    else this.warnings++;
    if (this.options.json) emit(`${JSON.stringify({ file, line, rule, severity, message })}\n`);
    // Messages quote the data (ids, types, names): made safe for a terminal here, once.
    else emit(`${escapeControls(file)}:${line}: ${rule}: ${escapeControls(message)}\n`);
  }

  get tooManyWarnings(): boolean {
    return this.options.maxWarnings !== undefined && this.warnings > this.options.maxWarnings;
  }
}

/** The fields of a record: from its bytes when it has them, else from the parsed event. */
function fieldsOf(rec: EventRecord, reader: FieldReader): EventFields {
  if (rec instanceof LineRecord && reader.read(rec.source, rec.start, rec.end)) return reader;
  return fieldsOfObject(rec.type, rec.event);
}

/**
 * The checker's core: validates every event, emits one line per problem as
 * it is found (text `FILE:LINE: rule: message`, or JSONL), and ends each file
 * with its end-of-stream problems. Exit status 1 when an error was found.
 *
 * A line record handed to `push` is read from its bytes; one that is not an
 * event throws InvalidLineError (as reading its `event` does) before any problem is reported.
 */
export function createCheck(options: CheckOptions = {}): Core & { badLine(bad: BadLine, emit: Emit): void } {
  const reporter = new Reporter(options);
  const reader = new FieldReader();
  let rules = new StreamRules();
  let files = 0;
  /** A stream was left unread at its end because the checker was stopped. */
  let stoppedEarly = false;
  // The line being checked, for one problem sink bound once (not a closure per event).
  let lineEmit: Emit = () => undefined;
  let lineFile = '';
  let lineNo = 0;
  const at: At = (rule, message) => reporter.report(lineEmit, lineFile, lineNo, rule, message);

  const endStream = (file: string, emit: Emit) => {
    const name = rules.file ?? file;
    files++;
    if (rules.file === undefined) {
      reporter.report(emit, name, 0, 'no-events', 'the input is empty: nothing to check');
    } else {
      rules.end((line, rule, message) => reporter.report(emit, name, line, rule, message));
      if (rules.result === undefined && options.interrupted?.() === true) {
        stoppedEarly = true;
      } else if (rules.result === undefined) {
        reporter.report(emit, name, rules.lastLine, 'missing-result', 'the stream ended without a result event (the producer was killed or the stream was cut)');
      }
    }
    rules = new StreamRules();
  };

  return {
    // Lines are proven valid and read from their bytes, type included, in one
    // pass (fields.ts); parsed only when that fails. parseNothing: the runner
    // does not read the type first (a second scan of every line for nothing).
    needsParse: parseNothing,
    push(rec, emit) {
      lineEmit = emit;
      lineFile = rec.file;
      lineNo = rec.line;
      rules.event(rec.file, rec.line, fieldsOf(rec, reader), at);
    },
    badLine(bad, emit) {
      rules.badLine(bad.file, bad.line);
      if (bad.terminated) reporter.report(emit, bad.file, bad.line, 'bad-line', bad.message);
      else reporter.report(emit, bad.file, bad.line, 'cut-line', `last line cut off (no newline at end of input): ${bad.message}`);
    },
    endFile(file, emit) {
      endStream(file, emit);
    },
    end() {
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      const partly = stoppedEarly ? ' (stopped before the end of the input: its result was not read)' : '';
      const over = reporter.tooManyWarnings ? ` (more than --max-warnings ${options.maxWarnings})` : '';
      options.summary?.(`checked ${plural(files, 'file')}${partly}: ${plural(reporter.errors, 'error')}, ${plural(reporter.warnings, 'warning')}${over}`);
    },
    status: () => (reporter.errors > 0 || reporter.tooManyWarnings ? 1 : 0),
  };
}

/**
 * Object-mode stream version of {@link createCheck}: event records in (from
 * `parse()`), problem lines out. `parse()` skips bad lines, so they are not
 * seen here; `wuu-check` (the runner) hands them to the core's `badLine`.
 */
export function check(options: CheckOptions = {}): Transform {
  return coreStream(createCheck(options));
}
