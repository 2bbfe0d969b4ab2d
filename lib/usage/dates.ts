/**
 * Where a unit's time comes from and how it becomes a day, week or month.
 *
 * The producer writes no timestamps. A unit's time is a timestamp field of
 * its events when one is present (`timestamp`, `ts` or `time`: ISO 8601 or
 * epoch seconds/milliseconds), else the input file's modification time, else
 * (stdin from a pipe) the time of the report. Days are calendar days in the
 * `--timezone` (an IANA name; default the local zone), weeks are ISO weeks
 * (`2026-W49`, Monday first), months `2026-12`.
 */
import fs from 'node:fs';

/** Milliseconds since the epoch of a timestamp field (ISO string, or epoch seconds / milliseconds). */
export function timeOfValue(value: unknown): number | undefined {
  let ms: number;
  if (typeof value === 'number' && Number.isFinite(value)) ms = value < 1e11 ? value * 1000 : value;
  else if (typeof value === 'string' && value !== '') ms = Date.parse(value);
  else return undefined;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  return ms;
}

/** The time of an event's timestamp field, as ISO 8601 UTC; undefined when it has none. */
export function eventTime(event: Record<string, unknown>): string | undefined {
  const ms = timeOfValue(event.timestamp) ?? timeOfValue(event.ts) ?? timeOfValue(event.time);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** A file's modification time (ISO 8601 UTC); for stdin (or a pipe) the current time. */
export function fileTime(file: string): string | null {
  try {
    if (file === '-' || file === '<stdin>') return new Date().toISOString();
    const stat = fs.statSync(file);
    return stat.isFile() ? stat.mtime.toISOString() : new Date().toISOString();
  } catch {
    return null;
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
      if (Number.isNaN(ms)) day = 'unknown';
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
