/**
 * Command-line arguments: the strict option grammar every binary shares, on
 * top of minimist. Every option is checked here BEFORE minimist sees argv, so
 * a flag named like an Object member (`--constructor`, `--__proto__`) is an
 * unknown option, not a TypeError inside minimist's plain-object tables.
 *
 * The grammar: `--name`, `--name=VALUE`, `--name VALUE`, `-x`, `-xVALUE`,
 * clusters of short booleans (`-vh`), `--` ends the options, `-` is stdin.
 * A boolean takes no `=VALUE`; `--no-X` exists only for the flags a spec
 * declares negatable (and booleans that default to true); a value flag given
 * twice is refused unless it is repeatable.
 */
import minimist from 'minimist';
import { nearest } from '../suggest.js';

/** Exit statuses shared by every binary. */
export const EXIT = Object.freeze({ OK: 0, BAD_DATA: 1, USAGE: 2, SIGHUP: 129, SIGINT: 130, SIGTERM: 143 });

/** A usage error: reported with a pointer to --help, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Which flags a tool takes, in minimist's terms. */
export interface FlagSpec {
  /** Flags that take a value. Every one is parsed as a string. */
  string?: string[];
  /** Flags that take no value. */
  boolean?: string[];
  /** Short or alternative names: alias -> canonical. */
  alias?: Record<string, string>;
  /** Value flags that may be given several times. Others may be given once. */
  repeatable?: string[];
  /** Defaults, e.g. `{ 'default-rules': true }` for a boolean that `--no-default-rules` turns off. */
  defaults?: Record<string, boolean | string>;
  /**
   * Flags that have a negated form `--no-X` (a boolean default-true flag has one
   * anyway). A negated value flag reads as the string `'false'`.
   */
  negatable?: string[];
  /** The values a value flag allows, when they are a fixed set (for completion). */
  values?: Record<string, readonly string[]>;
  /**
   * Value flags whose value may be left out. `--name=VALUE` always has one;
   * `--name NEXT` takes NEXT only when the test says NEXT is its value (not
   * an input); a bare `--name` reads as ''. For a flag that was a boolean
   * before it took a value: every command line that worked keeps its meaning.
   */
  optionalValue?: Record<string, (next: string) => boolean>;
}

/** Typed access to the parsed flags. */
export class Flags {
  constructor(
    private readonly values: Record<string, unknown>,
    private readonly repeatable: ReadonlySet<string>,
  ) {}

  private get(name: string): unknown {
    return Object.hasOwn(this.values, name) ? this.values[name] : undefined;
  }

  /** True when the flag was given at all. */
  has(name: string): boolean {
    const value = this.get(name);
    return value !== undefined && value !== false;
  }

  bool(name: string): boolean {
    return this.get(name) === true;
  }

  /** The value of a value flag (the last one of a repeatable flag). */
  string(name: string): string | undefined {
    const value = this.get(name);
    if (value === undefined) return undefined;
    if (Array.isArray(value)) return value.length === 0 ? undefined : String(value[value.length - 1]);
    return String(value);
  }

  /** All values of a repeatable flag (also split on commas when `split`). */
  list(name: string, split = false): string[] {
    const value = this.get(name);
    if (value === undefined) return [];
    const all = (Array.isArray(value) ? value : [value]).map(String);
    return split ? all.flatMap((v) => v.split(',')).filter((v) => v !== '') : all;
  }

  /** An integer flag with bounds; sizes accept K, M, G suffixes (powers of 1024). */
  int(name: string, options: { min?: number; max?: number; size?: boolean } = {}): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const match = /^(\d+)([kmg]i?b?)?$/i.exec(text.trim());
    const suffix = match?.[2]?.[0]?.toLowerCase();
    if (!match || (suffix !== undefined && !options.size)) {
      throw new UsageError(`--${name} takes a whole number${options.size ? ' (K, M, G suffixes allowed)' : ''}, not '${text}'`);
    }
    const scale = suffix === 'k' ? 1024 : suffix === 'm' ? 1024 ** 2 : suffix === 'g' ? 1024 ** 3 : 1;
    const value = Number(match[1]) * scale;
    if (!Number.isSafeInteger(value)) throw new UsageError(`--${name} is too large: '${text}'`);
    if (options.min !== undefined && value < options.min) throw new UsageError(`--${name} must be at least ${options.min}`);
    if (options.max !== undefined && value > options.max) throw new UsageError(`--${name} must be at most ${options.max}`);
    return value;
  }

  /** Whether `name` may be given more than once. */
  isRepeatable(name: string): boolean {
    return this.repeatable.has(name);
  }
}

/** The options every binary shares, appended to each help text. */
export const COMMON_HELP = `Input and bad-line policy (every wuu-stream tool):
  FILE ...               inputs in order; '-' or none reads stdin; a directory
                         means its *.jsonl and *.jsonl.gz files; gzip input is
                         recognised by its bytes and decompressed
  -f, --follow           keep reading each FILE as it grows (like tail -F);
                         end after the run's result event, or on Ctrl-C
  --strict               stop at the first bad line (exit 1)
  --pass-invalid         hand bad lines on unchanged instead of skipping them
  --max-line-bytes N     longest line accepted (default 32M; K, M, G suffixes)
  -h, --help             show this help and exit
  --version              print the version and exit
A bad line is reported on stderr as PROG: FILE:LINE: message.
Exit status: 0 ok, 1 bad data or failed check, 2 usage error or unreadable
input, 129/130/143 after SIGHUP/SIGINT/SIGTERM.`;

