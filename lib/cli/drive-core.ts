/**
 * Driving a core over the inputs: split each chunk into lines under the line
 * policy, hand events to the core, write what it emits (one write per input
 * chunk, with backpressure), offer lines over the cap to a core that streams
 * them, and end each file and the run. Returns the core's own status.
 *
 * The per-line fast path: a line lying whole in one chunk is first offered,
 * as bytes, to a type sniff that allocates nothing (lib/type-sniff.ts); a
 * line of a type the core does not want (Core.wants) is dropped right there,
 * so it costs the newline search and the sniff, and a line the core copies
 * as it came (Core.copies) is proven a valid event at byte level and added
 * to the output as a span of its chunk, with no record and no push. A line
 * held across chunks is dropped by the type at its tail before it is joined.
 * Every other line gets a record (a view into the chunk, no copy), parsed
 * only if the core asks. A core that copies every line (Core.copies true, the
 * identity filter) goes further: a chunk's whole lines are proven in one loop
 * over its bytes (validEventLines) and written as one span of it.
 */
import type { Core, Emit, LineRun } from '../core.js';
import { badLineMessage, LineSplitter, oversizeReason, OutputBatch, parseNothing, readLine, type Line, type LineHandler, type Output } from '../jsonl.js';
import { NEW, TypeSniffer } from '../type-sniff.js';
import { isJsonObject, linesValidated, typeValueAt, validEventLines } from '../validate.js';
import type { InputLoop } from './input-loop.js';
import { ReadBuffers } from './inputs.js';
import { oversizeStreamer } from './oversize-stream.js';
import { judgeBadLine, type BadLinePolicy } from './policy.js';
import type { RunState } from './run-state.js';
import type { OutputSink } from './sink.js';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** What driving a core needs from its run. */
export interface DriveContext {
  core: Core;
  inputs: string[];
  strict: boolean;
  passInvalid: boolean;
  follow: boolean;
  maxLineBytes: number;
  /** Bytes per read into reused buffers (RunOptions.readBytes); default ReadBuffers' own. */
  readBytes?: number;
  state: RunState;
  sink: OutputSink;
  loop: InputLoop;
  warn(message: string): void;
}

/** Whether the line's first byte past whitespace opens an object (its last closes one when its type was sniffed). */
function startsObject(source: Buffer, start: number, end: number): boolean {
  let at = start;
  while (at < end && (source[at] === 0x20 || source[at] === 0x09 || source[at] === 0x0d)) at++;
  return source[at] === 0x7b;
}

/** What the fast path does with lines of one type. */
const DROP = 0;
const COPY = 1;
const GENERAL = 2;

/**
 * The fast path for one line (not under --strict, --pass-invalid or
 * --follow, which read every line the general way): `offer` returns true
 * when the line was dealt with (dropped for its type, or proven a valid event
 * and added to the output as its bytes, Core.copies); otherwise `take()`
 * holds its sniffed type when it could be read, and the line goes the
 * general way.
 */
function fastPath(
  core: Core,
  state: RunState,
  batch: OutputBatch,
): { offer(source: Buffer, start: number, end: number): boolean; dropHeld(head: Buffer, tail: Buffer, start: number, end: number): boolean; take(): string | undefined } {
  const sniffer = new TypeSniffer();
  // What to do with each type, by its id in the sniffer (no string hashing per line).
  const decisions: number[] = [];
  const { wants, copies } = core;
  let sniffed: string | undefined;
  const decide = (type: string): number => {
    if (wants !== undefined && !wants(type)) return DROP;
    return copies !== undefined && copies !== true && copies(type) ? COPY : GENERAL;
  };
  const decideId = (id: number): number => {
    if (id === NEW) return decide(sniffer.fresh);
    let decision = decisions[id];
    if (decision === undefined) {
      decision = decide(sniffer.typeOf(id));
      decisions[id] = decision;
    }
    return decision;
  };
  const copy = (source: Buffer, start: number, end: number): boolean => {
    // The splitter offers lines whole in their chunk, so `end` is at the line's
    // newline: the faster many-line loop proves the line alone (the cap was checked).
    if (validEventLines(source, start, end + 1, Infinity) !== end + 1) return false;
    state.bad.good();
    batch.addLine(source, start, end);
    return true;
  };
  // A core that drops or copies by type, for lines whose type is not their
  // last member (keys after "type"): one validating pass finds the top-level
  // type and proves the line, cheaper than a record and a scan.
  const validates = wants !== undefined || typeof copies === 'function';
  const byValidation = (source: Buffer, start: number, end: number): boolean => {
    if (!validates || !isJsonObject(source, start, end) || typeValueAt < 0) return false;
    const id = sniffer.idAt(source, typeValueAt, source.indexOf(0x22, typeValueAt + 1));
    if (id === -1) return false;
    const decision = decideId(id);
    if (decision === GENERAL) {
      sniffed = id === NEW ? sniffer.fresh : sniffer.typeOf(id);
      return false;
    }
    state.bad.good();
    if (decision === COPY) batch.addLine(source, start, end);
    return true;
  };
  return {
    offer(source, start, end) {
      if (state.stopped) return true;
      // Every line is copied as it came when valid: its type does not matter.
      if (copies === true) return copy(source, start, end);
      const id = sniffer.sniffId(source, start, end);
      if (id === -1) return byValidation(source, start, end);
      if (!startsObject(source, start, end)) {
        sniffed = id === NEW ? sniffer.fresh : sniffer.typeOf(id);
        return false;
      }
      const decision = decideId(id);
      if (decision === GENERAL) {
        sniffed = id === NEW ? sniffer.fresh : sniffer.typeOf(id);
        return false;
      }
      if (decision === COPY) {
        if (!copy(source, start, end)) {
          sniffed = id === NEW ? sniffer.fresh : sniffer.typeOf(id);
          return false;
        }
      } else {
        // A dropped line is a good line: it ends a streak of bad ones.
        state.bad.good();
      }
      return true;
    },
    // A long line held across chunks is dropped by the type at its tail, never
    // joined: an 8 MiB line of an unwanted type costs no 8 MiB copy.
    dropHeld(head, tail, start, end) {
      if (state.stopped) return true;
      if (wants === undefined || !startsObject(head, 0, head.length)) return false;
      const id = sniffer.sniffId(tail, start, end);
      if (id === -1 || decideId(id) !== DROP) return false;
      state.bad.good();
      return true;
    },
    take() {
      const type = sniffed;
      sniffed = undefined;
      return type;
    },
  };
}

