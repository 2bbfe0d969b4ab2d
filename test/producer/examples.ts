/**
 * The streams of examples/, written by the producer-faithful generator so
 * they look exactly like `wuu exec --json` output. `npm run examples`
 * (re)writes them; test/producer.test.ts fails when a file and its
 * definition here disagree.
 */
import { args, Producer, type Tokens } from './producer.js';

const T = (input: number, cacheWrite: number, cacheRead: number, output: number): Tokens => ({ input, cacheWrite, cacheRead, output });

/** examples/run.jsonl: two turns (an automatic continuation), bash twins, a file edit, a todo list, a sub-agent with its own thread. */
export function runExample(): string {
  const p = new Producer();
  p.sessionConfigured({ provider: 'anthropic', model: 'claude-sonnet-4-5', effort: 'medium' });
  p.thread('thread_started', { id: '20261202-231501-7f3a', provider: 'anthropic', model: 'claude-sonnet-4-5' });
  p.turnStarted();
  p.requestContext(0, { sections: [{ key: 'base', static: true, bytes: 8120, hash: 'sha256:9a0e3c1d' }, { key: 'environment', static: false, bytes: 402 }] });
  p.providerState(0, { provider: 'anthropic', transport: 'sse' });
  p.todo({ explanation: 'Fix the failing cart test', todos: [{ content: 'Run the test suite', status: 'in_progress' }, { content: 'Fix the cart total', status: 'pending' }] });
  p.messageItem().deltas("I'll run ", 'the tests first.');
  p.tool({
    name: 'bash',
    args: args({ command: 'npm test 2>&1 | tail -n 3' }),
    output: ['FAIL test/cart.test.js\n  expected 3 items, got 2 <cart>\nExit code 1\n'],
  });
  p.usage(T(1800, 4096, 0, 95));
  const agent = { id: 'agent-7e21', agentType: 'explorer', task: 'find-callers', description: 'Find every caller of total()' };
  p.subagent('subagent_started', { ...agent, status: 'running' });
  const child = { thread: 'agent-7e21', turn: 'agent-7e21-turn-0001' };
  p.usage(T(300, 1000, 0, 12), child);
  const grep = { name: 'grep', args: args({ pattern: 'total(', path: 'src' }), ...child };
  const gi = p.toolStarted(grep, 'agent-7e21-turn-0001-item-2');
  p.toolOutput(grep, gi, 'src/checkout.js:18\nsrc/api.js:7\n').toolCompleted(grep, gi);
  p.usage(T(420, 1000, 0, 38), child).turnCompleted({ input: 420, output: 38, ...child });
  p.subagent('subagent_completed', { ...agent, status: 'completed', tokens: T(420, 1000, 0, 38), result: 'total() is called from src/checkout.js:18 and src/api.js:7.' });
  p.providerState(1, { provider: 'anthropic', transport: 'sse' });
  p.tool({ name: 'read_file', args: args({ path: 'src/cart.js' }), output: ['{"content":"export function total(items) {\\n  return items.slice(0, -1).length;\\n}\\n","path":"src/cart.js"}'] });
  const rev = 'git:3f9c2a1b7d4e:worktree:8d0c5e2f41a7b390';
  p.tool({
    name: 'edit_file',
    args: args({ path: 'src/cart.js', old_string: 'items.slice(0, -1).length', new_string: 'items.length' }),
    output: [`{"action":"edit","new_file_sha":"sha256:b71c0e55","old_file_sha":"sha256:4d9a6f02","path":"src/cart.js","workspace_revision":"${rev}"}`],
    files: [{ action: 'edit', new_file_sha: 'sha256:b71c0e55', old_file_sha: 'sha256:4d9a6f02', path: 'src/cart.js', workspace_revision: rev }],
  });
  p.tool({ name: 'bash', args: args({ command: 'npm run build', run_in_background: true }), output: ['Running in background as process 4242\n'] });
  p.usage(T(3900, 4096, 4096, 310));
  p.todo({ explanation: 'Fix the failing cart test', todos: [{ content: 'Run the test suite', status: 'completed' }, { content: 'Fix the cart total', status: 'completed' }] });
  p.messageItem().deltas(' The total dropped the last item; ', 'fixed it in src/cart.js.');
  p.turnCompleted({ input: 3900, output: 310, auto: true });
  p.turnStarted();
  p.providerState(0, { provider: 'anthropic', transport: 'sse', reused: true });
  p.messageItem().deltas('The build finished. ', 'Running the tests again.');
  p.tool({ name: 'bash', args: args({ command: 'npm test' }), output: ['Tests: 42 passed\n'] });
  p.usage(T(800, 0, 8192, 60));
  p.messageItem().deltas(' All 42 tests pass now.');
  p.turnCompleted({ input: 800, output: 60 });
  p.result('completed');
  return p.text();
}

