/**
 * Core.proves (issue 20): wuu-accumulate and wuu-turns prove each line valid
 * in the same byte-level pass that reads it, and the runner then does not
 * validate it first. The proof must never let a bad line through, and a bad
 * line must be reported exactly as when the runner validates it itself: a
 * table of the proof against JSON.parse (and a seeded fuzz of producer lines),
 * then both tools over streams mixing every kind of bad and odd line, fed in
 * odd chunk sizes, against the same cores with the hook taken away.
 */
import t from 'tap';
import { spec as accumulateSpec } from '../bin/wuu-accumulate.js';
import { spec as turnsSpec } from '../bin/wuu-turns.js';
import type { ToolSpec } from '../lib/cli/index.js';
import type { Core } from '../lib/core.js';
import { FieldReader } from '../lib/accumulate/read.js';
import { key, MAX_DECODED_IN_PROOF, WireFields } from '../lib/accumulate/wire.js';
import { LineRecord, parseEventBytes } from '../lib/jsonl.js';
import { chunked } from './helpers.js';
import { runIn } from './runner-harness.js';

const TH = '20260101-100000-0000';
const TU = `${TH}-turn-0001`;
const ids = `"thread_id":"${TH}","turn_id":"${TU}"`;
const item = (n: number) => `"item_id":"${TU}-item-${n}",${ids}`;

/** `line` as the runner hands it: a view into a chunk, with the newline after it (or at the chunk's end). */
function recordOf(line: string | Buffer, newline = true): LineRecord {
  const body = Buffer.isBuffer(line) ? line : Buffer.from(line);
  const source = Buffer.concat([Buffer.from('{"x":1}\n'), body, Buffer.from(newline ? '\n{"type":"y"}' : '')]);
  return new LineRecord(source, '-', 2, 8, 8 + body.length);
}

/** Whether JSON.parse makes an event of the line. */
const DELTA = key('delta');

const isEvent = (line: string | Buffer) => !('error' in parseEventBytes(Buffer.isBuffer(line) ? line : Buffer.from(line)));

/** Valid events the proof vouches for (the producer's compact shape, odd key order, duplicates, escapes). */
const PROVEN = [
  `{"delta":"Hel",${ids},"type":"agent_message_delta"}`,
  `{"delta":"a \\u003cb\\u003e \\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t é €","type":"agent_message_delta"}`,
  `{"type":"agent_message_delta",${ids},"delta":"odd order"}`,
  `{"delta":"x","delta":"y",${ids},"type":"agent_message_delta"}`,
  `{"type":5,"delta":"z","type":"tool_output_delta"}`,
  `{"n":-0.5e+3,"m":0,"o":12345678901234567890,"t":true,"f":false,"z":null,"type":"x"}`,
  `{"todo":{"todos":[{"content":"a }\\" ]","status":"done"}],"n":{}},"type":"todo_updated"}`,
  `{"type":"turn_started"}`,
  `{"é":"ü","type":"x"}`,
];

/** Valid events it leaves to JSON.parse (a shape it does not read): false, never a wrong answer. */
const UNPROVEN_VALID = [
  ` {"type":"x"}`,
  `{ "type" : "x" }`,
  `{"typ\\u0065":"x","type":"x"}`,
  `{"list":[1,2],"type":"x"}`,
  `{${Array.from({ length: 70 }, (_, i) => `"k${i}":${i}`).join(',')},"type":"x"}`,
];

/** Lines that are not events: the proof must say false (then the runner parses and reports them). */
const INVALID = [
  `{"delta":"lo\\x",${ids},"type":"agent_message_delta"}`,
  `{"delta":"a\tb",${ids},"type":"agent_message_delta"}`,
  `{"delta":"a\u0001b","type":"agent_message_delta"}`,
  `{"delta":"\\u00zz","type":"agent_message_delta"}`,
  `{"delta":"\\u00","type":"agent_message_delta"}`,
  `{"delta":"cut`,
  `{"delta":"cut","type":"agent_message_delta"`,
  `{"delta":"x",}`,
  `{"delta":"x","type":"turn_started",}`,
  `{"n":01,"type":"x"}`,
  `{"n":1.,"type":"x"}`,
  `{"n":-,"type":"x"}`,
  `{"n":+1,"type":"x"}`,
  `{"n":tru,"type":"x"}`,
  `{"n":nul,"type":"x"}`,
  `{"o":{"a":},"type":"x"}`,
  `{"o":{"a":1,},"type":"x"}`,
  `{"o":{"a":"\\q"},"type":"x"}`,
  `{"o":{"a":1},"type":"x"}}`,
  `{"type":"x","type":5}`,
  `{"type":5}`,
  `{"delta":"no type"}`,
  `{}`,
  `{"type":"x"`,
  `{"type" "x"}`,
  `{"type":"x""y":1}`,
  `{type:"x"}`,
  `["type","x"]`,
  `"type"`,
  ``,
];

