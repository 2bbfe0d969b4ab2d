/**
 * The per-stream state machine: events of ONE input in, one unit per turn of
 * the main agent and per subagent out. The counting rules (see
 * ../shared/WIRE-FORMAT.md, traps 1-3) and why they matter:
 * - `input_tokens` EXCLUDES cached tokens: prompt = input + cache_creation +
 *   cache_read, cache hit = cache_read / prompt.
 * - `usage_updated` is a cumulative snapshot per (thread_id, turn_id): the
 *   last one counts, never their sum. `turn_completed` carries input and
 *   output only: it counts only for a turn with no snapshot.
 * - Only the root thread (lib/threads.ts) is the main agent. A child
 *   thread's turn ends and snapshots belong to its subagent, whose usage is
 *   the LAST `subagent_*` report per agent_id (cumulative); the child's own
 *   snapshots count only for an agent that never reported, so nothing is
 *   counted twice.
 * - A stream that starts mid-run (a rotated log's second part, an
 *   overlapping copy of a run's tail) names no root thread at first: a
 *   snapshot or turn end of a thread not yet known to be the root or a
 *   child is held as provisional, and decided when the run closes, by what
 *   the rest of the stream said (a later turn_started or `result` names the
 *   root; a subagent_* names its agent's thread).
 * It holds small counters per open turn and agent, never events.
 */
import { TOKEN_FIELDS } from '../events.js';
import { RootThreads, turnKey } from '../threads.js';
import { eventTime, sessionTime, type Dated } from './dates.js';
import { plainTokens, readTokensField, type TokenField } from './tokens.js';
import { addTokens, promptOf, zeroTokens, type AgentUnit, type Tokens, type TurnUnit, type UsageUnit, type Warn } from './types.js';

/** The time of a file (its mtime, or now for stdin): a Dated, or (older callers) the time alone, taken as an mtime. */
export type TimeOfFile = (file: string) => Dated | string | null;

interface TurnState {
  thread: string;
  turn: string;
  line: number;
  provider: string;
  model: string;
  time: string | undefined;
  snap: Tokens | undefined;
  snapLine: number;
  completed: Tokens | undefined;
  end: string | null;
  /** Seen before its thread was known to be the root (a stream that starts mid-run): decided at the close. */
  provisional: boolean;
}

interface AgentState {
  thread: string;
  agent: string;
  line: number;
  time: string | undefined;
  type: string;
  status: string;
  tokens: Tokens | undefined;
  lastLine: number;
}

interface ChildTurn {
  thread: string;
  turn: string;
  line: number;
  time: string | undefined;
  tokens: Tokens;
}

const END_OF: Readonly<Record<string, string>> = { turn_completed: 'completed', turn_failed: 'failed', turn_interrupted: 'interrupted' };

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function quoted(id: string): string {
  return id === '' ? '""' : id;
}

/** `turn T (thread H)`, for messages (the caller escapes the whole message). */
export function describeTurn(thread: string, turn: string): string {
  return `turn ${quoted(turn)} (thread ${quoted(thread)})`;
}

/** What a turn_completed carries (no cache counts). */
const COMPLETED_FIELDS: readonly TokenField[] = ['input_tokens', 'output_tokens'];

const FIELDS = TOKEN_FIELDS;
/** Zero counts, only ever read (a unit copies its counts field by field). */
const NO_TOKENS: Readonly<Tokens> = zeroTokens();

/** No decrease (shared, never changed). */
const NONE: string[] = [];

/** The fields that went down from `before` to `after`, as `name a -> b`. */
function decreases(before: Tokens, after: Tokens): string[] {
  // The usual case (counts only grow), without a list.
  if (
    after.input_tokens >= before.input_tokens &&
    after.cache_creation_tokens >= before.cache_creation_tokens &&
    after.cache_read_tokens >= before.cache_read_tokens &&
    after.output_tokens >= before.output_tokens
  ) {
    return NONE;
  }
  const down: string[] = [];
  for (const f of FIELDS) if (after[f] < before[f]) down.push(`${f} ${before[f]} -> ${after[f]}`);
  return down;
}

/**
 * Reads one input stream (one file, or stdin) and turns it into units. A
 * run's units get their run_id when its `result` arrives; a run that never
 * has one is closed at the end of the input.
 */
