/**
 * Where a unit's time comes from and how it becomes a day, week or month.
 *
 * The producer writes no timestamps (WIRE-FORMAT.md trap 13). A unit's time,
 * in order of trust:
 * - `timestamp`: a timestamp field of its events (`timestamp`, `ts` or `time`:
 *   ISO 8601 or epoch seconds/milliseconds), when an adapter wrote one;
 * - `session_id`: the run's session id (root thread id, else `run-` + id) when
 *   it has the producer's `YYYYMMDD-HHMMSS-...` shape;
 * - `mtime`: the input file's modification time (wrong once a file is copied);
 * - `now`: stdin from a pipe, the time of the report.
 *
 * The session id is the producer's wall clock (Go's time.Now().Format, the
 * producer machine's local zone) with no offset written. It is read, like
 * every timestamp without an offset, as a wall-clock time in `--timezone`
 * (default: this machine's local zone): the run counts on the calendar day
 * written in its id, whatever zone reads it, and the day does not shift when
 * the report is made elsewhere. Such a time is kept as `YYYY-MM-DDTHH:MM:SS`
 * (no `Z`); a time with an offset, an mtime or now is an instant (`...Z`).
 * Days are calendar days in the `--timezone` (an IANA name; default the
 * local zone), weeks are ISO weeks (`2026-W49`, Monday first), months `2026-12`.
 */
import fs from 'node:fs';

/** Where a unit's time comes from (see the module comment); null when it has none. */
export type DateSource = 'timestamp' | 'session_id' | 'mtime' | 'now';
export const DATE_SOURCES: readonly DateSource[] = ['timestamp', 'session_id', 'mtime', 'now'];