t.test('the proof against JSON.parse', async (t) => {
  const wire = new WireFields();
  for (const line of PROVEN) {
    t.ok(isEvent(line), `an event: ${line}`);
    t.equal(wire.prove(recordOf(line)), true, `proven: ${line}`);
    t.equal(wire.prove(recordOf(line, false)), true, `proven at a chunk's end: ${line}`);
  }
  for (const line of UNPROVEN_VALID) {
    t.ok(isEvent(line), `an event: ${line}`);
    t.equal(wire.prove(recordOf(line)), false, `left to JSON.parse: ${line}`);
  }
  for (const line of INVALID) {
    t.notOk(isEvent(line), `not an event: ${JSON.stringify(line)}`);
    t.equal(wire.prove(recordOf(line)), false, `not proven: ${JSON.stringify(line)}`);
    t.equal(wire.prove(recordOf(line, false)), false, `not proven at a chunk's end: ${JSON.stringify(line)}`);
    t.equal(wire.prove(recordOf(line), DELTA), false, `not proven, its delta decoded: ${JSON.stringify(line)}`);
  }
});

t.test('a member decoded in the proof: the decode is its proof, and its text is what JSON.parse gives', async (t) => {
  const wire = new WireFields();
  for (const line of PROVEN) {
    const event = JSON.parse(line) as Record<string, unknown>;
    t.equal(wire.prove(recordOf(line), DELTA), true, `proven: ${line}`);
    t.equal(wire.string(DELTA), typeof event.delta === 'string' ? event.delta : undefined, `its delta: ${line}`);
  }
  // A decoded member that is not the last of its key: the last one answers.
  t.equal(wire.prove(recordOf(`{"delta":"first","delta":7,"type":"x"}`), DELTA), true);
  t.equal(wire.string(DELTA), undefined, 'the last delta is a number');
  t.equal(wire.prove(recordOf(`{"delta":7,"delta":"last","type":"x"}`), DELTA), true);
  t.equal(wire.string(DELTA), 'last');
  // A member longer than MAX_DECODED_IN_PROOF is judged by its bytes, not decoded, and read as ever.
  const long = `${'x'.repeat(MAX_DECODED_IN_PROOF)}\\n\\u003c`;
  t.equal(wire.prove(recordOf(`{"delta":"${long}","type":"x"}`), DELTA), true, 'a long member proven');
  t.equal(wire.string(DELTA), `${'x'.repeat(MAX_DECODED_IN_PROOF)}\n<`);
  t.equal(wire.prove(recordOf(`{"delta":"${long}\\q","type":"x"}`), DELTA), false, 'a bad escape at the end of a long member');
  t.equal(wire.prove(recordOf(`{"delta":"${long}\u0002","type":"x"}`), DELTA), false, 'a raw control byte at the end of a long member');
  t.equal(wire.prove(recordOf(`{"delta":"${long}`), DELTA), false, 'a long member cut off');
  // The decoded text does not outlive its read.
  t.equal(wire.read(recordOf(`{"delta":"\u0041b","type":"x"}`)), true);
  t.equal(wire.string(DELTA), 'Ab');
});

t.test('a proven read serves the reads of its record, and only of it', async (t) => {
  const reader = new FieldReader();
  const delta = key('delta');
  const first = recordOf(`{"delta":"x","delta":"y",${item(1)},"type":"tool_output_delta"}`);
  t.equal(reader.prove(first), true);
  t.equal(reader.all(first).string(delta), 'y', 'the last of duplicates, as JSON.parse');
  t.equal(reader.some(first, [key('item_id')]).string(delta), 'y', 'a tail read of a proven record keeps every member');
  const second = recordOf(`{"delta":"other",${item(2)},"type":"tool_output_delta"}`);
  t.equal(reader.all(second).string(delta), 'other', 'another record is read afresh');
  t.equal(reader.some(first, [key('thread_id')]).string(key('thread_id')), TH);
  // A record the proof turned down is read the ordinary way once parsed.
  const spaced = recordOf(`{ "delta" : "s" , "type" : "agent_message_delta" }`);
  t.equal(reader.prove(spaced), false);
  t.equal(reader.all(spaced).string(delta), 's');
});

