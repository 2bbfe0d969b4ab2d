/**
 * One producer-faithful stream per behaviour of WIRE-FORMAT-REFERENCE.md
 * sections 2-11, each with its EXPECTED results written down by hand next to
 * it (never computed by the tools or by the generator's state): the root
 * turns (status, message, tool calls with bash once, usage in the exclusive
 * convention), the child threads' turns, the run's root usage, sub-agent
 * usage (last report per agent), the result and wuu-result's exit status,
 * and what wuu-check must say (nothing, or only warnings, on these streams).
 *
 * Import {@link SCENARIOS} from any test: `scenario.text` is the stream.
 */
import { args, Producer, type Tokens } from './producer.js';

/** Usage in the producer's convention: `input` excludes the cache parts; prompt = input + cache_creation + cache_read. */
export interface Usage {
  input: number;
  cache_creation: number;
  cache_read: number;
  output: number;
}

/** One turn as every tool must see it. */
export interface ExpectedTurn {
  thread_id: string;
  turn_id: string;
  status: 'completed' | 'failed' | 'interrupted' | 'incomplete';
  /** The turn's message: deltas concatenated without separators, replaced by agent_message_final; null without any. */
  message: string | null;
  /** Tool calls in completion order (then the unfinished ones): [item_id, name, status]; bash once; removed items absent. */
  tools: [string, string, string][];
  /** The turn's last usage_updated snapshot, or null when the turn had none. */
  usage: Usage | null;
}

/** What every tool must get right on a scenario. */
export interface Expected {
  /** Turns of the root thread (the main agent). */
  turns: ExpectedTurn[];
  /** Turns of sub-agent threads (thread_id = agent id), seen through their own events: never the root's. */
  childTurns: ExpectedTurn[];
  /** The main agent's usage: sum over root turns of their last snapshot (sub-agents apart). */
  run: Usage;
  /** Last subagent_* report per agent_id. */
  subagents: Record<string, Usage>;
  result: {
    /** How many result lines (2 in the race of section 10). */
    count: number;
    /** status of the last result, or null when there is none. */
    status: string | null;
    /** final_message of the last result (null without a result). */
    finalMessage: string | null;
    /** error of the last result, when present. */
    error?: string;
    /** wuu-result's exit status: 0 completed, 3 failed, 4 permission_denied, 5 timeout, 6 interrupted, 7 no result. */
    exit: number;
  };
  /** wuu-check rules reported: no errors on a legitimate stream; warnings where a user wants to know. */
  check: { errors: string[]; warnings: string[] };
  /** The stream ends mid-line (no newline at the end). */
  cut?: boolean;
}

/** A named stream and what it must give. */
export interface Scenario {
  name: string;
  /** Which part of the reference it follows. */
  about: string;
  text: string;
  expected: Expected;
}

const U = (input: number, cache_creation: number, cache_read: number, output: number): Usage => ({ input, cache_creation, cache_read, output });
const T = (input: number, cacheWrite: number, cacheRead: number, output: number): Tokens => ({ input, cacheWrite, cacheRead, output });
const ZERO = U(0, 0, 0, 0);
const NO_CHECK = { errors: [], warnings: [] };
const ok = (finalMessage: string) => ({ count: 1, status: 'completed', finalMessage, exit: 0 });

function start(o: { provider?: string; model?: string; thread: string; type?: 'thread_started' | 'thread_resumed' | 'thread_forked'; turnNo?: number; mode?: string }): Producer {
  const p = new Producer();
  const provider = o.provider ?? 'anthropic';
  const model = o.model ?? 'claude-sonnet-4-5';
  p.sessionConfigured({ provider, model, effort: provider === 'openai' ? 'medium' : '', mode: o.mode });
  p.thread(o.type ?? 'thread_started', { id: o.thread, provider, model, turnNo: o.turnNo });
  return p;
}

const scenarios: Array<() => Scenario> = [];
const add = (f: () => Scenario) => scenarios.push(f);

// --- plain: one turn, a bash call with both twins, a read, two usage snapshots, a final ---
add(() => {
  const p = start({ thread: '20261202-231501-7f3a' });
  const t = '20261202-231501-7f3a-turn-0001';
  p.turnStarted().requestContext(0, { sections: [{ key: 'base', static: true, bytes: 8120, hash: 'sha256:9a0e' }, { key: 'env', static: false, bytes: 402 }] });
  p.providerState(0, { provider: 'anthropic', transport: 'sse' });
  p.messageItem().deltas("I'll run ", 'the tests first.');
  p.tool({ name: 'bash', args: args({ command: 'npm test 2>&1 | tail -n 3' }), output: ['> shop@1.0.0 test\nTests: 41 passed, 1 failed\nExit code 1\n'] });
  p.usage(T(1200, 4096, 0, 80));
  p.tool({ name: 'read_file', args: args({ path: 'src/cart.js' }), output: ['{"content":"export function total(items) {\\n  return items.length - 1;\\n}\\n","path":"src/cart.js"}'] });
  p.usage(T(2300, 4096, 4096, 210));
  p.messageItem().final('The cart total drops the last item: `items.length - 1`.');
  p.turnCompleted({ input: 2300, output: 210 });
  p.result('completed');
  return {
    name: 'plain',
    about: 'section 2 typical order; 5 bash twins; 7 last snapshot per turn',
    text: p.text(),
    expected: {
      turns: [{ thread_id: '20261202-231501-7f3a', turn_id: t, status: 'completed', message: 'The cart total drops the last item: `items.length - 1`.', tools: [[`${t}-item-3`, 'bash', 'completed'], [`${t}-item-5`, 'read_file', 'completed']], usage: U(2300, 4096, 4096, 210) }],
      childTurns: [],
      run: U(2300, 4096, 4096, 210),
      subagents: {},
      result: ok('The cart total drops the last item: `items.length - 1`.'),
      check: NO_CHECK,
    },
  };
});

