/**
 * `--merge`: reads `--json` reports (parts of a map-reduce over many logs)
 * and reports their union. Unit lines (kind turn, agent) are the facts; row,
 * model and total lines are derived and recomputed, so every line `--json`
 * writes is accepted. Counts are read exactly (digits beyond 2^53 too). A
 * turn or subagent present in several parts is counted once. Lines go
 * through the runner's one line policy: a line that is not a `--json` line
 * is a bad line like any other (reported, counted, --strict stops).
 */
import { badLineMessage, InvalidLineError, LineSplitter, parseNothing, readLine, type EventRecord, type Line } from '../jsonl.js';
import type { Core } from '../core.js';
import { expandInput } from '../cli/inputs.js';
import { BadLineLog, judgeBadLine } from '../cli/policy.js';
import type { ToolIO } from '../cli/spec.js';
import { escapeControls } from '../text.js';
import { DATE_SOURCES, type DateSource } from './dates.js';
import { UsageLedger } from './ledger.js';
import type { ScanPolicy } from './reader.js';
import { renderUsage, type RenderOptions } from './render.js';
import { tokenValue, type TokenField } from './tokens.js';
import type { AgentUnit, TurnUnit, UsageUnit, Warn } from './types.js';

const DERIVED = new Set(['row', 'model', 'total']);
const TURN_SOURCES: ReadonlySet<string> = new Set<TurnUnit['source']>(['usage_updated', 'turn_completed', 'none']);
const AGENT_SOURCES: ReadonlySet<string> = new Set<AgentUnit['source']>(['report', 'child_thread']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTurnSource(value: string): value is TurnUnit['source'] {
  return TURN_SOURCES.has(value);
}

function isAgentSource(value: string): value is AgentUnit['source'] {
  return AGENT_SOURCES.has(value);
}

function isDateSource(value: unknown): value is DateSource {
  return DATE_SOURCES.some((source) => source === value);
}

/** Why a unit line is not one: thrown by the field readers, caught by {@link parseUnitLine}. */
class NotAUnit extends Error {}

/** Reads one line of a `--json` report: a unit, `null` for a derived line (row, total), or an error message. */
export function parseUnitLine(text: string, raw?: Buffer): UsageUnit | null | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not a wuu-usage --json line (not valid JSON)';
  }
  if (!isRecord(value)) return 'not a wuu-usage --json line (not an object)';
  const kind = value.kind;
  if (typeof kind === 'string' && DERIVED.has(kind)) return null;
  if (kind !== 'turn' && kind !== 'agent' && kind !== 'run') return `not a wuu-usage --json line (kind ${JSON.stringify(kind ?? null)})`;
  try {
    return readUnit(value, kind, raw);
  } catch (err) {
    if (err instanceof NotAUnit) return err.message;
    throw err;
  }
}

/**
 * The unit of a parsed unit line, its fields checked in a fixed order (the
 * first bad one is named): strings, then nullable strings, provider,
 * date_source, line, the counts, and the source's value last.
 */
function readUnit(v: Record<string, unknown>, kind: UsageUnit['kind'], raw: Buffer | undefined): UsageUnit {
  const bad = (field: string) => new NotAUnit(`wuu-usage --json ${kind} line: bad or missing '${field}'`);
  const text = (field: string): string => {
    const x = v[field];
    if (typeof x !== 'string') throw bad(field);
    return x;
  };
  const nullable = (field: string): string | null => {
    const x = v[field] ?? null;
    if (x !== null && typeof x !== 'string') throw bad(field);
    return x;
  };
  const file = text('file');
  const thread = text('thread_id');
  const model = text('model');
  const source = kind === 'run' ? '' : text('source');
  const turnId = kind === 'turn' ? text('turn_id') : '';
  const agent = kind === 'agent' ? [text('agent_id'), text('agent_type'), text('agent_status')] : [];
  const runId = nullable('run_id');
  const runStatus = nullable('run_status');
  const time = nullable('time');
  const end = kind === 'turn' ? nullable('end') : null;
  const provider = v.provider === undefined ? '' : v.provider;
  if (typeof provider !== 'string') throw bad('provider');
  // Parts written before date_source existed have none (null).
  const dateSource = v.date_source ?? null;
  if (dateSource !== null && !isDateSource(dateSource)) throw bad('date_source');
  const line = v.line;
  if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 0) throw bad('line');
  const count = (field: TokenField): bigint => {
    const x = v[field];
    if (x === undefined) throw bad(field);
    const n = tokenValue(x, raw, field);
    if (typeof n === 'string') throw new NotAUnit(`wuu-usage --json ${kind} line: ${n}`);
    return n;
  };
  const base = {
    file,
    line,
    thread_id: thread,
    run_id: runId,
    run_status: runStatus,
    provider,
    model,
    time,
    date_source: dateSource,
    input_tokens: count('input_tokens'),
    cache_creation_tokens: count('cache_creation_tokens'),
    cache_read_tokens: count('cache_read_tokens'),
    output_tokens: count('output_tokens'),
  };
  if (kind === 'run') return { kind: 'run', ...base };
  if (kind === 'turn') {
    if (!isTurnSource(source)) throw bad('source');
    return { kind: 'turn', ...base, turn_id: turnId, end, source };
  }
  if (!isAgentSource(source)) throw bad('source');
  const [agentId = '', agentType = '', agentStatus = ''] = agent;
  return { kind: 'agent', ...base, agent_id: agentId, agent_type: agentType, agent_status: agentStatus, source };
}

