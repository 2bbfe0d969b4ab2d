import fs from 'node:fs';
import type { BenchCase } from '../types.js';

/**
 * Issue 21: wuu-redact's peak RSS on lines it must redact, not drop: a 64 MiB
 * line (over --max-line-bytes: streamed token by token) with a secret in it,
 * and 4 MiB delta pieces with some 200k findings each (scanned in windows,
 * patched in the line's bytes). Target: under 150 MiB. The ratio column
 * compares time with the pipe floor on the same file.
 */
const MiB = 1024 * 1024;
const ids = { item_id: 'it', thread_id: 'th', turn_id: 'tu' };
const line = (type: string, delta: string) => JSON.stringify({ delta, ...ids, type });

/** A delta of about 4 MiB of `unit`, then the event that ends its stream. */
const delta = (type: string, end: string, unit: string, count: number) => (file: string) =>
  fs.writeFileSync(file, `${line(type, unit.repeat(count))}\n${JSON.stringify({ ...ids, type: end })}\n`);

function hugeLine(file: string): void {
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil((64 * MiB) / 27));
  const secret = 'sk-proj-abc123def456ghi789jkl012mno345';
  const later = '{"thread_id":"t","turn_id":"u","type":"turn_started"}\n';
  fs.writeFileSync(file, `{"delta":"${filler.slice(0, MiB)} ${secret} ${filler.slice(MiB, 64 * MiB)}","type":"agent_message_delta"}\n${later}`);
}

const INPUTS: Array<[string, BenchCase['input']]> = [
  ['64MiB line', { name: 'redact-64mib-line', write: hugeLine }],
  ['4MiB cmd delta 220k hits', { name: 'redact-command-220k', write: delta('command_output_delta', 'command_completed', 'x password=k9w abc\n', 220_000) }],
  ['4MiB agent delta 210k', { name: 'redact-agent-210k', write: delta('agent_message_delta', 'turn_completed', 'password=k9w lorem. ', Math.ceil((4 * MiB) / 20)) }],
];

const cases: BenchCase[] = INPUTS.map(([name, input]) => ({
  name: `redact ${name}`,
  ours: ['wuu-redact'],
  reference: ['pipe'],
  input,
  maxRssMb: 150,
}));
export default cases;