/**
 * The fast path for a core that copies every valid line (Core.copies true):
 * a chunk's run of whole lines is proven valid events in one pass
 * (validEventLines) and added to the output as one span of the chunk; the
 * first line that cannot be proven, and only it, goes the per-line way.
 */
function copyAllLines(state: RunState, batch: OutputBatch, maxLineBytes: number): { take(source: Buffer, start: number, end: number): number; lines: number } {
  return {
    lines: 0,
    take(source, start, end) {
      this.lines = 0;
      if (state.stopped) return start;
      const proven = validEventLines(source, start, end, maxLineBytes);
      if (proven === start) return start;
      this.lines = linesValidated;
      state.bad.good();
      batch.addLine(source, start, proven - 1);
      return proven;
    },
  };
}

/**
 * The same for a core that takes runs of lines itself (Core.passLines): what
 * it writes through is added to the output as spans of the chunk.
 */
function passedLines(core: Core, state: RunState, batch: OutputBatch, maxLineBytes: number): { take(source: Buffer, start: number, end: number): number; lines: number } {
  const pass = core.passLines!.bind(core);
  const run: LineRun = { maxLineBytes, lines: 0, write: (source, start, end) => batch.addLine(source, start, end) };
  return {
    lines: 0,
    take(source, start, end) {
      this.lines = 0;
      if (state.stopped) return start;
      run.lines = 0;
      const at = pass(source, start, end, run);
      this.lines = run.lines;
      if (run.lines > 0) state.bad.good();
      return at;
    },
  };
}

/**
 * Whether read buffers may be used again (Core.keepsNoBytes): not for a core
 * with a hook that may keep bytes, not in follow mode (whose lines the
 * follow session reads), and only for an output that copies what it writes.
 * When they may, the loop reads into reused buffers and the splitters get
 * the returned test of whether nothing holds them any more.
 */
function reusedBuffers({ core, follow, sink, loop, readBytes }: DriveContext): (() => boolean) | undefined {
  const hooks = core.oversize ?? core.badLine ?? core.seeBadLine ?? core.invalid;
  if (core.keepsNoBytes !== true || hooks !== undefined || follow || !sink.copies) return undefined;
  // Free once the output is done with what was written (the batch is written after each push).
  const free = () => sink.idle;
  loop.buffers = new ReadBuffers(free, readBytes);
  return free;
}

/**
 * The bad-line policy applied to one line (written once, here): a core that
 * sees or reports bad lines gets them; else --pass-invalid passes the line
 * with a warning, and any other run counts it (and --strict stops).
 */
function badLineHandler(ctx: DriveContext, batch: OutputBatch, emit: Emit): (file: string, line: Line, reason: string, raw: Buffer) => void {
  const { core, strict, passInvalid, state, warn } = ctx;
  const policy: BadLinePolicy = { strict, passInvalid };
  return (file, line, reason, raw) => {
    const bad = { file, line: line.line, message: reason, terminated: line.terminated, raw };
    if (core.seeBadLine?.(bad, emit) === true) return;
    if (core.badLine) {
      // A core that reports bad lines itself (wuu-check) gets every one of them.
      core.badLine(bad, emit);
    } else if (judgeBadLine(policy, line) === 'pass') {
      warn(`${file}:${line.line}: ${badLineMessage(line, reason)}`);
      if (!line.terminated) batch.markUnterminated(raw);
      if (core.invalid) core.invalid(raw, emit, { file, line: line.line });
      else batch.addBytes(raw, line.terminated);
      return;
    } else {
      state.bad.bad(file, line.line, badLineMessage(line, reason));
    }
    if (strict) state.stopped = true;
  };
}