/** Reads one `--json` line into the ledger; a line that is not one is thrown as an InvalidLineError. */
function mergeLine(ledger: UsageLedger, rec: EventRecord): void {
  const raw = rec.raw ?? Buffer.alloc(0);
  const parsed = parseUnitLine(raw.toString('utf8'), raw);
  if (typeof parsed === 'string') throw new InvalidLineError(parsed, rec.file, rec.line, raw);
  if (parsed !== null) ledger.add([parsed]);
}

/**
 * `wuu-usage --merge`: each input's lines go through the shared line policy
 * (LineSplitter, then readLine: size cap, shape check, bad-line wording);
 * bad lines are reported and counted (exit 1), --strict stops at the first,
 * --pass-invalid reports them without counting. Returns the exit status.
 */
export async function usageMergeMain(names: readonly string[], options: RenderOptions & { policy: ScanPolicy }, io: ToolIO): Promise<number> {
  const warn = (m: string) => io.warn(escapeControls(m));
  // Warnings go to the caller's warn (none under -q); bad lines to stderr.
  const note = options.warn ?? warn;
  const ledger = new UsageLedger(note);
  const { policy } = options;
  // The one flood rule of every tool: 20 bad lines in a row listed, then a count.
  const flood = new BadLineLog(warn);
  let badLines = 0;
  let stopped = false;
  for (const name of (names.length === 0 ? ['-'] : names).flatMap(expandInput)) {
    const splitter = new LineSplitter(policy.maxLineBytes);
    let file = name;
    const onLine = (line: Line) => {
      if (stopped) return;
      readLine(file, line, {
        maxLineBytes: policy.maxLineBytes,
        needsParse: parseNothing,
        push: (rec) => {
          mergeLine(ledger, rec);
          flood.good();
        },
        bad: (reason) => {
          if (judgeBadLine(policy, line) === 'pass') {
            warn(`${file}:${line.line}: ${badLineMessage(line, reason)}`);
            return;
          }
          flood.bad(file, line.line, badLineMessage(line, reason));
          badLines++;
          if (policy.strict) stopped = true;
        },
      });
    };
    const going = await io.readInputs([name], (chunk, display) => {
      file = display;
      splitter.push(chunk, onLine);
    });
    splitter.end(onLine);
    if (stopped) break;
    if (!going) break;
  }
  const summary = flood.summary();
  if (!stopped) await io.write(renderUsage(ledger.units(), { ...options, warn: note }));
  if (summary !== undefined) warn(summary);
  return stopped || badLines > 0 ? 1 : 0;
}

/**
 * The `--merge` core (programmatic use): lines of `--json` reports in, the merged report out.
 * A line that is not one is thrown as an InvalidLineError, so the runner's
 * line policy reports it.
 */
export function createUsageMerge(options: RenderOptions & { warn?: Warn }): Core {
  const ledger = new UsageLedger(options.warn ?? (() => {}));
  return {
    // Nothing is parsed for the runner: this core reads its own lines.
    needsParse: parseNothing,
    push(rec: EventRecord) {
      mergeLine(ledger, rec);
    },
    end(emit) {
      emit(renderUsage(ledger.units(), options));
    },
    // A bad line has nothing to pass on.
    invalid() {},
  };
}