// --- multi-turn: automatic continuation after a background process ---
add(() => {
  const p = start({ provider: 'openai', model: 'gpt-5', thread: 'th_5d1c02' });
  p.turnStarted().messageItem().deltas('Starting the dev server ', 'in the background.');
  p.tool({ name: 'bash', args: args({ command: 'npm run dev', run_in_background: true }), output: ['Running in background as process 4242\n'] });
  p.usage(T(900, 0, 0, 60)).turnCompleted({ input: 900, output: 60, auto: true });
  p.turnStarted().messageItem().deltas('The server exited: ', 'port 3000 was in use.');
  p.usage(T(400, 0, 1024, 20)).usage(T(1500, 0, 1024, 45)).turnCompleted({ input: 1500, output: 45 });
  p.result('completed');
  return {
    name: 'multi-turn',
    about: 'section 2: one Run, several turns; awaiting_auto_continuation; result.final_message = last turn',
    text: p.text(),
    expected: {
      turns: [
        { thread_id: 'th_5d1c02', turn_id: 'th_5d1c02-turn-0001', status: 'completed', message: 'Starting the dev server in the background.', tools: [['th_5d1c02-turn-0001-item-3', 'bash', 'completed']], usage: U(900, 0, 0, 60) },
        { thread_id: 'th_5d1c02', turn_id: 'th_5d1c02-turn-0002', status: 'completed', message: 'The server exited: port 3000 was in use.', tools: [], usage: U(1500, 0, 1024, 45) },
      ],
      childTurns: [],
      run: U(2400, 0, 1024, 105),
      subagents: {},
      result: ok('The server exited: port 3000 was in use.'),
      check: NO_CHECK,
    },
  };
});

// --- subagents: child threads write their own turn ends, usage and tools ---
add(() => {
  const root = '20261202-232210-c4d5';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Delegating to two agents.');
  p.usage(T(2000, 3000, 0, 150));
  const a = { id: 'agent-7e21', agentType: 'explorer', task: 'find-callers', description: 'Find every caller of total()' };
  const b = { id: 'agent-9b04', agentType: 'worker', task: 'run-tests', description: 'Run the cart tests' };
  p.subagent('subagent_started', { ...a, status: 'running' });
  p.subagent('subagent_started', { ...b, status: 'running' });
  const ca = { thread: 'agent-7e21', turn: 'agent-7e21-turn-0001' };
  p.usage(T(300, 1000, 0, 12), ca);
  const ia = p.toolStarted({ name: 'grep', args: args({ pattern: 'total(' }), ...ca }, 'agent-7e21-turn-0001-item-2');
  p.toolOutput({ name: 'grep', args: '', ...ca }, ia, 'src/cart.js:4\nsrc/checkout.js:18\nsrc/api.js:7\n');
  p.toolCompleted({ name: 'grep', args: '', ...ca }, ia);
  p.usage(T(300, 1000, 0, 40), ca);
  p.turnCompleted({ input: 300, output: 40, ...ca });
  p.subagent('subagent_updated', { ...a, status: 'running', tokens: T(300, 1000, 0, 40) });
  p.subagent('subagent_completed', { ...a, status: 'completed', tokens: T(300, 1000, 0, 40), result: 'Found 3 callers.' });
  const cb = { thread: 'agent-9b04', turn: 'agent-9b04-turn-0001' };
  const ib = p.toolStarted({ name: 'bash', args: args({ command: 'npm test -- cart' }), ...cb }, 'agent-9b04-turn-0001-item-2');
  p.toolOutput({ name: 'bash', args: args({ command: 'npm test -- cart' }), ...cb }, ib, 'Tests: 3 failed\nExit code 1\n');
  p.toolCompleted({ name: 'bash', args: args({ command: 'npm test -- cart' }), ...cb }, ib);
  p.usage(T(500, 0, 2000, 90), cb);
  p.turnFailed('anthropic: 529 overloaded_error: Overloaded', cb);
  p.subagent('subagent_completed', { ...b, status: 'failed', tokens: T(500, 0, 2000, 90), error: 'anthropic: 529 overloaded_error: Overloaded' });
  p.usage(T(3500, 3000, 3000, 320));
  p.messageItem().deltas(' Both agents ', 'reported back.');
  p.turnCompleted({ input: 3500, output: 320 });
  p.result('completed');
  const t = `${root}-turn-0001`;
  return {
    name: 'subagents',
    about: 'trap 3 / section 2 table: child-thread turn_completed, turn_failed, usage_updated, tool_*, command_*; 7 sub-agent usage apart',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: t, status: 'completed', message: 'Delegating to two agents. Both agents reported back.', tools: [], usage: U(3500, 3000, 3000, 320) }],
      childTurns: [
        { thread_id: 'agent-7e21', turn_id: 'agent-7e21-turn-0001', status: 'completed', message: null, tools: [['agent-7e21-turn-0001-item-2', 'grep', 'completed']], usage: U(300, 1000, 0, 40) },
        { thread_id: 'agent-9b04', turn_id: 'agent-9b04-turn-0001', status: 'failed', message: null, tools: [['agent-9b04-turn-0001-item-2', 'bash', 'completed']], usage: U(500, 0, 2000, 90) },
      ],
      run: U(3500, 3000, 3000, 320),
      subagents: { 'agent-7e21': U(300, 1000, 0, 40), 'agent-9b04': U(500, 0, 2000, 90) },
      result: ok('Delegating to two agents. Both agents reported back.'),
      check: NO_CHECK,
    },
  };
});