export class UsageScanner {
  private sessionModel = '';
  private sessionProvider = '';
  private threadRoutes = new Map<string, { provider: string; model: string }>();
  private threads = new RootThreads();
  private runTime: string | undefined;
  private turns = new Map<string, TurnState>();
  /** The entry of `turns` read last (turnFor); undefined once `turns` is emptied. */
  private lastTurn: TurnState | undefined;
  private agents = new Map<string, AgentState>();
  private childTurns = new Map<string, ChildTurn>();
  /** The entry of `childTurns` read last (usageUpdated); undefined once `childTurns` is emptied. */
  private lastChild: ChildTurn | undefined;
  private runSeen = false;
  private runLine = 0;
  private lastLine = 0;
  private readonly units: UsageUnit[] = [];
  private fileTimeCache: Dated | undefined;
  /** Called when a run's `result` is read (follow mode ends after it). */
  onResult: (() => void) | undefined;

  /**
   * @param file the input's name in messages and units
   * @param warn receives `FILE:LINE: warning: ...`
   * @param timeOfFile the time of a unit without timestamps (default: none)
   */
  constructor(
    readonly file: string,
    private readonly warn: Warn,
    private readonly timeOfFile: TimeOfFile = () => null,
  ) {}

  /** Provider and model of a thread: its thread_* event, else the session's; children use the root's. */
  private routeOf(thread: string): { provider: string; model: string } {
    const own = this.threadRoutes.get(thread);
    if (own !== undefined) return own;
    const root = this.threads.lastRootId();
    const rootRoute = root !== undefined ? this.threadRoutes.get(root) : undefined;
    return rootRoute ?? { provider: this.sessionProvider, model: this.sessionModel || 'unknown' };
  }

  private fallbackTime(): Dated {
    if (this.fileTimeCache === undefined) {
      const t = this.timeOfFile(this.file);
      this.fileTimeCache = t === null ? { time: null, source: null } : typeof t === 'string' ? { time: t, source: 'mtime' } : t;
    }
    return this.fileTimeCache;
  }

  /**
   * The time of a unit: its own timestamp, the run's, the run's session id
   * (root thread, else the result's run id), else the file's time.
   */
  private dated(own: string | undefined, runTime: string | undefined, session: string | undefined): Dated {
    const when = this.when;
    const stamp = own ?? runTime;
    if (stamp !== undefined) {
      when.time = stamp;
      when.source = 'timestamp';
    } else if (session !== undefined) {
      when.time = session;
      when.source = 'session_id';
    } else {
      const file = this.fallbackTime();
      when.time = file.time;
      when.source = file.source;
    }
    return when;
  }

  /** What {@link dated} answers, reused: it is read into the unit at once (a unit is built field by field, without spreading a fresh object). */
  private readonly when: Dated = { time: null, source: null };

  private turnFor(thread: string, turn: string, line: number, event: Record<string, unknown>): TurnState {
    // A turn's events come together (its snapshots, then its end): the turn
    // of the last event, compared by its ids, spares building and hashing a key.
    const last = this.lastTurn;
    if (last !== undefined && last.turn === turn && last.thread === thread) {
      last.time ??= eventTime(event);
      return last;
    }
    const key = turnKey(thread, turn);
    let state = this.turns.get(key);
    if (state === undefined) {
      const route = this.routeOf(thread);
      state = { thread, turn, line, provider: route.provider, model: route.model, time: undefined, snap: undefined, snapLine: 0, completed: undefined, end: null, provisional: false };
      this.turns.set(key, state);
    }
    state.time ??= eventTime(event);
    this.lastTurn = state;
    return state;
  }

  /** Counts of an event, or undefined after warning that they are odd (the event is then not counted). */
  private tokens(type: string, event: Record<string, unknown>, raw: Buffer | undefined, line: number, fields: readonly TokenField[] = FIELDS): Tokens | undefined {
    // The line's bytes are cut out of its chunk only for the general rule (a count beyond 2^53 is read from its digits).
    const t = plainTokens(event, fields) ?? readTokensField(event, raw ?? this.spanSource?.subarray(this.spanStart, this.spanEnd), fields);
    if (!Array.isArray(t)) return t;
    this.warn(`${this.file}:${line}: warning: ${type}: ${t.join(', ')}; this event is not counted`);
    return undefined;
  }

