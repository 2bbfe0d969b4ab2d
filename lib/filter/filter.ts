/**
 * wuu-filter: keep the events that match, pass them on byte for byte.
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core } from '../core.js';
import { DERIVED_TYPES, FAMILIES, isKnownType, KNOWN_TYPES, stringField } from '../events.js';
import { LineRecord, parseNothing, type EventRecord } from '../jsonl.js';
import { isJsonEvent } from '../validate.js';
import { nearest } from '../suggest.js';
import { holds, parseWhere } from '../where.js';

/** Options of {@link createFilter}. */
export interface FilterOptions {
  /** Exact types, globs (`tool_*`) or family names (`tool`); any may match. None: every type. */
  selectors?: string[];
  /** Keep what does NOT match instead. */
  invert?: boolean;
  /** Id filters: the event's field must equal one of the values (AND across fields). */
  threads?: string[];
  turns?: string[];
  items?: string[];
  agents?: string[];
  runs?: string[];
  /**
   * JSONPath conditions, all of which must hold: `PATH` holds when it selects
   * something; `PATH OP VALUE` compares what it selects (see lib/where.ts:
   * `==`, `!=`, `<`, `<=`, `>`, `>=`, `~=` regex; VALUE as JSON or a bare word).
   */
  where?: string[];
  /** Always pass the `result` event, whatever the other conditions say. */
  keepResult?: boolean;
  /** Count matches per type instead of passing them; the counts are emitted at the end. */
  count?: boolean;
}

/** The family names, for help texts and validation. */
export const FAMILY_NAMES: readonly string[] = Object.keys(FAMILIES);

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** True when the selector is a glob (has `*` or `?`). */
function isGlob(selector: string): boolean {
  return /[*?]/.test(selector);
}

/**
 * Builds a type predicate from selectors. Results are cached per type, since a
 * stream has few distinct types and this runs once per line.
 */
export function typeMatcher(selectors: readonly string[]): (type: string) => boolean {
  if (selectors.length === 0) return () => true;
  const exact = new Set<string>();
  const globs: RegExp[] = [];
  for (const selector of selectors) {
    const family = Object.hasOwn(FAMILIES, selector) ? FAMILIES[selector] : undefined;
    if (family) for (const type of family) exact.add(type);
    else if (isGlob(selector)) globs.push(globToRegExp(selector));
    else exact.add(selector);
  }
  const cache = new Map<string, boolean>();
  return (type) => {
    let hit = cache.get(type);
    if (hit === undefined) {
      hit = exact.has(type) || globs.some((glob) => glob.test(type));
      if (cache.size < 4096) cache.set(type, hit);
    }
    return hit;
  };
}

/** Selectors that name no known type or family and match no known type: likely typos. */
export function unknownSelectors(selectors: readonly string[]): string[] {
  return selectors.filter((selector) => {
    if (Object.hasOwn(FAMILIES, selector) || isKnownType(selector)) return false;
    return !isGlob(selector);
  });
}

/** The family or type nearest to a mistyped selector, for "did you mean". */
export function suggestSelector(selector: string): string | undefined {
  return nearest(selector, [...FAMILY_NAMES, ...KNOWN_TYPES, ...DERIVED_TYPES]);
}

const ID_FIELDS = [
  ['threads', 'thread_id'],
  ['turns', 'turn_id'],
  ['items', 'item_id'],
  ['agents', 'agent_id'],
  ['runs', 'run_id'],
] as const;

/**
 * The filter's core. With only type selectors it never parses a line: the
 * type is read by a byte scan and matching lines are written as they came.
 * Throws a JsonPathError for an unusable --where path.
 */