/** A time and where it comes from. */
export interface Dated {
  time: string | null;
  source: DateSource | null;
}

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?$/;
const OFFSET_RE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/** A wall-clock time (no offset) as `YYYY-MM-DDTHH:MM:SS[.fff]`, or undefined when it is no real time. */
function wallTime(y = '', mo = '', d = '', h = '00', mi = '00', s = '00', frac = ''): string | undefined {
  // Checked by arithmetic, not a Date round trip (this runs for every run and thread read):
  // the same verdict, Date.UTC's years 0-99 (taken as 1900-1999) included.
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${frac.slice(0, 4)}`;
}

/** Days of a month (1-12) of the proleptic Gregorian calendar, as Date counts them. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Whether a unit's time is a wall-clock time (no offset: read in the report's zone). */
export function isWallTime(time: string): boolean {
  return WALL_RE.test(time);
}

/**
 * The time of a session id of the producer's shape (`YYYYMMDD-HHMMSS-...`,
 * or a run id `run-` + one), as a wall-clock time; undefined for any other id.
 */
export function sessionTime(id: string | null | undefined): string | undefined {
  if (typeof id !== 'string') return undefined;
  // `^(?:run-)?(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-.` read by
  // character codes: a run closes with two of these (its root thread's and
  // its run id's), and a regular expression match built seven strings each.
  const at = id.startsWith('run-') && digitsAt(id, 4, 8) ? 4 : 0;
  if (!digitsAt(id, at, 8) || id.charCodeAt(at + 8) !== DASH || !digitsAt(id, at + 9, 6) || id.charCodeAt(at + 15) !== DASH) return undefined;
  // `.`: one more character, not a line terminator.
  const next = id.charCodeAt(at + 16);
  if (Number.isNaN(next) || next === 0x0a || next === 0x0d || next === 0x2028 || next === 0x2029) return undefined;
  return wallTime(id.slice(at, at + 4), id.slice(at + 4, at + 6), id.slice(at + 6, at + 8), id.slice(at + 9, at + 11), id.slice(at + 11, at + 13), id.slice(at + 13, at + 15));
}

const DASH = 0x2d;

/** Whether `text` has `count` ASCII digits from `at` (what `\d` matches). */
function digitsAt(text: string, at: number, count: number): boolean {
  if (text.length < at + count) return false;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * The time of a timestamp field: an instant (ISO 8601 UTC) for epoch seconds
 * or milliseconds and for text with an offset; a wall-clock time for ISO
 * text without one (read later in the report's zone, never the machine's).
 */
export function timeOfValue(value: unknown): string | undefined {
  let ms: number;
  if (typeof value === 'number' && Number.isFinite(value)) ms = value < 1e11 ? value * 1000 : value;
  else if (typeof value === 'string' && value !== '') {
    const wall = WALL_RE.exec(value.trim());
    if (wall !== null) return wallTime(wall[1], wall[2], wall[3], wall[4], wall[5], wall[6], wall[7]);
    // Other text is taken only with an offset (RFC 3339, or Date's own forms with a zone name).
    if (!OFFSET_RE.test(value.trim()) && !/\b(?:GMT|UTC)\b/.test(value)) return undefined;
    ms = Date.parse(value);
  } else return undefined;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  return new Date(ms).toISOString();
}

/** The time of an event's timestamp field; undefined when it has none. */
export function eventTime(event: Record<string, unknown>): string | undefined {
  return timeOfValue(event.timestamp) ?? timeOfValue(event.ts) ?? timeOfValue(event.time);
}

/** A file's modification time (ISO 8601 UTC); for stdin (or a pipe) the current time. */
export function fileTime(file: string): Dated {
  try {
    if (file === '-' || file === '<stdin>') return { time: new Date().toISOString(), source: 'now' };
    const stat = fs.statSync(file);
    return stat.isFile() ? { time: stat.mtime.toISOString(), source: 'mtime' } : { time: new Date().toISOString(), source: 'now' };
  } catch {
    return { time: null, source: null };
  }
}

/** Throws a RangeError naming the zone when it is not a time zone Intl knows. */
export function checkTimeZone(zone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new RangeError(`--timezone: unknown time zone '${zone}' (an IANA name such as UTC or Europe/Paris)`);
  }
}

/** Whether text is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** Turns times into calendar keys in one time zone, with a cache per distinct time. */
export class Calendar {
  private format: Intl.DateTimeFormat | undefined;
  private readonly days = new Map<string, string>();

  /** @param zone an IANA time zone; undefined for the local zone. */
  constructor(private readonly zone?: string) {}

  /** YYYY-MM-DD in the zone, or `unknown`. */
  day(time: string | null): string {
    if (time === null) return 'unknown';
    let day = this.days.get(time);
    if (day === undefined) {
      const ms = Date.parse(time);
      // A wall-clock time read in the zone is on the day it names.
      if (isWallTime(time)) day = time.slice(0, 10);
      else if (Number.isNaN(ms) || !OFFSET_RE.test(time)) day = 'unknown';
      else {
        // Built on first use: Intl formats are slow to create.
        this.format ??= new Intl.DateTimeFormat('en-CA', { timeZone: this.zone, year: 'numeric', month: '2-digit', day: '2-digit' });
        const parts = this.format.formatToParts(new Date(ms));
        const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '??';
        day = `${get('year')}-${get('month')}-${get('day')}`;
      }
      if (this.days.size > 100_000) this.days.clear();
      this.days.set(time, day);
    }
    return day;
  }

  /** ISO week (YYYY-Www) of the day in the zone, or `unknown`. */
  week(time: string | null): string {
    const day = this.day(time);
    return day === 'unknown' ? day : isoWeek(day);
  }

  /** YYYY-MM in the zone, or `unknown`. */
  month(time: string | null): string {
    const day = this.day(time);
    return day === 'unknown' ? day : day.slice(0, 7);
  }
}

/** ISO 8601 week of a YYYY-MM-DD day: weeks start on Monday; week 1 holds the year's first Thursday. */
export function isoWeek(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0
  date.setUTCDate(date.getUTCDate() - weekday + 3); // the Thursday of this week
  const year = date.getUTCFullYear();
  // The week's Thursday lies in the week's year; its day of the year gives the week.
  const week = Math.floor((date.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}