// --- subagent-first-completed: the first event of an agent is terminal; terminal duplicates ---
add(() => {
  const root = 'th_e0aa41';
  const p = start({ thread: root, provider: 'openai', model: 'gpt-4.1' });
  p.turnStarted().messageItem().deltas('Quick check done by a helper.');
  const x = { id: 'agent-01', agentType: 'explorer', task: 'lookup' };
  p.subagent('subagent_completed', { ...x, status: 'completed', tokens: T(120, 0, 0, 30), result: 'ok' });
  p.subagent('subagent_completed', { ...x, status: 'completed', tokens: T(120, 0, 0, 30), result: 'ok' });
  const y = { id: 'agent-02', agentType: 'worker', task: 'long-report' };
  p.subagent('subagent_started', { ...y, status: 'pending' });
  p.subagent('subagent_updated', { ...y, status: 'running', tokens: T(200, 0, 100, 10) });
  p.subagent('subagent_completed', { ...y, status: 'cancelled', tokens: T(250, 0, 100, 15), result: 'partial report', resultBytes: 48211, resultPath: '/home/alice/.wuu/agents/agent-02/result.md', resultTruncated: true });
  p.subagent('subagent_completed', { ...y, status: 'cancelled', tokens: T(250, 0, 100, 15), result: 'partial report', resultBytes: 48211, resultPath: '/home/alice/.wuu/agents/agent-02/result.md', resultTruncated: true });
  p.subagent('subagent_updated', { ...y, status: 'running', tokens: T(250, 0, 100, 15) });
  p.usage(T(800, 0, 0, 50)).turnCompleted({ input: 800, output: 50 });
  p.result('completed');
  return {
    name: 'subagent-first-completed',
    about: 'section 4 subagent_*: first event already subagent_completed, terminal duplicates, an update after completion; tokens cumulative per agent',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Quick check done by a helper.', tools: [], usage: U(800, 0, 0, 50) }],
      childTurns: [],
      run: U(800, 0, 0, 50),
      subagents: { 'agent-01': U(120, 0, 0, 30), 'agent-02': U(250, 0, 100, 15) },
      result: ok('Quick check done by a helper.'),
      check: NO_CHECK,
    },
  };
});

// --- bash-twins: both twins, a missing output twin, "" arguments on completion, unredacted completion, removal ---
add(() => {
  const root = 'th_b45h00';
  const p = start({ thread: root, provider: 'openai', model: 'gpt-4.1' });
  p.turnStarted().messageItem().deltas('Checked the tree.');
  const i1 = p.tool({ name: 'bash', args: args({ command: 'git status --short' }), output: [' M src/cart.js\n'] });
  const i2 = p.tool({ name: 'bash', args: args({ command: 'ls src' }), output: ['cart.js\nindex.js\n'], noOutputTwins: true });
  const i3 = p.tool({ name: 'bash', args: args({ command: 'make lint' }), completedArgs: '', output: ['(no output)\n'] });
  const i4 = p.tool({
    name: 'bash',
    args: args({ command: 'TOKEN=[REDACTED] ./deploy.sh --dry-run' }),
    completedArgs: args({ command: 'TOKEN=ghx_9f8e7d6c5b4a3210 ./deploy.sh --dry-run' }),
    output: ['dry run: 3 files would change\n'],
  });
  const i5 = p.toolStarted({ name: 'bash', args: args({ command: 'sleep 100' }) });
  p.removed(i5, { bash: true });
  p.usage(T(3000, 0, 0, 200)).turnCompleted({ input: 3000, output: 200 });
  p.result('completed');
  return {
    name: 'bash-twins',
    about: 'trap 4 / section 5: command_* twins, a missing command_output_delta, command_completed with "" arguments (no command key) and unredacted arguments, command_removed with only name',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Checked the tree.', tools: [[i1, 'bash', 'completed'], [i2, 'bash', 'completed'], [i3, 'bash', 'completed'], [i4, 'bash', 'completed']], usage: U(3000, 0, 0, 200) }],
      childTurns: [],
      run: U(3000, 0, 0, 200),
      subagents: {},
      result: ok('Checked the tree.'),
      check: NO_CHECK,
    },
  };
});

