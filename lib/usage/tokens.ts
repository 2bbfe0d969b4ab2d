/**
 * Reading token counts exactly. The producer writes every counter as a plain
 * JSON integer; JSON.parse turns one beyond 2^53 into an inexact float, so
 * such a value is read again as digits from the line's own bytes. Anything
 * that is not a non-negative integer (negative, a string, a fraction, 1e400,
 * null) is odd: the event is reported and not counted.
 */
import { TOKEN_FIELDS } from '../events.js';
import type { Tokens } from './types.js';

/** Token fields as the stream names them, in the order they are checked. */
const FIELDS = TOKEN_FIELDS;

/** The name of a token field. */
export type TokenField = (typeof FIELDS)[number];

/** Why a value is not a token count, or undefined when it is one. */
function oddness(value: unknown): string | undefined {
  if (typeof value === 'string') return 'a string';
  if (typeof value !== 'number') return value === null ? 'null' : `a ${Array.isArray(value) ? 'array' : typeof value}`;
  if (!Number.isFinite(value)) return 'out of range';
  if (!Number.isInteger(value)) return 'a fraction';
  if (value < 0) return 'negative';
  return undefined;
}

/** The digits of a top-level `"field":` number in the raw line, when they are plain digits. */
function rawDigits(raw: Buffer | undefined, field: string): string | undefined {
  if (raw === undefined) return undefined;
  const text = raw.toString('latin1');
  const at = text.lastIndexOf(`"${field}":`);
  if (at < 0) return undefined;
  const m = /^\s*(-?[0-9][0-9.eE+-]*)/.exec(text.slice(at + field.length + 3, at + field.length + 3 + 400));
  const digits = m?.[1];
  return digits !== undefined && /^(0|[1-9][0-9]*)$/.test(digits) ? digits : undefined;
}

/** One token value as an exact BigInt, or the reason it is odd. */
export function tokenValue(value: unknown, raw: Buffer | undefined, field: string): bigint | string {
  if (value === undefined) return 0n; // turn_completed carries no cache fields
  const odd = oddness(value);
  if (odd !== undefined) return `${field} is ${odd} (${shortJson(value)})`;
  const n = value as number;
  if (Number.isSafeInteger(n)) return BigInt(n);
  const digits = rawDigits(raw, field);
  if (digits !== undefined && Number(digits) === n) return BigInt(digits);
  return `${field} is not an integer written as digits (${shortJson(value)})`;
}

function shortJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (typeof value === 'number' && !Number.isFinite(value)) text = String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * The token counts of an event, exactly; or the list of what is odd about
 * them (then the event must not be counted).
 */
export function readTokens(event: Record<string, unknown>, raw: Buffer | undefined, fields: readonly TokenField[] = FIELDS): Tokens | string[] {
  return plainTokens(event, fields) ?? readTokensField(event, raw, fields);
}

/**
 * The producer's case of {@link readTokens}, which needs no raw line: each
 * field a small non-negative integer (or, on a turn_completed, the cache
 * fields absent). Read by name, one BigInt per field, no per-field loop.
 * Undefined for anything else (then readTokensField decides).
 */
export function plainTokens(event: Record<string, unknown>, fields: readonly TokenField[] = FIELDS): Tokens | undefined {
  const input = event.input_tokens;
  const output = event.output_tokens;
  if (isCount(input) && isCount(output)) {
    if (fields === FIELDS) {
      const write = event.cache_creation_tokens;
      const read = event.cache_read_tokens;
      if (isCount(write) && isCount(read)) return { input_tokens: bigOf(input), cache_creation_tokens: bigOf(write), cache_read_tokens: bigOf(read), output_tokens: bigOf(output) };
    } else if (fields.length === 2 && fields[0] === 'input_tokens' && fields[1] === 'output_tokens') {
      return { input_tokens: bigOf(input), cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: bigOf(output) };
    }
  }
  return undefined;
}

/** A plain count: a safe non-negative integer (own member of a parsed event, so no prototype is read). */
function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A count as a BigInt (zero, common in cache fields, without a conversion). */
function bigOf(n: number): bigint {
  return n === 0 ? 0n : BigInt(n);
}

/** {@link readTokens} field by field: odd values named, counts beyond 2^53 read from the raw digits. */
export function readTokensField(event: Record<string, unknown>, raw: Buffer | undefined, fields: readonly TokenField[]): Tokens | string[] {
  const out: Tokens = { input_tokens: 0n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 0n };
  let problems: string[] | undefined;
  for (const f of fields) {
    const value = Object.prototype.hasOwnProperty.call(event, f) ? event[f] : undefined;
    // The producer's case, on every counted event: a small non-negative integer.
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
      out[f] = BigInt(value);
      continue;
    }
    const v = tokenValue(value, raw, f);
    if (typeof v === 'string') (problems ??= []).push(v);
    else out[f] = v;
  }
  return problems ?? out;
}
