/**
 * The default rules' tables as bytes, written by `npm run build`
 * (scripts/bundle.mjs: dist/lib/redact/redact-tables.bin) and read at
 * start-up instead of built (issue 21): building the raw test's patterns and
 * the three automata was most of the 40-odd ms of CPU a run spent on its
 * tables before the first line, cold code that a short stream never repays.
 * Rules are still compiled at start-up (a regex cannot be stored); the
 * stored tables are used only when they fit the rules compiled
 * (./compile.ts, `fits`), and only for the default options (./engine.ts):
 * anything else is built as before.
 *
 * Layout: "WRT1", the header's length (u32, little-endian), the header
 * (JSON: the key of the options, the stored build with each typed array as
 * [type, offset, length] into the payload), then the payload, every array at
 * a multiple of 4 bytes from the payload's start (which is one too).
 */
import fs from 'node:fs';
import type { RawEntry, StoredBuild } from './compile.js';
import type { AutomatonData, Lead } from './prefilter.js';

const MAGIC = 'WRT1';

/** The payload as it is written: arrays by their place in it. */
class Payload {
  readonly parts: Uint8Array[] = [];
  length = 0;

  /** Adds `array`; its [type, offset, length]. */
  add(array: Uint8Array | Int32Array): [string, number, number] {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    const at = this.length;
    this.parts.push(bytes);
    const padded = (bytes.length + 3) & ~3;
    if (padded > bytes.length) this.parts.push(new Uint8Array(padded - bytes.length));
    this.length += padded;
    return [array instanceof Int32Array ? 'i32' : 'u8', at, array.length];
  }
}

type Slot = [string, number, number];

function automatonHeader(data: AutomatonData | undefined, payload: Payload, runs: Runs): unknown {
  if (data === undefined) return null;
  const { low, raw, rawString, delta, outStart, outIds, ...plain } = data;
  return {
    ...plain,
    runs: plain.runs.map((run) => runs.add(run)),
    arrays: { low: payload.add(low), raw: payload.add(raw), rawString: payload.add(rawString), delta: payload.add(delta), outStart: payload.add(outStart), outIds: payload.add(outIds) },
  };
}

/**
 * Leads' runs, each distinct one stored once (most leads run over the same
 * few classes) as the codes it holds: the header stays small, and so does
 * its parse at start-up.
 */
class Runs {
  readonly list: number[][] = [];
  private readonly index = new Map<string, number>();

  /** The index of `run` (128 zeros and ones) in {@link list}. */
  add(run: Uint8Array): number {
    const codes: number[] = [];
    for (let c = 0; c < run.length; c++) if (run[c] === 1) codes.push(c);
    const key = codes.join(',');
    let at = this.index.get(key);
    if (at === undefined) {
      at = this.list.push(codes) - 1;
      this.index.set(key, at);
    }
    return at;
  }

  /** The lead as data, its run as an index into {@link list}. */
  lead(lead: Lead): unknown {
    return lead.run === undefined ? { text: lead.text, min: lead.min } : { text: lead.text, run: this.add(lead.run), min: lead.min };
  }

  entry(entry: RawEntry): unknown {
    return entry.leads === undefined ? entry : { ...entry, leads: entry.leads.map((lead) => this.lead(lead)) };
  }
}

/** The bytes of `stored`, made for the options whose key is `key`. */
export function encodeTables(key: string, stored: StoredBuild): Uint8Array {
  const payload = new Payload();
  const runs = new Runs();
  const raw = stored.raw.map((entry) => runs.entry(entry));
  const header = {
    key,
    markerTexts: stored.markerTexts,
    rules: stored.rules,
    runs: runs.list,
    raw,
    specs: stored.specs,
    partialEdges: stored.partialEdges,
    freeEnds: stored.freeEnds === undefined ? null : Array.from(stored.freeEnds),
    // JSON has no Infinity.
    freeReach: Number.isFinite(stored.freeReach) ? stored.freeReach : null,
    markers: automatonHeader(stored.markers, payload, runs),
    rawTest: automatonHeader(stored.rawTest, payload, runs),
    anchors: automatonHeader(stored.anchors, payload, runs),
  };
  let json = Buffer.from(JSON.stringify(header), 'utf8');
  // The payload starts at a multiple of 4 (its Int32Arrays are views of the file's bytes).
  const pad = (4 - ((MAGIC.length + 4 + json.length) % 4)) % 4;
  if (pad > 0) json = Buffer.concat([json, Buffer.from(' '.repeat(pad))]);
  const head = Buffer.alloc(MAGIC.length + 4);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, MAGIC.length);
  return Buffer.concat([head, json, ...payload.parts]);
}

/** Little-endian machines only read the payload's Int32Arrays as written. */
const LITTLE_ENDIAN = new Uint8Array(Int32Array.of(1).buffer)[0] === 1;

interface AutomatonHeader extends Omit<AutomatonData, 'low' | 'raw' | 'rawString' | 'delta' | 'outStart' | 'outIds' | 'runs'> {
  runs: number[];
  arrays: Record<'low' | 'raw' | 'rawString' | 'delta' | 'outStart' | 'outIds', Slot>;
}