// --- tool-removed-unknown: item/removed for a reconnect row that never started ---
add(() => {
  const root = 'th_rc0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Reading the config.');
  const t = `${root}-turn-0001`;
  p.removed(`${t}-item-2`);
  const i = p.tool({ name: 'read_file', args: args({ path: 'config.json' }), output: ['{"content":"{}","path":"config.json"}'], gap: 2 });
  p.usage(T(640, 0, 0, 22)).turnCompleted({ input: 640, output: 22 });
  p.result('completed');
  return {
    name: 'tool-removed-unknown',
    about: 'trap 6: tool_removed names an item that never had a tool_started',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: t, status: 'completed', message: 'Reading the config.', tools: [[i, 'read_file', 'completed']], usage: U(640, 0, 0, 22) }],
      childTurns: [],
      run: U(640, 0, 0, 22),
      subagents: {},
      result: ok('Reading the config.'),
      check: NO_CHECK,
    },
  };
});

// --- partial-arguments: arguments "" and cut JSON text ---
add(() => {
  const root = 'th_pa0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Writing the file.');
  const i1 = p.tool({ name: 'write_file', args: '{"path":"partial', output: ['{"action":"create","new_file_sha":"sha256:4f2a","path":"notes.md"}'], files: [{ action: 'create', new_file_sha: 'sha256:4f2a', path: 'notes.md' }] });
  const i2 = p.tool({ name: 'glob', args: '', output: ['notes.md\n'] });
  p.usage(T(700, 0, 0, 33)).turnCompleted({ input: 700, output: 33 });
  p.result('completed');
  return {
    name: 'partial-arguments',
    about: 'trap 5 / section 4 tool_started: arguments "" or partial JSON ({"path":"partial)',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Writing the file.', tools: [[i1, 'write_file', 'completed'], [i2, 'glob', 'completed']], usage: U(700, 0, 0, 33) }],
      childTurns: [],
      run: U(700, 0, 0, 33),
      subagents: {},
      result: ok('Writing the file.'),
      check: NO_CHECK,
    },
  };
});

// --- many-output-deltas: a tool whose output arrives in many pieces ---
add(() => {
  const root = 'th_md0001';
  const p = start({ thread: root, provider: 'openai', model: 'gpt-5' });
  p.turnStarted().messageItem().deltas('Watching the build.');
  const call = { name: 'bash', args: args({ command: 'npm run build' }) };
  const i = p.toolStarted(call);
  for (let n = 1; n <= 40; n++) p.toolOutput(call, i, `step ${n}/40\n`);
  p.toolCompleted(call, i);
  p.usage(T(5000, 0, 0, 80)).turnCompleted({ input: 5000, output: 80 });
  p.result('completed');
  return {
    name: 'many-output-deltas',
    about: 'trap 7: consumers must still handle many tool_output_delta lines (and their twins)',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Watching the build.', tools: [[i, 'bash', 'completed']], usage: U(5000, 0, 0, 80) }],
      childTurns: [],
      run: U(5000, 0, 0, 80),
      subagents: {},
      result: ok('Watching the build.'),
      check: NO_CHECK,
    },
  };
});

// --- final-replaces: agent_message_final replaces the deltas; result carries turn/completed content ---
add(() => {
  const root = 'th_fr0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Draft: 41 ', 'tests pass.');
  p.final('All 42 tests pass.');
  p.usage(T(1000, 0, 2000, 40)).turnCompleted({ input: 1000, output: 40, content: 'All 42 tests pass.\n\nNothing else changed.' });
  p.result('completed');
  return {
    name: 'final-replaces',
    about: 'trap 8: agent_message_final replaces the text; result.final_message from turn/completed content differs from the stream',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'All 42 tests pass.', tools: [], usage: U(1000, 0, 2000, 40) }],
      childTurns: [],
      run: U(1000, 0, 2000, 40),
      subagents: {},
      result: ok('All 42 tests pass.\n\nNothing else changed.'),
      check: NO_CHECK,
    },
  };
});

// --- multi-message: deltas of several assistant messages concatenate without separators ---
add(() => {
  const root = 'th_mm0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Let me look.');
  const i1 = p.tool({ name: 'read_file', args: args({ path: 'a.txt' }), output: ['{"content":"a","path":"a.txt"}'] });
  p.messageItem().deltas('Found it. ', 'Fixing now.');
  const i2 = p.tool({ name: 'edit_file', args: args({ path: 'a.txt', old: 'a', new: 'b' }), output: ['{"action":"edit","new_file_sha":"sha256:bb","old_file_sha":"sha256:aa","path":"a.txt"}'], files: [{ action: 'edit', new_file_sha: 'sha256:bb', old_file_sha: 'sha256:aa', path: 'a.txt' }] });
  p.messageItem().deltas('Done.');
  p.usage(T(2100, 0, 0, 90)).turnCompleted({ input: 2100, output: 90 });
  p.result('completed');
  return {
    name: 'multi-message',
    about: 'section 4 agent_message_delta: all deltas of a turn join into one buffer across messages, no separators',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Let me look.Found it. Fixing now.Done.', tools: [[i1, 'read_file', 'completed'], [i2, 'edit_file', 'completed']], usage: U(2100, 0, 0, 90) }],
      childTurns: [],
      run: U(2100, 0, 0, 90),
      subagents: {},
      result: ok('Let me look.Found it. Fixing now.Done.'),
      check: NO_CHECK,
    },
  };
});

