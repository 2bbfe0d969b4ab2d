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
import { tokenValue } from './tokens.js';
import { TOKEN_FIELDS, type AgentUnit, type TurnUnit, type UsageUnit, type Warn } from './types.js';

const DERIVED = new Set(['row', 'model', 'total']);

/** Reads one line of a `--json` report: a unit, `null` for a derived line (row, total), or an error message. */
export function parseUnitLine(text: string, raw?: Buffer): UsageUnit | null | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not a wuu-usage --json line (not valid JSON)';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a wuu-usage --json line (not an object)';
  const v = value as Record<string, unknown>;
  if (typeof v.kind === 'string' && DERIVED.has(v.kind)) return null;
  if (v.kind !== 'turn' && v.kind !== 'agent' && v.kind !== 'run') return `not a wuu-usage --json line (kind ${JSON.stringify(v.kind ?? null)})`;
  const bad = (field: string) => `wuu-usage --json ${v.kind} line: bad or missing '${field}'`;
  const own = v.kind === 'turn' ? ['source', 'turn_id'] : v.kind === 'agent' ? ['source', 'agent_id', 'agent_type', 'agent_status'] : [];
  const strings = ['file', 'thread_id', 'model', ...own];
  for (const f of strings) if (typeof v[f] !== 'string') return bad(f);
  for (const f of ['run_id', 'run_status', 'time', ...(v.kind === 'turn' ? ['end'] : [])]) if (v[f] !== null && v[f] !== undefined && typeof v[f] !== 'string') return bad(f);
  if (v.provider !== undefined && typeof v.provider !== 'string') return bad('provider');
  // Parts written before date_source existed have none (null).
  const dateSource = v.date_source ?? null;
  if (dateSource !== null && !(DATE_SOURCES as readonly unknown[]).includes(dateSource)) return bad('date_source');
  if (!Number.isSafeInteger(v.line) || (v.line as number) < 0) return bad('line');
  const tokens: Record<string, bigint> = {};
  for (const f of TOKEN_FIELDS) {
    if (v[f] === undefined) return bad(f);
    const t = tokenValue(v[f], raw, f);
    if (typeof t === 'string') return `wuu-usage --json ${v.kind} line: ${t}`;
    tokens[f] = t;
  }
  const base = {
    file: v.file as string,
    line: v.line as number,
    thread_id: v.thread_id as string,
    run_id: (v.run_id ?? null) as string | null,
    run_status: (v.run_status ?? null) as string | null,
    provider: (v.provider ?? '') as string,
    model: v.model as string,
    time: (v.time ?? null) as string | null,
    date_source: dateSource as DateSource | null,
    input_tokens: tokens.input_tokens!,
    cache_creation_tokens: tokens.cache_creation_tokens!,
    cache_read_tokens: tokens.cache_read_tokens!,
    output_tokens: tokens.output_tokens!,
  };
  if (v.kind === 'run') return { kind: 'run', ...base };
  if (v.kind === 'turn') {
    const source = v.source as TurnUnit['source'];
    if (source !== 'usage_updated' && source !== 'turn_completed' && source !== 'none') return bad('source');
    return { kind: 'turn', ...base, turn_id: v.turn_id as string, end: (v.end ?? null) as string | null, source };
  }
  const source = v.source as AgentUnit['source'];
  if (source !== 'report' && source !== 'child_thread') return bad('source');
  return { kind: 'agent', ...base, agent_id: v.agent_id as string, agent_type: v.agent_type as string, agent_status: v.agent_status as string, source };
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