/** The flags of {@link COMMON_HELP}. */
export const COMMON_FLAGS = {
  string: ['max-line-bytes'],
  boolean: ['help', 'version', 'strict', 'pass-invalid', 'follow'],
  alias: { h: 'help', f: 'follow' } as Record<string, string>,
};

/** Parsed command line. */
export interface ParsedArgs {
  flags: Flags;
  positionals: string[];
}

/** The flag tables of one spec, as sets (never plain-object lookups). */
interface Grammar {
  strings: Set<string>;
  booleans: Set<string>;
  alias: Map<string, string>;
  negatable: Set<string>;
  repeatable: Set<string>;
  optionalValue: Map<string, (next: string) => boolean>;
}

function grammarOf(own: FlagSpec): Grammar {
  const strings = new Set([...COMMON_FLAGS.string, ...(own.string ?? [])]);
  const booleans = new Set([...COMMON_FLAGS.boolean, ...(own.boolean ?? [])]);
  const alias = new Map<string, string>([...Object.entries(COMMON_FLAGS.alias), ...Object.entries(own.alias ?? {})]);
  const negatable = new Set(own.negatable ?? []);
  for (const [name, value] of Object.entries(own.defaults ?? {})) if (value === true && booleans.has(name)) negatable.add(name);
  for (const name of Object.keys(own.optionalValue ?? {})) strings.add(name);
  const optionalValue = new Map(Object.entries(own.optionalValue ?? {}));
  return { strings, booleans, alias, negatable, repeatable: new Set(own.repeatable ?? []), optionalValue };
}

/** "; did you mean '--breakdown'?" for a mistyped long option, or nothing. */
function didYouMean(g: Grammar, raw: string): string {
  const names = [...g.strings, ...g.booleans, ...[...g.alias.keys()].filter((name) => name.length > 1)];
  const near = raw.length > 1 ? nearest(raw, names) : undefined;
  return near === undefined ? '' : `; did you mean '--${near}'?`;
}

/**
 * Checks argv against the grammar; throws a {@link UsageError} for the first
 * option that is unknown, misused or repeated. Returns argv with short
 * clusters spelled out (`-vj4` as `-v -j 4`), which minimist gets wrong.
 */
function checkArgv(g: Grammar, argv: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const canonical = (name: string) => g.alias.get(name) ?? name;
  const known = (name: string) => g.strings.has(name) || g.booleans.has(name) || g.alias.has(name);
  const once = (name: string, shown: string) => {
    if (g.strings.has(name) && !g.repeatable.has(name)) {
      if (seen.has(name)) throw new UsageError(`option ${shown} given more than once`);
      seen.add(name);
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.push(...argv.slice(i));
      return out;
    }
    if (arg === '-' || !arg.startsWith('-') || arg.startsWith('--')) out.push(arg);
    if (arg === '-' || !arg.startsWith('-')) continue;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const raw = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const shown = `--${raw}`;
      if (!known(raw) && raw.startsWith('no-') && known(raw.slice(3))) {
        const name = canonical(raw.slice(3));
        if (!g.negatable.has(name)) throw new UsageError(`option --${raw.slice(3)} cannot be negated (${shown})`);
        if (eq >= 0) throw new UsageError(`option ${shown} takes no value`);
        continue;
      }
      if (!known(raw) || raw.length === 1) throw new UsageError(`unknown option ${shown}${didYouMean(g, raw)}`);
      const name = canonical(raw);
      if (g.booleans.has(name)) {
        if (eq >= 0) throw new UsageError(`option ${shown} takes no value`);
        continue;
      }
      once(name, shown);
      const isValue = g.optionalValue.get(name);
      if (eq < 0 && isValue !== undefined) {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith('-') && isValue(next)) {
          out.push(next);
          i++;
        } else out[out.length - 1] = `--${raw}=`; // bare: '' rather than minimist taking the next argument
        continue;
      }
      if (eq < 0) {
        const next = argv[i + 1];
        if (next === undefined || (next.startsWith('-') && next !== '-')) throw new UsageError(`option ${shown} needs a value`);
        out.push(next);
        i++;
      }
      continue;
    }
    // Short options: a cluster of booleans, possibly ending in a value flag.
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k] as string;
      if (!g.alias.has(letter)) throw new UsageError(`unknown option -${letter}`);
      const name = canonical(letter);
      out.push(`-${letter}`);
      if (!g.strings.has(name)) continue;
      once(name, `-${letter}`);
      if (k + 1 < arg.length) {
        out.push(arg.slice(k + 1)); // -j4: the rest is the value
        break;
      }
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) throw new UsageError(`option -${letter} needs a value`);
      out.push(next);
      i++;
    }
  }
  return out;
}

/** Parses argv for a spec: every value flag is a string, unknown flags are refused. */
export function parseArgs(spec: { flags?: FlagSpec }, argv: string[]): ParsedArgs {
  const own = spec.flags ?? {};
  const g = grammarOf(own);
  const normal = checkArgv(g, argv);
  const parsed = minimist(normal, {
    string: [...g.strings],
    boolean: [...g.booleans],
    alias: Object.fromEntries(g.alias),
    default: own.defaults ?? {},
    '--': true,
  });
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of [...g.strings, ...g.booleans]) {
    if (!Object.hasOwn(parsed, name)) continue;
    const value: unknown = parsed[name];
    values[name] = value;
  }
  const positionals = [...parsed._.map(String), ...((parsed['--'] as string[] | undefined) ?? [])];
  return { flags: new Flags(values, g.repeatable), positionals };
}