// --- structured-ok: --output-schema, structured_result with sorted keys and Go floats ---
add(() => {
  const root = 'th_so0001';
  const p = start({ thread: root, provider: 'openai', model: 'gpt-5' });
  const json = '{"ok": true, "files": ["src/cart.js"], "score": 0.75, "big": 1e21, "tiny": 1e-7, "note": "a <b> & c"}';
  p.turnStarted().messageItem().deltas(json.slice(0, 20), json.slice(20));
  p.usage(T(1800, 0, 0, 60)).turnCompleted({ input: 1800, output: 60 });
  p.result('completed', { structured: { ok: true, files: ['src/cart.js'], score: 0.75, big: 1e21, tiny: 1e-7, note: 'a <b> & c' } });
  return {
    name: 'structured-ok',
    about: 'section 8: structured_result on completed (sorted keys, 1e+21, 1e-7, escaped <>&)',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: json, tools: [], usage: U(1800, 0, 0, 60) }],
      childTurns: [],
      run: U(1800, 0, 0, 60),
      subagents: {},
      result: ok(json),
      check: NO_CHECK,
    },
  };
});

// --- structured-mismatch: the error line, then result failed with the same error ---
add(() => {
  const root = 'th_sm0001';
  const p = start({ thread: root, provider: 'openai', model: 'gpt-5' });
  p.turnStarted().messageItem().deltas('Done, I fixed it.');
  p.usage(T(1700, 0, 0, 12)).turnCompleted({ input: 1700, output: 12 });
  const error = "final answer is not valid JSON: invalid character 'D' looking for beginning of value";
  p.errorLine(error).result('failed', { error });
  return {
    name: 'structured-mismatch',
    about: 'section 8: error (retrying false) then result failed, exit 1 upstream',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Done, I fixed it.', tools: [], usage: U(1700, 0, 0, 12) }],
      childTurns: [],
      run: U(1700, 0, 0, 12),
      subagents: {},
      result: { count: 1, status: 'failed', finalMessage: 'Done, I fixed it.', error, exit: 3 },
      check: NO_CHECK,
    },
  };
});

// --- timeout-exec: exec's own deadline: turn_interrupted(timeout) for the current turn, then result ---
add(() => {
  const root = 'th_to0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Running the full suite.');
  const i = p.toolStarted({ name: 'bash', args: args({ command: 'npm run test:e2e' }) });
  p.usage(T(1000, 0, 0, 30));
  p.turnInterrupted('timeout').result('timeout', { error: 'timeout' });
  return {
    name: 'timeout-exec',
    about: 'trap 9 / section 10: exec-side timeout writes turn_interrupted reason timeout, then result timeout with error',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'interrupted', message: 'Running the full suite.', tools: [[i, 'bash', 'incomplete']], usage: U(1000, 0, 0, 30) }],
      childTurns: [],
      run: U(1000, 0, 0, 30),
      subagents: {},
      result: { count: 1, status: 'timeout', finalMessage: 'Running the full suite.', error: 'timeout', exit: 5 },
      check: NO_CHECK,
    },
  };
});

// --- timeout-empty-ids: the deadline passed before any thread or turn existed ---
add(() => {
  const p = new Producer();
  p.sessionConfigured({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
  p.turnInterrupted('timeout', { thread: '', turn: '' });
  p.result('timeout', { error: 'timeout', trace: '' });
  return {
    name: 'timeout-empty-ids',
    about: 'section 4 turn_interrupted source 2: exec-side end with thread_id and turn_id ""',
    text: p.text(),
    expected: {
      turns: [],
      childTurns: [],
      run: ZERO,
      subagents: {},
      result: { count: 1, status: 'timeout', finalMessage: '', error: 'timeout', exit: 5 },
      check: NO_CHECK,
    },
  };
});

// --- timeout-unstarted-turn: exec names the Run's next turn, which never started ---
add(() => {
  const root = 'th_tu0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Started the watcher.');
  p.usage(T(650, 0, 0, 25)).turnCompleted({ input: 650, output: 25, auto: true });
  const next = p.nextTurnId();
  p.turnInterrupted('timeout', { turn: next });
  p.result('timeout', { error: 'timeout', turn: next });
  return {
    name: 'timeout-unstarted-turn',
    about: 'section 4 turn_interrupted: ids of a root turn that never had turn_started (possible per the reference)',
    text: p.text(),
    expected: {
      turns: [
        { thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Started the watcher.', tools: [], usage: U(650, 0, 0, 25) },
        { thread_id: root, turn_id: `${root}-turn-0002`, status: 'interrupted', message: null, tools: [], usage: null },
      ],
      childTurns: [],
      run: U(650, 0, 0, 25),
      subagents: {},
      result: { count: 1, status: 'timeout', finalMessage: 'Started the watcher.', error: 'timeout', exit: 5 },
      check: NO_CHECK,
    },
  };
});

// --- timeout-server: the app-server settles first: only result ---
add(() => {
  const root = 'th_ts0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Still thinking');
  p.usage(T(700, 0, 0, 20));
  p.result('timeout', { error: 'execution run timed out' });
  return {
    name: 'timeout-server',
    about: 'section 10: run/updated timed_out settles first, exec writes only result',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'incomplete', message: 'Still thinking', tools: [], usage: U(700, 0, 0, 20) }],
      childTurns: [],
      run: U(700, 0, 0, 20),
      subagents: {},
      result: { count: 1, status: 'timeout', finalMessage: 'Still thinking', error: 'execution run timed out', exit: 5 },
      check: NO_CHECK,
    },
  };
});