/** examples/failed.jsonl: a secret on a bash command line (redacted upstream only in tool_started), a provider error. */
export function failedExample(): string {
  const p = new Producer();
  p.sessionConfigured({ provider: 'openai', model: 'gpt-5', effort: 'high', root: '/home/bob/work/api' });
  p.thread('thread_started', { id: '20261202-224010-9b21', provider: 'openai', model: 'gpt-5', cwd: '/home/bob/work/api' });
  p.turnStarted();
  p.messageItem().deltas('Deploying with the key from .env.');
  p.tool({ name: 'read_file', args: args({ path: '.env' }), output: ['{"content":"OPENAI_API_KEY=sk-proj-Q7x2Lm9Vb4Nc8Rt1Wy6Zp3Kd\\nDEPLOY_URL=https://api.example.com/deploy\\n","path":".env"}'] });
  const url = 'https://api.example.com/deploy';
  p.tool({
    name: 'bash',
    args: args({ command: `curl -sf -H 'Authorization: [REDACTED] [REDACTED]' ${url}` }),
    completedArgs: args({ command: `curl -sf -H 'Authorization: Bearer sk-proj-Q7x2Lm9Vb4Nc8Rt1Wy6Zp3Kd' ${url}` }),
    output: ['curl: (6) Could not resolve host: api.example.com\nExit code 6\n'],
  });
  p.usage(T(3000, 0, 0, 90));
  const error = 'openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd';
  p.turnFailed(error);
  p.result('failed', { error });
  return p.text();
}

/** examples/killed.jsonl: SIGKILL during a write: no result, the last line ends mid-line. */
export function killedExample(): string {
  const p = new Producer();
  p.sessionConfigured({ provider: 'anthropic', model: 'claude-haiku-4-5' });
  p.thread('thread_started', { id: '20261202-233000-e1d2', provider: 'anthropic', model: 'claude-haiku-4-5' });
  p.turnStarted();
  p.providerState(0, { provider: 'anthropic', transport: 'sse' });
  p.todo({ todos: [{ content: 'Migrate the database', status: 'in_progress' }, { content: 'Seed test data', status: 'pending' }] });
  p.messageItem().deltas('Running the migration, ', 'then seeding.');
  p.tool({ name: 'read_file', args: args({ path: 'db/migrations/007_carts.sql' }), output: ['{"content":"ALTER TABLE carts ADD COLUMN total_cents integer;\\n","path":"db/migrations/007_carts.sql"}'] });
  p.tool({ name: 'bash', args: args({ command: 'npm run migrate' }), output: ['migrated: users, carts, orders\nExit code 0\n'] });
  p.usage(T(1300, 2048, 0, 70));
  p.providerState(1, { provider: 'anthropic', transport: 'sse' });
  p.todo({ todos: [{ content: 'Migrate the database', status: 'completed' }, { content: 'Seed test data', status: 'in_progress' }] });
  const seed = { name: 'bash', args: args({ command: 'npm run seed -- --rows 100000' }) };
  const item = p.toolStarted(seed);
  p.toolOutput(seed, item, 'seeding users... done (25000 rows)\n');
  p.usage(T(1300, 2048, 0, 81));
  p.raw(`{"delta":"seeding carts... 41%","item_id":"${item}","thread_id":"${p.root}","tu`);
  return p.text();
}