/** A typed array of the payload; throws when its slot lies outside. */
function view(bytes: Uint8Array, base: number, slot: Slot): Uint8Array | Int32Array {
  const [type, at, length] = slot;
  const size = type === 'i32' ? 4 : 1;
  if (!Number.isInteger(at) || !Number.isInteger(length) || at < 0 || length < 0 || base + at + length * size > bytes.length) throw new Error('stored tables: bad slot');
  return type === 'i32' ? new Int32Array(bytes.buffer, bytes.byteOffset + base + at, length) : bytes.subarray(base + at, base + at + length);
}

function automatonOf(header: AutomatonHeader | null, bytes: Uint8Array, base: number, runs: readonly Uint8Array[]): AutomatonData | undefined {
  if (header === null) return undefined;
  const { arrays, ...plain } = header;
  const joined = plain.runs.map((at) => runs[at]!);
  const u8 = (slot: Slot) => view(bytes, base, slot) as Uint8Array;
  const i32 = (slot: Slot) => view(bytes, base, slot) as Int32Array;
  const data: AutomatonData = {
    ...plain,
    low: u8(arrays.low),
    raw: u8(arrays.raw),
    rawString: u8(arrays.rawString),
    delta: i32(arrays.delta),
    outStart: i32(arrays.outStart),
    outIds: i32(arrays.outIds),
    runs: joined,
  };
  if (!consistent(data)) throw new Error('stored tables: inconsistent automaton');
  return data;
}

/** Whether an automaton's stored arrays have the sizes its constructor would give them (a damaged file is built afresh). */
function consistent(data: AutomatonData): boolean {
  const states = data.outStart.length - 1;
  if (states < 1 || !Number.isInteger(data.stride) || data.stride < 3 || data.delta.length !== states * data.stride) return false;
  if (data.low.length !== 256 || data.raw.length !== 256 || data.rawString.length !== 256) return false;
  if (data.outIds.length !== data.outStart[states] || data.leads.length !== 2 * data.runs.length) return false;
  return data.runs.every((run) => run !== undefined && run.length === 128);
}

/**
 * The tables stored in `file` (see {@link encodeTables}) with their key;
 * undefined when they cannot be read as such (another layout, a
 * big-endian machine). Whether they fit the rules is ./compile.ts's test.
 */
export function decodeTables(file: Uint8Array): { key: string; stored: StoredBuild } | undefined {
  if (!LITTLE_ENDIAN || file.length < MAGIC.length + 4 || Buffer.from(file.buffer, file.byteOffset, MAGIC.length).toString('latin1') !== MAGIC) return undefined;
  // Int32Array views need an aligned start: a copy when the bytes do not have one.
  const bytes = file.byteOffset % 4 === 0 ? file : new Uint8Array(file);
  const length = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32LE(MAGIC.length);
  const base = MAGIC.length + 4 + length;
  if (base > bytes.length) return undefined;
  try {
    const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + MAGIC.length + 4, length).toString('utf8')) as {
      key: string;
      markerTexts: string[];
      rules: number;
      runs: number[][];
      specs: string;
      partialEdges: boolean[];
      freeEnds: number[] | null;
      freeReach: number | null;
      raw: Array<Omit<RawEntry, 'leads'> & { leads?: Array<{ text: string; run?: number; min: number }> }>;
      markers: AutomatonHeader;
      rawTest: AutomatonHeader | null;
      anchors: AutomatonHeader | null;
    };
    const runs = header.runs.map((codes) => {
      const run = new Uint8Array(128);
      for (const c of codes) run[c] = 1;
      return run;
    });
    const leadOf = (lead: { text: string; run?: number; min: number }): Lead => (lead.run === undefined ? { text: lead.text, min: lead.min } : { text: lead.text, run: runs[lead.run]!, min: lead.min });
    const raw = header.raw.map((e): RawEntry => (e.leads === undefined ? (e as RawEntry) : { ...e, leads: e.leads.map(leadOf) }));
    const markers = automatonOf(header.markers, bytes, base, runs);
    if (markers === undefined) return undefined;
    return {
      key: header.key,
      stored: {
        specs: header.specs,
        markerTexts: header.markerTexts,
        rules: header.rules,
        raw,
        partialEdges: header.partialEdges,
        freeEnds: header.freeEnds === null ? undefined : Uint8Array.from(header.freeEnds),
        freeReach: header.freeReach ?? Infinity,
        markers,
        rawTest: automatonOf(header.rawTest, bytes, base, runs),
        anchors: automatonOf(header.anchors, bytes, base, runs),
      },
    };
  } catch {
    return undefined;
  }
}

declare const __WUU_BUNDLE__: boolean | undefined;

/**
 * The tables the build stored, beside this module in dist/lib/redact, or
 * found from a bundle in dist/bundle. Undefined without the file (the
 * sources, under tests) or when it is not one this code reads.
 */
export function readStoredTables(): { key: string; stored: StoredBuild } | undefined {
  const url = typeof __WUU_BUNDLE__ === 'boolean' ? new URL('../lib/redact/redact-tables.bin', import.meta.url) : new URL('./redact-tables.bin', import.meta.url);
  let file: Buffer;
  try {
    file = fs.readFileSync(url);
  } catch {
    return undefined;
  }
  return decodeTables(file);
}