// --- interrupted: SIGINT ---
add(() => {
  const root = 'th_in0001';
  const p = start({ thread: root, provider: 'openai', model: 'gpt-5' });
  p.turnStarted().messageItem().deltas('Refactoring ');
  const i = p.tool({ name: 'read_file', args: args({ path: 'src/index.js' }), output: ['{"content":"","path":"src/index.js"}'] });
  p.usage(T(1100, 0, 512, 64));
  p.turnInterrupted('interrupted').result('interrupted', { error: 'interrupted' });
  return {
    name: 'interrupted',
    about: 'section 10: SIGINT writes turn_interrupted reason interrupted and result interrupted with error',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'interrupted', message: 'Refactoring ', tools: [[i, 'read_file', 'completed']], usage: U(1100, 0, 512, 64) }],
      childTurns: [],
      run: U(1100, 0, 512, 64),
      subagents: {},
      result: { count: 1, status: 'interrupted', finalMessage: 'Refactoring ', error: 'interrupted', exit: 6 },
      check: NO_CHECK,
    },
  };
});

// --- two-results: settlement and exec's own deadline race ---
add(() => {
  const root = 'th_2r0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Almost there');
  p.usage(T(600, 0, 0, 25));
  p.result('timeout', { error: 'execution run timed out' });
  p.turnInterrupted('timeout').result('timeout', { error: 'timeout' });
  return {
    name: 'two-results',
    about: 'section 10 rare race: two result lines (the exit code follows the second)',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'incomplete', message: 'Almost there', tools: [], usage: U(600, 0, 0, 25) }],
      childTurns: [],
      run: U(600, 0, 0, 25),
      subagents: {},
      result: { count: 2, status: 'timeout', finalMessage: 'Almost there', error: 'timeout', exit: 5 },
      check: { errors: [], warnings: ['duplicate-result'] },
    },
  };
});

// --- protocol-failure: the notification stream closed (exit 6 upstream) ---
add(() => {
  const root = 'th_pf0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Reading');
  const i = p.toolStarted({ name: 'read_file', args: args({ path: 'big.log' }) });
  p.result('failed', { error: 'app-server notification stream closed before Run completed' });
  return {
    name: 'protocol-failure',
    about: 'section 10: stream closed, result failed with the error text',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'incomplete', message: 'Reading', tools: [[i, 'read_file', 'incomplete']], usage: null }],
      childTurns: [],
      run: ZERO,
      subagents: {},
      result: { count: 1, status: 'failed', finalMessage: 'Reading', error: 'app-server notification stream closed before Run completed', exit: 3 },
      check: NO_CHECK,
    },
  };
});

// --- setup-failure: initialize fails, one result line with every id "" ---
add(() => {
  const p = new Producer();
  p.result('failed', { error: 'initialize app-server: start app-server: exec: "wuu-app-server": executable file not found in $PATH', trace: '', finalMessage: '' });
  return {
    name: 'setup-failure',
    about: 'trap 10: exactly one line, result failed, ids ""',
    text: p.text(),
    expected: {
      turns: [],
      childTurns: [],
      run: ZERO,
      subagents: {},
      result: { count: 1, status: 'failed', finalMessage: '', error: 'initialize app-server: start app-server: exec: "wuu-app-server": executable file not found in $PATH', exit: 3 },
      check: NO_CHECK,
    },
  };
});