/** examples/structured.jsonl: --output-schema, structured_result in the result. */
export function structuredExample(): string {
  const p = new Producer();
  p.sessionConfigured({ provider: 'openai', model: 'gpt-5', effort: 'medium' });
  p.thread('thread_started', { id: '20261202-230512-c4d0', provider: 'openai', model: 'gpt-5' });
  p.turnStarted();
  p.tool({ name: 'glob', args: args({ pattern: 'src/**/*.test.js' }), output: ['src/cart.test.js\nsrc/api.test.js\n'] });
  p.messageItem().deltas('{"files":["src/cart.test.js",', '"src/api.test.js"],"ok":true}');
  p.usage(T(2100, 0, 1024, 44)).turnCompleted({ input: 2100, output: 44 });
  p.result('completed', { structured: { files: ['src/cart.test.js', 'src/api.test.js'], ok: true } });
  return p.text();
}

/** examples/timeout.jsonl: exec's own --timeout: turn_interrupted (reason timeout), then result timeout. */
export function timeoutExample(): string {
  const p = new Producer();
  p.sessionConfigured({ provider: 'anthropic', model: 'claude-sonnet-4-20250514' });
  p.thread('thread_started', { id: '20261202-220000-e5f6', provider: 'anthropic', model: 'claude-sonnet-4-20250514' });
  p.turnStarted();
  p.messageItem().deltas('Refactoring the checkout; ', 'running the e2e suite.');
  const e2e = { name: 'bash', args: args({ command: 'npm run test:e2e' }) };
  p.toolStarted(e2e);
  p.usage(T(4000, 0, 3000, 200));
  p.turnInterrupted('timeout');
  p.result('timeout', { error: 'timeout' });
  return p.text();
}

/** examples/setup-failed.jsonl: the app-server did not start: one result line, every id "". */
export function setupFailedExample(): string {
  return new Producer()
    .result('failed', { error: 'initialize app-server: start app-server: exec: "wuu-app-server": executable file not found in $PATH', trace: '', finalMessage: '' })
    .text();
}

/** examples/busy.jsonl: resuming a thread that still has a running turn. */
export function busyExample(): string {
  const p = new Producer();
  p.sessionConfigured({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
  p.result('failed', { error: 'thread_busy: thread 20261202-231501-7f3a has a running turn', trace: '', finalMessage: '' });
  return p.text();
}

/**
 * examples/pricing.json: overrides for wuu-usage's built-in prices (USD per
 * million tokens), one model per line so the README can show it.
 */
export function pricingExample(): string {
  const rates = (input: number, output: number, write: number, read: number) =>
    `{ "input": ${input}, "output": ${output}, "cache_write": ${write}, "cache_read": ${read} }`;
  const comment =
    "USD per million tokens, overriding or adding to the built-in prices (genai-prices). Keys are MODEL or PROVIDER/MODEL as the stream names them. input = uncached input (the stream's input_tokens, which excludes cached tokens), cache_write = cache_creation_tokens, cache_read = cache_read_tokens. Illustrative figures: check your provider's price list.";
  return [
    '{',
    `  "_comment": ${JSON.stringify(comment)},`,
    `  "anthropic/claude-sonnet-4-5": ${rates(3, 15, 3.75, 0.3)},`,
    `  "claude-haiku-4": ${rates(1, 5, 1.25, 0.1)},`,
    `  "my-local-model": ${rates(0, 0, 0, 0)}`,
    '}',
    '',
  ].join('\n');
}

/** File name in examples/ → its content. */
export const EXAMPLES: Readonly<Record<string, () => string>> = {
  'run.jsonl': runExample,
  'failed.jsonl': failedExample,
  'killed.jsonl': killedExample,
  'structured.jsonl': structuredExample,
  'timeout.jsonl': timeoutExample,
  'setup-failed.jsonl': setupFailedExample,
  'busy.jsonl': busyExample,
  'pricing.json': pricingExample,
};
