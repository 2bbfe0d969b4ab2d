/**
 * Small formatting helpers shared by the three renderers (terminal,
 * Markdown, HTML): counts, sizes, durations, compact values. Making text
 * safe is not done here: that is lib/text.ts (terminal) and each document
 * renderer's own escaping.
 */
import { escapeControls, truncateDisplay } from '../text.js';

/** 12345 -> "12,345" (fixed format, whatever the locale). */
export function formatCount(n: number): string {
  const text = String(Math.trunc(n));
  return text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `3 lines`, `1 line`. */
export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** 1536 -> "1.5 KB" (powers of 1024, one decimal under 10). */
export function formatBytes(n: number): string {
  if (n < 1024) return plural(n, 'byte');
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = -1;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** Milliseconds as `0.4s`, `12s`, `2m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)}s`;
  if (s < 60) return `${Math.floor(s)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Clips to `max` terminal columns, marking a cut with `…` (East Asian Width aware). */
export function clip(text: string, max: number): string {
  if (max === Number.POSITIVE_INFINITY) return text;
  return truncateDisplay(text, max);
}

/** A string field, or '' when absent or not a string. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The first value of an iterable (a Map's or Set's oldest entry), or undefined when it has none. */
export function first<T>(values: Iterable<T>): T | undefined {
  for (const value of values) return value;
  return undefined;
}

/** Drops the oldest entries of a Map or Set (insertion order) until it holds fewer than `max`: bounded state. */
export function dropOldest(collection: Map<unknown, unknown> | Set<unknown>, max: number): void {
  for (const key of collection.keys()) {
    if (collection.size < max) return;
    collection.delete(key);
  }
}

/** A finite number field, or 0. */
export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Expands tabs to 8-column stops, as a terminal shows them. */
export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let column = 0;
  for (const ch of line) {
    if (ch === '\t') {
      const pad = 8 - (column % 8);
      out += ' '.repeat(pad);
      column += pad;
    } else {
      out += ch;
      column++;
    }
  }
  return out;
}

/** A compact one-line rendering of any JSON value (escaped for a terminal). */
export function compactValue(value: unknown, max: number): string {
  if (typeof value === 'string') {
    if (value.includes('\n')) return `<${plural(value.split('\n').length, 'line')}>`;
    return clip(escapeControls(/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)), max);
  }
  if (value === undefined) return '';
  return clip(escapeControls(JSON.stringify(value) ?? String(value)), max);
}

/** `key=value key=value`, skipping the given keys and empty values. */
export function keyValues(object: Record<string, unknown>, skip: ReadonlySet<string>, valueMax: number): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (skip.has(key)) continue;
    if (value === '' || value === null || value === false || value === 0 || value === undefined) continue;
    parts.push(`${escapeControls(key)}=${compactValue(value, valueMax)}`);
  }
  return parts.join(' ');
}

/** The first line of a text, with a visible marker counting the lines left out. */
export function firstLineMarked(text: string): string {
  const trimmed = text.trim();
  const at = trimmed.indexOf('\n');
  if (at < 0) return trimmed;
  let lines = 1;
  for (let i = at; i >= 0; i = trimmed.indexOf('\n', i + 1)) lines++;
  return `${trimmed.slice(0, at).trimEnd()} …(+${plural(lines - 1, 'line')})`;
}

/** Capitalizes the first letter. */
export function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