  /** A line of a type wuu-usage does not read: it still belongs to the run. */
  seen(line: number): void {
    if (!this.runSeen) this.runLine = line;
    this.runSeen = true;
    this.lastLine = line;
  }

  /** The chunk and span of the line {@link pushSpan} is reading; undefined between lines (no chunk is kept past its line). */
  private spanSource: Buffer | undefined;
  private spanStart = 0;
  private spanEnd = 0;

  /**
   * {@link push} for a line at `start`..`end` of a chunk: its bytes are cut
   * out (a Buffer per line) only when a count needs its digits, not for
   * every line read.
   */
  pushSpan(type: string, event: Record<string, unknown>, line: number, source: Buffer, start: number, end: number): void {
    this.spanSource = source;
    this.spanStart = start;
    this.spanEnd = end;
    this.push(type, event, line);
    this.spanSource = undefined;
  }

  /**
   * Handles one event. Only the types in USAGE_TYPES are read; `raw` (the
   * line's bytes) lets counts beyond 2^53 be read exactly.
   */
  push(type: string, event: Record<string, unknown>, line: number, raw?: Buffer): void {
    if (!this.runSeen) this.runLine = line;
    this.runSeen = true;
    this.lastLine = line;
    const thread = str(event.thread_id);
    this.threads.observe(type, event.thread_id, event.agent_id);
    switch (type) {
      case 'session_configured':
        if (this.turns.size > 0 || this.agents.size > 0 || this.childTurns.size > 0) {
          this.warn(`${this.file}:${line}: warning: a new session starts before the previous run's result (killed run?); its usage is counted under run (no result)`);
          this.closeRun(null, null);
          this.threads.observe(type, event.thread_id, event.agent_id);
        }
        this.sessionModel = str(event.model);
        this.sessionProvider = str(event.provider);
        this.runTime = eventTime(event);
        return;
      case 'thread_started':
      case 'thread_resumed':
      case 'thread_forked':
        // The acquired thread's real route wins over session_configured (a resumed thread keeps its model).
        this.threadRoutes.set(thread, { provider: str(event.provider) || this.sessionProvider, model: str(event.model) || this.sessionModel || 'unknown' });
        this.runTime ??= eventTime(event);
        return;
      case 'turn_started': {
        const state = this.turnFor(thread, str(event.turn_id), line, event);
        state.provisional = false;
        return;
      }
      case 'usage_updated':
        this.usageUpdated(thread, event, line, raw);
        return;
      case 'turn_completed':
      case 'turn_failed':
      case 'turn_interrupted':
        this.turnEnd(type, thread, event, line, raw);
        return;
      case 'subagent_started':
      case 'subagent_updated':
      case 'subagent_completed':
        this.subagent(type, thread, event, line, raw);
        return;
      case 'result':
        // A result names the run's root thread (a stream that started mid-run learns it here).
        this.threads.observe('turn_started', event.thread_id);
        this.closeRun(str(event.run_id), str(event.status));
        this.onResult?.();
        return;
      default:
        return;
    }
  }

  private usageUpdated(thread: string, event: Record<string, unknown>, line: number, raw: Buffer | undefined): void {
    const snap = this.tokens('usage_updated', event, raw, line);
    if (snap === undefined) return;
    const turn = str(event.turn_id);
    if (!this.threads.isRoot(thread)) {
      // A sub-agent's own snapshot: its subagent_* report is what counts.
      // Its snapshots come together, like a turn's: the child turn of the
      // last one, compared by its ids, spares building and hashing a key.
      let child = this.lastChild;
      if (child === undefined || child.turn !== turn || child.thread !== thread) {
        const key = turnKey(thread, turn);
        child = this.childTurns.get(key);
        if (child === undefined) this.childTurns.set(key, (child = { thread, turn, line, time: eventTime(event), tokens: snap }));
        this.lastChild = child;
      }
      child.tokens = snap;
      return;
    }
    const state = this.turnFor(thread, turn, line, event);
    if (!this.threads.known) state.provisional = true;
    if (state.snap !== undefined) {
      const down = decreases(state.snap, snap);
      if (down.length > 0) {
        this.warn(`${this.file}:${line}: warning: usage_updated of ${describeTurn(thread, turn)} goes down (${down.join(', ')}): a reset? the last snapshot counts`);
      }
    }
    if (state.end !== null) this.warn(`${this.file}:${line}: warning: usage_updated of ${describeTurn(thread, turn)} after the turn ended; the last snapshot counts`);
    state.snap = snap;
    state.snapLine = line;
  }