export function createFilter(options: FilterOptions = {}): Core {
  const typeMatches = typeMatcher(options.selectors ?? []);
  const idFilters = ID_FIELDS.flatMap(([option, field]) => {
    const values = options[option];
    return values && values.length > 0 ? [{ field, values: new Set(values) }] : [];
  });
  const conditions = (options.where ?? []).map(parseWhere);
  // Only valid JSON objects are written: a line nobody parsed is checked from its bytes.
  // (JSON.parse has the last word: it runs, and reports, whatever the byte check rejects.)
  const written = (rec: EventRecord): EventRecord => {
    if (rec instanceof LineRecord) {
      // One pass proves both: valid JSON, and a top-level string `type` (else parse, which reports).
      if (!isJsonEvent(rec.source, rec.start, rec.end)) rec.validate();
    }
    return rec;
  };
  const readsContent = idFilters.length > 0 || conditions.length > 0;
  const invert = options.invert === true;
  const counts = new Map<string, number>();
  const passAll = (options.selectors ?? []).length === 0 && !readsContent && !invert && !options.count;

  const contentMatches = (rec: EventRecord): boolean => {
    const event = rec.event;
    for (const { field, values } of idFilters) {
      const value = stringField(event, field);
      if (value === undefined || !values.has(value)) return false;
    }
    return conditions.every((condition) => holds(condition, event));
  };

  // Which types can ever be kept: with conditions on content, only the invert
  // of a type match could keep any type; otherwise the type decides alone.
  const wants = (type: string): boolean => {
    if (options.keepResult && type === 'result') return true;
    if (readsContent) return invert || typeMatches(type);
    return typeMatches(type) !== invert;
  };

  return {
    needsParse: readsContent ? (type) => typeMatches(type) : parseNothing,
    wants: passAll ? undefined : wants,
    // A kept line is written as it came once proven valid: the runner may do that itself.
    copies: passAll ? true : readsContent || options.count === true ? undefined : wants,
    // Records are written (or dropped) within push; counts keep only the type.
    keepsNoBytes: true,
    push(rec, emit) {
      // With no condition at all there is nothing to read: not even the type.
      if (passAll) {
        emit(written(rec));
        return;
      }
      const type = rec.type;
      let keep = typeMatches(type) && (!readsContent || contentMatches(rec));
      if (invert) keep = !keep;
      if (!keep && options.keepResult && type === 'result') keep = true;
      if (!keep) return;
      written(rec);
      if (options.count) counts.set(type, (counts.get(type) ?? 0) + 1);
      else emit(rec);
    },
    end(emit) {
      if (!options.count) return;
      let total = 0;
      for (const [type, n] of counts) {
        emit(`${type}\t${n}\n`);
        total += n;
      }
      emit(`total\t${total}\n`);
    },
  };
}

/** Object-mode stream version of {@link createFilter}. */
export function filter(options: FilterOptions = {}): Transform {
  return coreStream(createFilter(options));
}

/** What wuu-filter makes of its positional arguments. */
export interface Positionals {
  selectors: string[];
  inputs: string[];
  /** Warnings to print (without the program name). */
  warnings: string[];
}

/**
 * How wuu-filter tells inputs from selectors among its positionals: `-`,
 * anything with a `/` or a `.`, or the name of an existing file or directory
 * is an input (event types never contain `/` or `.`); everything else is a
 * selector. A selector that names no known type or family gets a warning with
 * the nearest known name; so does a name that is both a file and a selector.
 * `exists` asks the file system, which belongs to the shell: the binary passes
 * `fs.existsSync`.
 */
export function splitPositionals(args: readonly string[], exists: (name: string) => boolean): Positionals {
  const out: Positionals = { selectors: [], inputs: [], warnings: [] };
  for (const arg of args) {
    if (isInputArgument(arg)) out.inputs.push(arg);
    else if (exists(arg)) {
      out.inputs.push(arg);
      if (Object.hasOwn(FAMILIES, arg) || isKnownType(arg)) {
        out.warnings.push(`warning: '${arg}' is both a file here and an event selector; reading it as a file`);
      }
    } else out.selectors.push(arg);
  }
  for (const name of unknownSelectors(out.selectors)) {
    const near = suggestSelector(name);
    out.warnings.push(`warning: '${name}' is not a known event type or family${near ? `; did you mean '${near}'?` : ''} (it matches only that exact type)`);
  }
  return out;
}

/** True for `-` and for arguments with a `/` or a `.`: always inputs, never selectors. */
export function isInputArgument(arg: string): boolean {
  return arg === '-' || arg.includes('/') || arg.includes('.');
}