t.test('fuzz: a proven line is always an event JSON.parse accepts', async (t) => {
  // Seeded: every run tries the same mutations of producer lines.
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const base = [...PROVEN, `{"arguments":"{\\"path\\":\\"a.ts\\"}",${item(1)},"name":"read_file","type":"tool_started"}`].map((line) => Buffer.from(line));
  const bytes = Buffer.from('"\\{}[],:0123456789-+.eEtrufalsn \t\u0001ux');
  const wire = new WireFields();
  let proven = 0;
  let wrong = 0;
  for (let i = 0; i < 20000; i++) {
    const line = Buffer.from(base[random(base.length)] ?? Buffer.alloc(0));
    for (let m = 1 + random(3); m > 0; m--) line[random(line.length)] = bytes[random(bytes.length)] ?? 0x20;
    if (!wire.prove(recordOf(line), i % 2 === 0 ? DELTA : undefined)) continue;
    proven++;
    if (!isEvent(line)) {
      wrong++;
      t.fail(`proven but not an event: ${line.toString('latin1')}`);
    }
  }
  t.equal(wrong, 0, 'no bad line proven');
  t.ok(proven > 1000, `many mutated lines are still valid and proven (${proven})`);
});

/**
 * The core with its proof and its copies taken away: the runner validates every
 * unread line itself and hands every line to `push`, as before both hooks.
 */