  private turnEnd(type: string, thread: string, event: Record<string, unknown>, line: number, raw: Buffer | undefined): void {
    // A child thread's turn end is its subagent's business, not the main agent's (trap 3).
    if (!this.threads.isRoot(thread)) return;
    const turn = str(event.turn_id);
    // An exec-side end with empty ids (timeout before any turn) names no turn.
    if (turn === '' && !this.turns.has(turnKey(thread, turn))) return;
    const state = this.turnFor(thread, turn, line, event);
    if (!this.threads.known && thread !== '') state.provisional = true;
    state.end = END_OF[type] ?? type;
    if (type !== 'turn_completed') return;
    const done = this.tokens(type, event, raw, line, COMPLETED_FIELDS);
    if (done === undefined) return;
    state.completed = done;
    const snap = state.snap;
    if (snap !== undefined && (snap.input_tokens !== done.input_tokens || snap.output_tokens !== done.output_tokens)) {
      this.warn(
        `${this.file}:${line}: warning: turn_completed of ${describeTurn(thread, turn)} says input ${done.input_tokens} output ${done.output_tokens}, ` +
          `the last usage_updated says input ${snap.input_tokens} output ${snap.output_tokens}; usage_updated counts`,
      );
    }
  }

  private subagent(type: string, thread: string, event: Record<string, unknown>, line: number, raw: Buffer | undefined): void {
    const agent = str(event.agent_id);
    // An agent without id cannot be told apart from others: its own line is its identity.
    const key = agent === '' ? `@${line}` : agent;
    let state = this.agents.get(key);
    if (state === undefined) {
      state = { thread, agent, line, time: undefined, type: '', status: '', tokens: undefined, lastLine: line };
      this.agents.set(key, state);
    }
    state.time ??= eventTime(event);
    if (thread !== '') state.thread = thread;
    state.type = str(event.agent_type) || state.type;
    state.status = str(event.status) || state.status;
    const tokens = this.tokens(type, event, raw, line);
    if (tokens === undefined) return;
    if (state.tokens !== undefined) {
      const down = decreases(state.tokens, tokens);
      if (down.length > 0) {
        this.warn(`${this.file}:${line}: warning: subagent ${quoted(agent)} reports fewer tokens (${down.join(', ')}): a reset? the last report counts`);
      }
    }
    state.tokens = tokens;
    state.lastLine = line;
  }

  /** Turns the open run into units; `runId` null when it has no result. */
  private closeRun(runId: string | null, status: string | null): void {
    const runTime = this.runTime;
    const before = this.units.length;
    const root = this.threads.lastRootId() ?? '';
    const rootTime = sessionTime(root);
    const session = rootTime ?? sessionTime(runId);
    // A run's turns are mostly its root thread's: the date of the thread
    // before is kept (the root's to begin with), not worked out per turn.
    let timedThread = root;
    let threadTime = rootTime;
    for (const state of this.turns.values()) {
      if (state.provisional && this.threads.role(state.thread) === 'child') {
        // Seen before the root was known, and not the root after all: a sub-agent's own turn.
        if (state.snap !== undefined) this.childTurns.set(turnKey(state.thread, state.turn), { thread: state.thread, turn: state.turn, line: state.snapLine, time: state.time, tokens: state.snap });
        continue;
      }
      if (state.snap !== undefined && state.end === null) {
        this.warn(`${this.file}:${state.snapLine || state.line}: warning: ${describeTurn(state.thread, state.turn)} has usage but never ended (no turn_completed, turn_failed or turn_interrupted)`);
      }
      let tokens = NO_TOKENS;
      let source: TurnUnit['source'] = 'none';
      if (state.snap !== undefined) {
        tokens = state.snap;
        source = 'usage_updated';
      } else if (state.completed !== undefined) {
        tokens = state.completed;
        source = 'turn_completed';
      }
      // A turn provisional when read takes the route its thread turned out to have.
      const route = state.provisional ? this.routeOf(state.thread) : state;
      if (state.thread !== timedThread) {
        timedThread = state.thread;
        threadTime = sessionTime(timedThread);
      }
      const when = this.dated(state.time, runTime, threadTime ?? session);
      this.units.push({
        kind: 'turn',
        file: this.file,
        line: state.line,
        thread_id: state.thread,
        turn_id: state.turn,
        run_id: runId,
        run_status: status,
        provider: route.provider,
        model: route.model,
        time: when.time,
        date_source: when.source,
        end: state.end,
        source,
        input_tokens: tokens.input_tokens,
        cache_creation_tokens: tokens.cache_creation_tokens,
        cache_read_tokens: tokens.cache_read_tokens,
        output_tokens: tokens.output_tokens,
      });
    }
    this.closeAgents(runId, status, runTime, session);
    if (this.units.length === before) {
      // A run without any usage (a setup failure, a busy thread) still is a run: a zero row.
      const route = this.routeOf(root);
      const when = this.dated(undefined, runTime, session);
      this.units.push({
        kind: 'run',
        file: this.file,
        line: this.runLine,
        thread_id: root,
        run_id: runId,
        run_status: status,
        provider: route.provider,
        model: route.model,
        time: when.time,
        date_source: when.source,
        input_tokens: 0n,
        cache_creation_tokens: 0n,
        cache_read_tokens: 0n,
        output_tokens: 0n,
      });
    }
    // Emptied, not replaced: nothing outside holds them, and a run closes thousands of times in a fleet's stream.
    this.turns.clear();
    this.lastTurn = undefined;
    this.agents.clear();
    this.childTurns.clear();
    this.lastChild = undefined;
    this.threadRoutes.clear();
    this.threads.reset();
    this.runSeen = false;
    this.runTime = undefined;
  }

