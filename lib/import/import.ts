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
import { coreStream, type BadLine, type Core, type Emit } from '../core.js';
import { eventFields, isObject } from '../events.js';
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
    return isObject(value) ? detectLine(value) : undefined;
  } catch {
    return undefined;
  }
}

type Sniffing = Extract<Mode, { kind: 'sniffing' }>;

/**
 * One import: per input file, what the stream is (sniffed from its first
 * lines unless `--from` says) and the mapper or pass-through it gets.
 */
class Importer {
  private mode: Mode = { kind: 'sniffing', held: [], read: 0 };
  /** 0, or IMPORT_EXIT_UNRECOGNISED once an input could not be converted. */
  status = 0;

  constructor(
    private readonly from: From,
    private readonly warn: (message: string) => void,
    private readonly mappers: Readonly<Partial<Record<Producer, () => Mapper>>>,
  ) {}

  push(rec: EventRecord, emit: Emit): void {
    if (this.mode.kind === 'sniffing') this.sniff(this.mode, rec, emit);
    else this.pass(rec, emit);
  }

  /** A bad line while sniffing still counts, and may name a format wuu-import does not convert. */
  seeBadLine(bad: BadLine): boolean {
    const mode = this.mode;
    if (mode.kind === 'skipping') return true;
    if (mode.kind !== 'sniffing' || this.from !== 'auto') return false;
    mode.read++;
    // A line without a string "type" can still name its format (session files, legacy Codex).
    const found = bad.terminated ? detectRaw(bad.raw) : undefined;
    if (found?.kind === 'unsupported') {
      this.fail(`${bad.file}: this is ${found.what}, which wuu-import does not convert; ${found.hint}`);
      return true;
    }
    if (mode.read < SNIFF_LINES) return false;
    this.fail(unrecognisedMessage(bad.file, mode.read));
    return true;
  }

  endsRun(type: string): boolean {
    return this.mode.kind === 'mapping' && RUN_ENDS[this.mode.mapper.producer].has(type);
  }

  /** Only a wuu stream passes unparsed; everything else is read. */
  needsParse(): boolean {
    return this.mode.kind !== 'wuu' && this.mode.kind !== 'skipping';
  }

  endFile(file: string, emit: Emit): void {
    const mode = this.mode;
    if (mode.kind === 'sniffing' && mode.read > 0) this.fail(unrecognisedMessage(file, mode.read));
    if (mode.kind === 'mapping') for (const event of mode.mapper.end()) emit(goLine(event));
    this.mode = { kind: 'sniffing', held: [], read: 0 };
  }

  private fail(message: string): void {
    this.warn(message);
    this.status = IMPORT_EXIT_UNRECOGNISED;
    this.mode = { kind: 'skipping' };
  }

  private startMapper(producer: Producer, file: string): boolean {
    const make = this.mappers[producer];
    if (make === undefined) {
      this.fail(`${file}: this looks like a ${PRODUCER_NAMES[producer]} stream, which this build of wuu-import cannot convert yet`);
      return false;
    }
    this.mode = { kind: 'mapping', mapper: make() };
    return true;
  }

  private pass(rec: EventRecord, emit: Emit): void {
    const mode = this.mode;
    if (mode.kind === 'wuu') emit(rec);
    else if (mode.kind === 'mapping') for (const event of mode.mapper.line(eventFields(rec.event))) emit(goLine(event));
  }

  /** Decides what the file is, from the held lines and this one; replays the held lines. */
  private sniff(sniffing: Sniffing, rec: EventRecord, emit: Emit): void {
    const held = sniffing.held;
    sniffing.read++;
    if (this.from !== 'auto') {
      if (!this.startMapper(this.from, rec.file)) return;
    } else {
      const found = detectLine(eventFields(rec.event));
      if (found.kind === 'unknown') {
        held.push(keep(rec));
        if (sniffing.read >= SNIFF_LINES) this.fail(unrecognisedMessage(rec.file, sniffing.read));
        return;
      }
      if (found.kind === 'unsupported') {
        this.fail(`${rec.file}: this is ${found.what}, which wuu-import does not convert; ${found.hint}`);
        return;
      }
      if (found.kind === 'wuu') this.mode = { kind: 'wuu' };
      else if (!this.startMapper(found.producer, rec.file)) return;
    }
    for (const before of held) this.pass(before, emit);
    this.pass(rec, emit);
  }
}

/** Creates the import core. */
export function createImport(options: ImportOptions = {}): Core {
  const importer = new Importer(options.from ?? 'auto', options.warn ?? (() => {}), options.mappers ?? MAPPERS);
  return {
    push: (rec, emit) => importer.push(rec, emit),
    seeBadLine: (bad) => importer.seeBadLine(bad),
    endsRun: (type) => importer.endsRun(type),
    needsParse: () => importer.needsParse(),
    endFile: (file, emit) => importer.endFile(file, emit),
    status: () => importer.status,
  };
}

/** The import as an object-mode stream (parsed producer lines in, wuu records and lines out). */
export function importStream(options: ImportOptions = {}): Transform {
  return coreStream(createImport(options));
}
