/**
 * The walk of a proven ASCII line from its bytes (./walk-proven.ts) against
 * the general walk with the raw test (./walk.ts walkJson with `raw`): the
 * same patches, in the same order, and the same findings, on every shape a
 * valid line can take (layout, nesting, empty containers, escaped keys,
 * numbers and words, JSON in strings) and on generated streams.
 */
import t from 'tap';
import fc from 'fast-check';
import { isAscii } from 'node:buffer';
import { Redactor } from '../lib/redact/engine.js';
import { walkJson, type Patch } from '../lib/redact/walk.js';
import { walkProven } from '../lib/redact/walk-proven.js';
import { isJsonEvent } from '../lib/validate.js';
import { generateStream } from '../bench/generate.js';
import { FC_SEED } from './helpers.js';

/** Both walks of one line: '' when they agree, else what differs. */
function differs(engine: Redactor, line: string): string {
  const raw = Buffer.from(line);
  if (!isAscii(raw) || !isJsonEvent(raw)) return '';
  const run = (proven: boolean) => {
    const patches: Patch[] = [];
    const hits: string[] = [];
    const options = { engine, hits, raw };
    const ok = proven ? walkProven(line, options, patches) : walkJson(line, 0, line.length, 0, options, patches);
    return JSON.stringify({ ok, patches: patches.map(({ start, end, text, rule }) => [start, end, text, rule]), hits });
  };
  const general = run(false);
  const proven = run(true);
  return general === proven ? '' : `${line.slice(0, 200)}\n  general ${general}\n  proven  ${proven}`;
}

const SHAPES = [
  '{"type":"x"}',
  ' { "s" : "/home/alice/x" , "type" : "x" } ',
  '{"a":{},"b":[],"c":[{}],"d":[[]],"s":"ghp_0123456789abcdefghijABCDEFGHIJ012345","type":"x"}',
  '{"n":-1.5e+3,"t":true,"f":false,"z":null,"s":"mail carol@example.com","type":"x"}',
  '{"a":[1,"/home/bob/w",{"k":"/home/bob/w"},[null,"x"]],"type":"x"}',
  '{"obj":{"password":"hunter2xyzQ7","nested":{"token":"abc123def456ghi789"}},"type":"x"}',
  '{"password":"","token":"v","type":"x"}',
  '{"o":{"p\\u0061ssword":"hunter2xyzQ7"},"type":"x"}',
  '{"n":{"\\u0074ype":"/home/carol/a","type":"/home/carol/b"},"type":"x"}',
  '{"ghp_0123456789abcdefghijABCDEFGHIJ012345":1,"o":{"/home/dave/k":"v"},"type":"x"}',
  '{"arguments":"{\\"path\\":\\"/home/alice/src/app/x.ts\\",\\"n\\":[1,2]}","type":"tool_started"}',
  '{"arguments":"{\\"path\\":\\"/home/alice\\"","type":"tool_started"}',
  '{"s":"a \\"quoted\\" /home/erin/x \\\\ back\\\\","type":"x"}',
  '{"s":"path\\/to\\/home\\/frank","u":"\\u0073k-proj-abc123def456ghi789jkl012mno345","type":"x"}',
  '{"type":"x","cwd":"/home/alice/src/app","workspace_root":"/home/alice/src/app"}',
  '{"a":[{"b":[{"c":{"password":"s3cretValue99"}}]}],"type":"x"}',
  '\t{"s":"/Users/bob/work"}\r',
];

t.test('every shape: the same patches and findings as the general walk', async (t) => {
  const engine = new Redactor();
  engine.learnWorkspace('/home/alice/src/app');
  t.same(
    SHAPES.map((line) => differs(engine, line)).filter((d) => d !== ''),
    [],
  );
  // The shapes above are valid ASCII lines: each was compared.
  t.same(SHAPES.filter((line) => !isJsonEvent(Buffer.from(line))), ['\t{"s":"/Users/bob/work"}\r']);
});

t.test('generated stream lines', async (t) => {
  const engine = new Redactor();
  const lines: string[] = [];
  generateStream({ bytes: 600_000, seed: 3, write: (chunk: string) => lines.push(...chunk.split('\n').filter((l) => l !== '')) });
  const wrong: string[] = [];
  for (const line of lines) {
    if (/"(?:session_configured|thread_started)"/.test(line)) {
      const root = /"(?:workspace_root|cwd)":"([^"]*)"/.exec(line)?.[1];
      if (root !== undefined) engine.learnWorkspace(root);
    }
    const d = differs(engine, line);
    if (d !== '') wrong.push(d);
  }
  t.same(wrong.slice(0, 3), []);
});

t.test('random objects (fast-check)', async (t) => {
  const engine = new Redactor();
  engine.learnWorkspace('/home/alice/src/app');
  const piece = fc.constantFrom('plain', '/home/alice/src/app/x', '/home/bob/y', 'ghp_0123456789abcdefghijABCDEFGHIJ012345', 'hunter2xyzQ7', 'a@b.io', '"', '\\', '\n', 'type', 'sk-', '');
  const text = fc.array(piece, { maxLength: 4 }).map((p) => p.join(' '));
  const key = fc.oneof(fc.constantFrom('type', 'password', 'token', 'path', 'cwd', 'arguments', 'x', 'api_key', '/home/bob/k'), text);
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(key, tie('v'), { maxKeys: 3 }), tie('json')),
    json: fc.dictionary(key, text, { maxKeys: 3 }).map((o) => JSON.stringify(o)),
  })).v;
  const line = fc.tuple(fc.dictionary(key, value, { maxKeys: 5 }), fc.boolean()).map(([o, spaced]) => JSON.stringify({ ...o, type: 'x' }, null, spaced ? 1 : undefined).replace(/\n/g, ' '));
  fc.assert(
    fc.property(line, (l) => differs(engine, l) === ''),
    { numRuns: 2000, seed: FC_SEED },
  );
  t.pass();
});
