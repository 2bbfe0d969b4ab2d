/**
 * The reference for wuu-redact: what a careful hand-written Node script does
 * to redact a stream with ONE regex. Split stdin into lines, JSON.parse each,
 * walk every value and replace the regex's matches in every string (keys
 * too), JSON.stringify, write. wuu-redact applies dozens of rules, learns
 * names and handles split secrets; issue 11 asks it to take at most half of
 * this loop's time on the same stream.
 */
const RE = /sk-[A-Za-z0-9_-]{20,256}/g;

function walk(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(RE, '<secret>');
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = walk(value[i]);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key.replace(RE, '<secret>')] = walk(inner);
    return out;
  }
  return value;
}

const out: string[] = [];
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop() ?? '';
  for (const line of lines) if (line !== '') out.push(JSON.stringify(walk(JSON.parse(line))));
  if (out.length > 0) {
    process.stdout.write(`${out.join('\n')}\n`);
    out.length = 0;
  }
});
process.stdin.on('end', () => {
  if (rest !== '') process.stdout.write(`${JSON.stringify(walk(JSON.parse(rest)))}\n`);
});