function withoutProof(core: Core): Core {
  return new Proxy(core, {
    get(target, prop) {
      if (prop === 'proves' || prop === 'copies') return undefined;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The tool, its core's proofs counted (so a test knows the proof was asked, and said both yes and no). */
function counted(spec: ToolSpec, prove: boolean, tally: { yes: number; no: number }): ToolSpec {
  return {
    ...spec,
    create(ctx) {
      const made = spec.create(ctx);
      if (!('core' in made)) throw new Error(`${spec.name} declares a core`);
      const core = made.core;
      if (!prove) return { ...made, core: withoutProof(core) };
      const proves = core.proves?.bind(core);
      if (proves === undefined) throw new Error(`${spec.name} proves its lines`);
      const spied = new Proxy(core, {
        get(target, prop) {
          if (prop === 'proves') {
            return (rec: LineRecord) => {
              const ok = proves(rec);
              if (ok) tally.yes++;
              else tally.no++;
              return ok;
            };
          }
          const value: unknown = Reflect.get(target, prop);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      return { ...made, core: spied };
    },
  };
}

/** A run with every kind of line: good pieces, bad lines inside pieces (a bash twin the tools skip on its ids too), odd shapes. */
const STREAM = [
  `{"cwd":"/w","model":"m","provider":"p","thread_id":"${TH}","type":"thread_started"}`,
  `{${ids},"type":"turn_started"}`,
  `{"delta":"Hel",${ids},"type":"agent_message_delta"}`,
  `{"delta":"lo\\x",${ids},"type":"agent_message_delta"}`,
  `{"delta":"a\tb",${ids},"type":"agent_message_delta"}`,
  `{"delta":"lo \\u003c \\n é",${ids},"type":"agent_message_delta"}`,
  `{"delta":"x","delta":"y",${ids},"type":"agent_message_delta"}`,
  `{"type":"agent_message_delta",${ids},"delta":"!"}`,
  ` { "delta" : "?" , ${ids} , "type" : "agent_message_delta" }`,
  `{"arguments":"{\\"command\\":\\"ls\\"}",${item(1)},"name":"bash","type":"tool_started"}`,
  `{"arguments":"{\\"command\\":\\"ls\\"}","command":"ls",${item(1)},"name":"bash","type":"command_started"}`,
  `{"delta":"out\\n",${item(1)},"type":"tool_output_delta"}`,
  `{"delta":"twin \\q",${item(1)},"type":"command_output_delta"}`,
  `{"delta":"out\\n",${item(1)},"type":"command_output_delta"}`,
  `{"delta":"more","n":01,${item(1)},"type":"tool_output_delta"}`,
  `{"delta":"more","extra":{"a":},${item(1)},"type":"tool_output_delta"}`,
  `{"delta":"nested","extra":{"a":[1,{"b":"}"}]},${item(1)},"type":"tool_output_delta"}`,
  `{"delta":"list","extra":[1,2],${item(1)},"type":"tool_output_delta"}`,
  `{"del\\u0074a":"escaped key",${item(1)},"type":"tool_output_delta"}`,
  `{"delta":"z",${item(1)},"type":"tool_output_delta","type":5}`,
  `{"delta":"Exit code 3\\n",${item(1)},"type":5,"type":"tool_output_delta"}`,
  `{"error":"","exit_code":3,${item(1)},"name":"bash","status":"completed","type":"tool_completed"}`,
  `{"error":"",${item(1)},"status":"completed","type":"command_completed",}`,
  `{"error":"",${item(1)},"status":"completed","type":"command_completed"}`,
  `{"cache_creation_tokens":1,"cache_read_tokens":2,"input_tokens":3,"output_tokens":4,${ids},"type":"usage_updated"}`,
  `{"cache_creation_tokens":1,"cache_read_tokens":2,"input_tokens":3,"output_tokens":4\u0000,${ids},"type":"usage_updated"}`,
  `{"message":"Hello","message":"Hello!",${ids},"type":"agent_message_final"}`,
  `{"awaiting_auto_continuation":false,"input_tokens":1,"output_tokens":2,${ids},"trace_path":"","type":"turn_completed"}`,
  `{"error":"","final_message":"done","run_id":"r","status":"completed",${ids},"trace_path":"","type":"result"}`,
].join('\n');

/** Inputs: the stream, then a cut last line (bad), and a cut last line that is a whole event. */
const INPUTS: Array<[string, string]> = [
  ['every kind of line', `${STREAM}\n`],
  ['a cut bad last line', `${STREAM}\n{"delta":"cut",${ids}`],
  ['a cut last line that is whole', `${STREAM}\n{${ids},"type":"turn_started"}`],
  ['bad lines in a row past the streak', `${STREAM}\n${Array.from({ length: 25 }, (_, i) => `{"delta":"bad ${i}\\x",${ids},"type":"agent_message_delta"}`).join('\n')}\n{${ids},"type":"turn_started"}\n`],
];

const TOOLS: Array<[string, ToolSpec, string[][]]> = [
  ['wuu-accumulate', accumulateSpec, [[], ['--keep-deltas'], ['--pass-invalid'], ['--strict']]],
  ['wuu-turns', turnsSpec, [[], ['--only-turns'], ['--events'], ['--pass-invalid'], ['--strict']]],
];

for (const [name, spec, argvs] of TOOLS) {
  t.test(`${name}: bad lines reported exactly as when the runner validates them`, async (t) => {
    const tally = { yes: 0, no: 0 };
    for (const argv of argvs) {
      for (const [label, input] of INPUTS) {
        const expected = await runIn(counted(spec, false, tally), argv, input);
        if (label === 'every kind of line' && argv.length === 0) {
          // The guard has teeth: these runs do report the bad lines, with JSON.parse's words.
          t.match(expected.stderr, /<stdin>:4: not valid JSON \(Bad escaped character in JSON at position \d+/, 'the bad delta is reported');
          t.match(expected.stderr, /<stdin>:13: not valid JSON/, 'the bad bash twin is reported');
          t.match(expected.stderr, /<stdin>:20: "type" is a number, not a string/, 'a last type that is not a string is reported');
          t.equal(expected.code, 1, 'bad lines make the status 1');
        }
        for (const size of [1, 7, 13, 4096]) {
          const got = await runIn(counted(spec, true, tally), argv, chunked(input, size));
          t.same(
            { stdout: got.stdout, stderr: got.stderr, code: got.code },
            { stdout: expected.stdout, stderr: expected.stderr, code: expected.code },
            `${argv.join(' ') || '(no flags)'}, ${label}, chunks of ${size}`,
          );
        }
      }
    }
    t.ok(tally.yes > 100, `lines proven by the core (${tally.yes})`);
    t.ok(tally.no > 50, `lines the core turned down, then parsed by the runner (${tally.no})`);
  });
}