// --- busy-thread: resuming a thread that has a running turn (exit 9 upstream) ---
add(() => {
  const p = new Producer();
  p.sessionConfigured({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
  p.result('failed', { error: 'thread_busy: thread 20261202-231501-7f3a has a running turn', trace: '', finalMessage: '' });
  return {
    name: 'busy-thread',
    about: 'trap 10: session_configured then result failed',
    text: p.text(),
    expected: {
      turns: [],
      childTurns: [],
      run: ZERO,
      subagents: {},
      result: { count: 1, status: 'failed', finalMessage: '', error: 'thread_busy: thread 20261202-231501-7f3a has a running turn', exit: 3 },
      check: NO_CHECK,
    },
  };
});

// --- permission-denied ---
add(() => {
  const root = 'th_pd0001';
  const p = start({ thread: root, mode: 'read_only' });
  p.turnStarted().messageItem().deltas('Updating the lockfile.');
  const i = p.tool({ name: 'write_file', args: args({ path: 'package-lock.json' }), status: 'failed', error: 'permission denied: read_only mode forbids write_file' });
  p.usage(T(900, 0, 0, 41));
  p.turnFailed('permission denied: read_only mode forbids write_file');
  p.result('permission_denied', { error: 'permission denied: read_only mode forbids write_file' });
  return {
    name: 'permission-denied',
    about: 'section 9: permission_denied with result.error; a failed tool; root turn_failed',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'failed', message: 'Updating the lockfile.', tools: [[i, 'write_file', 'failed']], usage: U(900, 0, 0, 41) }],
      childTurns: [],
      run: U(900, 0, 0, 41),
      subagents: {},
      result: { count: 1, status: 'permission_denied', finalMessage: 'Updating the lockfile.', error: 'permission denied: read_only mode forbids write_file', exit: 4 },
      check: NO_CHECK,
    },
  };
});

// --- turn-failed: a provider error ends the root turn, the Run settles failed ---
add(() => {
  const root = 'th_tf0001';
  const p = start({ thread: root, provider: 'openai', model: 'gpt-4.1' });
  p.turnStarted().messageItem().deltas('Let me ');
  p.usage(T(450, 0, 0, 3));
  p.turnFailed('openai: 429 rate_limit_exceeded: Rate limit reached');
  p.result('failed', { error: 'openai: 429 rate_limit_exceeded: Rate limit reached' });
  return {
    name: 'turn-failed',
    about: 'section 4 turn_failed (root) then result failed',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'failed', message: 'Let me ', tools: [], usage: U(450, 0, 0, 3) }],
      childTurns: [],
      run: U(450, 0, 0, 3),
      subagents: {},
      result: { count: 1, status: 'failed', finalMessage: 'Let me ', error: 'openai: 429 rate_limit_exceeded: Rate limit reached', exit: 3 },
      check: NO_CHECK,
    },
  };
});

// --- killed: SIGKILL during a write, the stream ends mid-line ---
add(() => {
  const root = 'th_k10001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Running the migration.');
  const i1 = p.tool({ name: 'bash', args: args({ command: 'npm run migrate' }), output: ['migrated 3 tables\n'] });
  p.usage(T(1300, 2048, 0, 70));
  const i2 = p.toolStarted({ name: 'bash', args: args({ command: 'npm run seed' }) });
  p.raw(`{"delta":"seeded 1`);
  return {
    name: 'killed',
    about: 'section 11: no result, the last line cut without a newline',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'incomplete', message: 'Running the migration.', tools: [[i1, 'bash', 'completed'], [i2, 'bash', 'incomplete']], usage: U(1300, 2048, 0, 70) }],
      childTurns: [],
      run: U(1300, 2048, 0, 70),
      subagents: {},
      result: { count: 0, status: null, finalMessage: null, exit: 7 },
      check: { errors: [], warnings: ['cut-line', 'missing-result'] },
      cut: true,
    },
  };
});

// --- todo-null: todo null, todos null, and a full snapshot (struct order: explanation, todos) ---
add(() => {
  const root = 'th_td0001';
  const p = start({ thread: root });
  p.turnStarted();
  p.todo(null);
  p.todo({ todos: null });
  p.todo({ explanation: 'Plan', todos: [{ content: 'Fix <cart> & totals', status: 'in_progress' }, { content: 'Run tests', status: 'pending' }] });
  p.messageItem().deltas('Planned.');
  p.usage(T(300, 0, 0, 10)).turnCompleted({ input: 300, output: 10 });
  p.result('completed');
  return {
    name: 'todo-null',
    about: 'section 4 todo_updated: todo null, todos null, struct field order',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Planned.', tools: [], usage: U(300, 0, 0, 10) }],
      childTurns: [],
      run: U(300, 0, 0, 10),
      subagents: {},
      result: ok('Planned.'),
      check: NO_CHECK,
    },
  };
});

// --- context-state: request_context and provider_state per step, also for a child thread ---
add(() => {
  const root = 'th_cs0001';
  const p = start({ thread: root, provider: 'openai', model: 'gpt-5' });
  p.turnStarted();
  p.requestContext(0, { sections: [{ key: 'base', static: true, bytes: 8120, hash: 'sha256:9a0e' }, { key: 'env', static: false, bytes: 402 }] }).providerState(0);
  p.messageItem().deltas('Step one.');
  p.usage(T(1000, 0, 0, 20));
  p.requestContext(1).providerState(1);
  p.requestContext(0, { thread: 'agent-cc', turn: 'agent-cc-turn-0001' }).providerState(0, { thread: 'agent-cc', turn: 'agent-cc-turn-0001' });
  p.messageItem().deltas(' Step two.');
  p.usage(T(1200, 0, 900, 35)).turnCompleted({ input: 1200, output: 35 });
  p.result('completed');
  return {
    name: 'context-state',
    about: 'section 4 request_context (system_sections struct order, optional hash) and provider_state; a child thread\'s too',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Step one. Step two.', tools: [], usage: U(1200, 0, 900, 35) }],
      // The sub-agent's turn was seen (its context) but never ended: still open at the result.
      childTurns: [{ thread_id: 'agent-cc', turn_id: 'agent-cc-turn-0001', status: 'incomplete', message: null, tools: [], usage: null }],
      run: U(1200, 0, 900, 35),
      subagents: {},
      result: ok('Step one. Step two.'),
      check: NO_CHECK,
    },
  };
});

