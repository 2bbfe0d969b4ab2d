/**
 * wuu-import: recognise the producer of each input from its first lines, then
 * write each line's wuu events as soon as the line is read.
 *
 * A wuu stream passes through as its original bytes. Another producer's lines
 * go through that producer's {@link Mapper}, and the events it returns are
 * encoded the way the wuu producer writes them (encode.ts), so every tool
 * downstream reads them as a wuu run. Each input file is its own stream: its
 * own detection and its own mapper, ended at the end of the file.
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit } from '../core.js';
import { LineRecord, type EventRecord } from '../jsonl.js';
import { createClaudeMapper } from './claude.js';
import { createCodexMapper } from './codex.js';
import { createGeminiMapper } from './gemini.js';
import { detectLine, SNIFF_LINES, unrecognisedMessage, type Detection, type From, type Producer } from './detect.js';
import { goLine } from './encode.js';
import type { Mapper } from './mapper.js';

/** The mappings this build has, by producer. Each one is a line here. */
export const MAPPERS: Readonly<Partial<Record<Producer, () => Mapper>>> = Object.freeze({
  claude: createClaudeMapper,
  codex: createCodexMapper,
  gemini: createGeminiMapper,
});

/** Exit status for an input that cannot be converted (unrecognised or unsupported). */
export const IMPORT_EXIT_UNRECOGNISED = 2;

/** Options of {@link createImport}. */
export interface ImportOptions {
  /** `auto` (default) recognises the producer; a name forces that mapping. */
  from?: From;
  /** Where messages about unrecognised inputs go (the binary: stderr). */
  warn?: (message: string) => void;
  /** The mappings to use (tests); default {@link MAPPERS}. */
  mappers?: Readonly<Partial<Record<Producer, () => Mapper>>>;
}

/**
 * Input line types after which a producer's run is over, besides `result`
 * (follow mode stops there): a Codex process ends with its one turn's end
 * (exec_events.rs `ThreadEvent::TurnCompleted` / `TurnFailed`).
 */
const RUN_ENDS: Readonly<Record<Producer, ReadonlySet<string>>> = {
  codex: new Set(['turn.completed', 'turn.failed']),
  claude: new Set(),
  gemini: new Set(),
};

const PRODUCER_NAMES: Readonly<Record<Producer, string>> = { codex: 'Codex exec --json', claude: 'Claude Code stream-json', gemini: 'Gemini CLI stream-json' };

/** Per input file: what the stream turned out to be. */
type Mode =
  /** Lines held for replay, and how many lines (bad ones too) were read. */
  | { kind: 'sniffing'; held: EventRecord[]; read: number }
  | { kind: 'wuu' }
  | { kind: 'mapping'; mapper: Mapper }
  /** Unrecognised or unsupported: the rest of the file is skipped. */
  | { kind: 'skipping' };

/** Copies a record whose bytes may live in a reused input chunk. */
function keep(rec: EventRecord): EventRecord {
  return rec.raw === undefined ? rec : new LineRecord(Buffer.from(rec.raw), rec.file, rec.line).validate();
}

/** What a bad line's bytes say about their format, when they are a JSON object. */
function detectRaw(raw: Buffer): Detection | undefined {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? detectLine(value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Creates the import core. */
export function createImport(options: ImportOptions = {}): Core {
  const from = options.from ?? 'auto';
  const warn = options.warn ?? (() => {});
  const mappers = options.mappers ?? MAPPERS;
  let mode: Mode;
  let status = 0;

  const fail = (message: string): void => {
    warn(message);
    status = IMPORT_EXIT_UNRECOGNISED;
    mode = { kind: 'skipping' };
  };

  const startMapper = (producer: Producer, file: string): boolean => {
    const make = mappers[producer];
    if (make === undefined) {
      fail(`${file}: this looks like a ${PRODUCER_NAMES[producer]} stream, which this build of wuu-import cannot convert yet`);
      return false;
    }
    mode = { kind: 'mapping', mapper: make() };
    return true;
  };

  const reset = (): void => {
    mode = { kind: 'sniffing', held: [], read: 0 };
  };
  reset();

  const map = (mapper: Mapper, rec: EventRecord, emit: Emit): void => {
    for (const event of mapper.line(rec.event as unknown as Record<string, unknown>)) emit(goLine(event));
  };

  const pass = (rec: EventRecord, emit: Emit): void => {
    if (mode.kind === 'wuu') emit(rec);
    else if (mode.kind === 'mapping') map(mode.mapper, rec, emit);
  };

  /** Decides what the file is, from the held lines and this one; replays the held lines. */
  const sniff = (sniffing: Extract<Mode, { kind: 'sniffing' }>, rec: EventRecord, emit: Emit): void => {
    const held = sniffing.held;
    sniffing.read++;
    if (from !== 'auto') {
      if (!startMapper(from, rec.file)) return;
    } else {
      const found = detectLine(rec.event as unknown as Record<string, unknown>);
      if (found.kind === 'unknown') {
        held.push(keep(rec));
        if (sniffing.read >= SNIFF_LINES) fail(unrecognisedMessage(rec.file, sniffing.read));
        return;
      }
      if (found.kind === 'unsupported') {
        fail(`${rec.file}: this is ${found.what}, which wuu-import does not convert; ${found.hint}`);
        return;
      }
      if (found.kind === 'wuu') mode = { kind: 'wuu' };
      else if (!startMapper(found.producer, rec.file)) return;
    }
    for (const before of held) pass(before, emit);
    pass(rec, emit);
  };

  return {
    push(rec, emit) {
      if (mode.kind === 'sniffing') sniff(mode, rec, emit);
      else pass(rec, emit);
    },
    seeBadLine(bad) {
      if (mode.kind === 'skipping') return true;
      if (mode.kind !== 'sniffing' || from !== 'auto') return false;
      mode.read++;
      // A line without a string "type" can still name its format (session files, legacy Codex).
      const found = bad.terminated ? detectRaw(bad.raw) : undefined;
      if (found?.kind === 'unsupported') {
        fail(`${bad.file}: this is ${found.what}, which wuu-import does not convert; ${found.hint}`);
        return true;
      }
      if (mode.read < SNIFF_LINES) return false;
      fail(unrecognisedMessage(bad.file, mode.read));
      return true;
    },
    endsRun: (type) => mode.kind === 'mapping' && RUN_ENDS[mode.mapper.producer].has(type),
    // Only a wuu stream passes unparsed; everything else is read.
    needsParse: () => mode.kind !== 'wuu' && mode.kind !== 'skipping',
    endFile(file, emit) {
      if (mode.kind === 'sniffing' && mode.read > 0) fail(unrecognisedMessage(file, mode.read));
      if (mode.kind === 'mapping') for (const event of mode.mapper.end()) emit(goLine(event));
      reset();
    },
    status: () => status,
  };
}

/** The import as an object-mode stream (parsed producer lines in, wuu records and lines out). */
export function importStream(options: ImportOptions = {}): Transform {
  return coreStream(createImport(options));
}