export async function driveCore(ctx: DriveContext): Promise<number> {
  const { core, strict, passInvalid, maxLineBytes, state, sink, loop } = ctx;
  // --strict promises every line is checked, so it turns lazy parsing off.
  const needsParse = strict ? undefined : core.needsParse;

  // Outputs of one input chunk are written together: one write per chunk
  // keeps throughput high, and a live pipe still sees each event at once
  // because a chunk is whatever the producer has written so far.
  const batch = new OutputBatch();
  const emit: Emit = (out: Output) => batch.add(out);
  const flush = async () => {
    const parts = batch.takeParts();
    if (parts.length > 0) await sink.writeParts(parts);
  };

  const handleBad = badLineHandler(ctx, batch, emit);

  // A core that neither drops, copies nor parses by type has no use for a
  // sniffed type; one that copies every line (the identity filter) needs none.
  const readsTypes = core.wants !== undefined || core.copies !== undefined || (needsParse !== undefined && needsParse !== parseNothing);
  const gate = strict || passInvalid || ctx.follow || !readsTypes ? undefined : fastPath(core, state, batch);
  // --pass-invalid is byte-exact: a leading byte order mark comes out as it came.
  let bomPending = false;
  // Bound once, not per line: follow mode asks it of every line read.
  const endsRun = core.endsRun?.bind(core);
  // One handler for every line, not three objects per line: the line being
  // read and its file are kept beside it (readLine is synchronous).
  let lineFile = '-';
  let current: Line = { source: Buffer.alloc(0), start: 0, end: 0, line: 0, terminated: true };
  const lineHandler: LineHandler = {
    maxLineBytes,
    needsParse,
    validateUnread: core.passesThrough,
    // A core that reads lines from their bytes proves them in that same pass.
    prove: core.proves?.bind(core),
    type: undefined,
    push: (rec) => {
      state.bad.good();
      if (passInvalid && !current.terminated) batch.markUnterminated(current.source);
      core.push(rec, emit);
    },
    bad: (reason, raw) => handleBad(lineFile, current, reason, raw),
  };
  const handleLine = (file: string) => (line: Line) => {
    if (state.stopped) return;
    if (bomPending) {
      bomPending = false;
      if (splitter.sawBom) batch.addRaw(UTF8_BOM);
    }
    loop.session?.line(line, endsRun);
    lineFile = file;
    current = line;
    lineHandler.type = gate?.take();
    readLine(file, line, lineHandler);
  };

  const reuse = reusedBuffers(ctx);
  let splitter = new LineSplitter(maxLineBytes);
  let file = '-';
  const waiting = core.waiting?.bind(core);
  const streamer = core.oversize ? oversizeStreamer(core.oversize.bind(core), () => file, emit, flush) : undefined;
  const reportOversize = (lineNo: number, bytes: number, terminated: boolean, reason?: string) =>
    handleBad(file, { source: Buffer.alloc(0), start: 0, end: 0, line: lineNo, terminated, oversizeBytes: bytes }, reason ?? oversizeReason(bytes, maxLineBytes), Buffer.alloc(0));
  await loop.read(
    ctx.inputs,
    async (chunk, name) => {
      let rest = chunk;
      for (;;) {
        const used = splitter.push(rest, handleLine(name));
        await flush();
        if (streamer) await streamer.settle(reportOversize);
        if (used >= rest.length) break;
        rest = rest.subarray(used);
      }
    },
    (name) => {
      file = name;
      splitter = new LineSplitter(maxLineBytes);
      splitter.chunksAreFresh = reuse === undefined;
      splitter.reuse = reuse;
      splitter.streamOversize = streamer?.lines;
      splitter.fastLine = gate?.offer;
      splitter.fastHeldLine = gate?.dropHeld;
      splitter.fastLines =
        gate === undefined ? undefined : core.copies === true ? copyAllLines(state, batch, maxLineBytes) : core.passLines !== undefined ? passedLines(core, state, batch, maxLineBytes) : undefined;
      bomPending = passInvalid;
    },
    async (name) => {
      splitter.end(handleLine(name));
      if (streamer) await streamer.settle(reportOversize);
      if (!state.stopped || state.signal !== undefined) core.endFile?.(name, emit);
      await flush();
    },
    waiting &&
      (async (name) => {
        waiting(name, emit);
        await flush();
      }),
  );
  // A bad line under --strict stops everything; otherwise flush what is open.
  if (!(state.stopped && state.signal === undefined)) core.end?.(emit);
  await flush();
  return core.status?.() ?? 0;
}