  private closeAgents(runId: string | null, status: string | null, runTime: string | undefined, session: string | undefined): void {
    if (this.agents.size === 0 && this.childTurns.size === 0) return;
    // Child threads with snapshots but no subagent report: their snapshots are all there is.
    const unreported = new Map<string, { line: number; time: string | undefined; tokens: Tokens }>();
    for (const child of this.childTurns.values()) {
      if (this.agents.get(child.thread)?.tokens !== undefined) continue;
      const sum = unreported.get(child.thread);
      if (sum === undefined) unreported.set(child.thread, { line: child.line, time: child.time, tokens: { ...child.tokens } });
      else addTokens(sum.tokens, child.tokens);
    }
    const route = this.routeOf('');
    const unit = (state: { agent: string; thread: string; line: number; time: string | undefined; type: string; status: string }, tokens: Tokens, source: AgentUnit['source']): AgentUnit => {
      const when = this.dated(state.time, runTime, session);
      return {
        kind: 'agent',
        file: this.file,
        line: state.line,
        thread_id: state.thread,
        agent_id: state.agent,
        agent_type: state.type,
        agent_status: state.status,
        run_id: runId,
        run_status: status,
        provider: route.provider,
        model: route.model,
        time: when.time,
        date_source: when.source,
        source,
        input_tokens: tokens.input_tokens,
        cache_creation_tokens: tokens.cache_creation_tokens,
        cache_read_tokens: tokens.cache_read_tokens,
        output_tokens: tokens.output_tokens,
      };
    };
    for (const state of this.agents.values()) {
      const child = unreported.get(state.agent);
      if (state.tokens === undefined && child !== undefined) {
        unreported.delete(state.agent);
        this.units.push(unit(state, child.tokens, 'child_thread'));
      } else {
        this.units.push(unit(state, state.tokens ?? NO_TOKENS, 'report'));
      }
    }
    const root = this.threads.lastRootId() ?? '';
    for (const [agent, child] of unreported) {
      if (promptOf(child.tokens) === 0n && child.tokens.output_tokens === 0n) continue;
      this.units.push(unit({ agent, thread: root, line: child.line, time: child.time, type: '', status: '' }, child.tokens, 'child_thread'));
    }
  }

  /**
   * End of the input: a run still open had no result. `interrupted` (a
   * signal stopped the reading) is not the producer's fault: no warning.
   * Returns the units, in stream order.
   */
  finish(interrupted = false): UsageUnit[] {
    if (this.runSeen || this.turns.size > 0 || this.agents.size > 0 || this.childTurns.size > 0) {
      if (!interrupted) {
        this.warn(`${this.file}: warning: no result event after line ${this.lastLine}: the run was cut short (killed?); its usage is counted under run (no result)`);
      }
      this.closeRun(null, null);
    }
    return this.units;
  }
}
