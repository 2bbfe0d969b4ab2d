/**
 * The raw Node baseline: split stdin into lines, JSON.parse and
 * JSON.stringify every one, write the result. No streams library, no checks.
 * What a careful hand-written script would do; every tool is compared to it.
 */
const out: string[] = [];
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop() ?? '';
  for (const line of lines) {
    if (line !== '') out.push(JSON.stringify(JSON.parse(line)));
  }
  if (out.length > 0) {
    process.stdout.write(`${out.join('\n')}\n`);
    out.length = 0;
  }
});
process.stdin.on('end', () => {
  if (rest !== '') process.stdout.write(`${JSON.stringify(JSON.parse(rest))}\n`);
});
