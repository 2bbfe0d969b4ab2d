/**
 * A producer-faithful stream of bash calls ending every way the wire
 * reference describes (lib/exit-code.ts), shared by the accumulate, turns,
 * filter and pretty tests. EXIT_CODES lists, by hand, what each call's exit
 * code is: [item number, name, exit code; undefined for a tool without one].
 */
import { args, Producer } from './producer/producer.js';

/** A long output with escapes and multi-byte text around the reading window of a located delta. */
export const LONG_OUTPUT = `${Array.from({ length: 60 }, (_, i) => `step ${i}: "ok" \\ <done> é 日本 \t\u0001`).join('\n')}\nExit code 137\n`;

export function exitStream(): string {
  const p = new Producer();
  p.sessionConfigured({ provider: 'anthropic', model: 'm-1' });
  p.thread('thread_started', { id: '20261203-090000-ab12', provider: 'anthropic', model: 'm-1' });
  p.turnStarted();
  p.tool({ name: 'bash', args: args({ command: 'npm test' }), output: ['FAIL test/cart.test.js\nExit code 2\n'] });
  p.tool({ name: 'bash', args: args({ command: "echo 'Exit code 3'; echo ok" }), output: ['Exit code 3\nok\n'] });
  p.tool({ name: 'bash', args: args({ command: 'true' }), output: ['(no output)'] });
  p.tool({ name: 'bash', args: args({ command: 'npm run build', run_in_background: true }), output: ['Running in background as process 77. You will be notified when it exits.'] });
  p.tool({ name: 'read_file', args: args({ path: 'README.md' }), output: ['{"content":"Exit code 4\\n","path":"README.md"}'] });
  p.tool({ name: 'bash', args: args({ command: 'make' }), output: [LONG_OUTPUT.slice(0, 100), LONG_OUTPUT.slice(100)] });
  p.tool({ name: 'bash', args: args({ command: 'sleep 999' }), output: ['Timed out after 2m00s; the command was stopped. Rerun a long-lived command with run_in_background.'] });
  p.tool({ name: 'bash', args: args({ command: 'ls /nope' }), output: ['ls: /nope: No such file\nExit code 1\n'], noOutputTwins: true });
  p.tool({ name: 'bash', args: args({ command: 'ls' }), output: ['a\nb\n'] });
  p.turnCompleted({ input: 10, output: 5 });
  p.result('completed');
  return p.text();
}

/** [item id suffix, name, exit_code] of each call of {@link exitStream}, in order. */
export const EXIT_CODES: Array<[string, string, number | null | undefined]> = [
  ['item-2', 'bash', 2],
  ['item-4', 'bash', 0],
  ['item-6', 'bash', 0],
  ['item-8', 'bash', null],
  ['item-10', 'read_file', undefined],
  ['item-12', 'bash', 137],
  ['item-14', 'bash', null],
  ['item-16', 'bash', 1],
  ['item-18', 'bash', 0],
];