// --- file-changes: write_file, edit_file, apply_patch (one file_changed per files element) ---
add(() => {
  const root = 'th_fc0001';
  const p = start({ thread: root });
  p.turnStarted().messageItem().deltas('Editing three files.');
  const rev = 'git:3f9c2a1b7d4e:worktree:0123456789abcdef';
  const i1 = p.tool({ name: 'write_file', args: args({ path: 'src/new.js', content: 'x' }), output: [`{"action":"create","new_file_sha":"sha256:11","path":"src/new.js","workspace_revision":"${rev}"}`], files: [{ action: 'create', new_file_sha: 'sha256:11', path: 'src/new.js', workspace_revision: rev }] });
  const i2 = p.tool({ name: 'edit_file', args: args({ path: 'src/cart.js' }), output: ['{"action":"edit","new_file_sha":"sha256:22","old_file_sha":"sha256:21","path":"src/cart.js"}'], files: [{ action: 'edit', new_file_sha: 'sha256:22', old_file_sha: 'sha256:21', path: 'src/cart.js' }] });
  const i3 = p.tool({
    name: 'apply_patch',
    args: args({ patch: '*** Begin Patch\n*** Update File: a.js\n*** End Patch' }),
    output: ['{"files":[{"action":"update","path":"a.js"},{"action":"move","move_path":"c.js","path":"b.js"}],"patch_journal_path":"/home/alice/.wuu/journal/p1.json"}'],
    files: [
      { action: 'update', patch_journal_path: '/home/alice/.wuu/journal/p1.json', path: 'a.js' },
      { action: 'move', move_path: 'c.js', patch_journal_path: '/home/alice/.wuu/journal/p1.json', path: 'b.js' },
    ],
  });
  p.usage(T(2600, 1024, 0, 180)).turnCompleted({ input: 2600, output: 180 });
  p.result('completed');
  return {
    name: 'file-changes',
    about: 'section 4 file_changed after tool_completed: write_file, edit_file, apply_patch files array',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: 'Editing three files.', tools: [[i1, 'write_file', 'completed'], [i2, 'edit_file', 'completed'], [i3, 'apply_patch', 'completed']], usage: U(2600, 1024, 0, 180) }],
      childTurns: [],
      run: U(2600, 1024, 0, 180),
      subagents: {},
      result: ok('Editing three files.'),
      check: NO_CHECK,
    },
  };
});

// --- resumed: thread_resumed; turn numbers continue the thread's ---
add(() => {
  const root = '20261201-090000-aa11';
  const p = start({ thread: root, type: 'thread_resumed', turnNo: 3, provider: 'anthropic', model: 'claude-sonnet-4-20250514' });
  p.turnStarted().messageItem().deltas('Picking up where we left off.');
  p.usage(T(200, 0, 48000, 30)).turnCompleted({ input: 200, output: 30 });
  p.result('completed');
  return {
    name: 'resumed',
    about: 'section 4 thread_resumed: a resumed session reads most of its prompt from the cache (input excludes it)',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0004`, status: 'completed', message: 'Picking up where we left off.', tools: [], usage: U(200, 0, 48000, 30) }],
      childTurns: [],
      run: U(200, 0, 48000, 30),
      subagents: {},
      result: ok('Picking up where we left off.'),
      check: NO_CHECK,
    },
  };
});

// --- escapes: Go escapes and raw UTF-8 in text ---
add(() => {
  const root = 'th_es0001';
  const p = start({ thread: root });
  const text = 'a <b> & c\u2028d\u2029e\u0007f \u00e9\u4e2d\ud83d\ude00 \ufffd tab\there';
  p.turnStarted().messageItem().deltas(text.slice(0, 9), text.slice(9));
  p.usage(T(100, 0, 0, 9)).turnCompleted({ input: 100, output: 9 });
  p.result('completed');
  return {
    name: 'escapes',
    about: 'section 1: \\u003c \\u003e \\u0026 \\u2028 \\u2029, \\u0007 lowercase, raw UTF-8 and U+FFFD, \\t',
    text: p.text(),
    expected: {
      turns: [{ thread_id: root, turn_id: `${root}-turn-0001`, status: 'completed', message: text, tools: [], usage: U(100, 0, 0, 9) }],
      childTurns: [],
      run: U(100, 0, 0, 9),
      subagents: {},
      result: ok(text),
      check: NO_CHECK,
    },
  };
});

/** Every scenario, built once. */
export const SCENARIOS: readonly Scenario[] = scenarios.map((f) => f());

/** One scenario by name. */
export function scenario(name: string): Scenario {
  const s = SCENARIOS.find((x) => x.name === name);
  if (!s) throw new Error(`no scenario ${name}`);
  return s;
}
