/**
 * Prices and money.
 *
 * Money is an integer count of femto-dollars (1e-15 USD) in a BigInt, so
 * sums never drift however many turns are added: a price in USD per million
 * tokens with up to 9 decimals times a token count is exact in that unit.
 *
 * Built-in prices come from `@pydantic/genai-prices` (bundled data, offline),
 * loaded only when a price is needed (its data is large). That library's
 * `input_tokens` is the WHOLE prompt, with `cache_read_tokens` and
 * `cache_write_tokens` partitions of it, while the stream's `input_tokens`
 * is the uncached part: it is given input + cache_creation + cache_read.
 * When a model's price is a plain rate per token kind (most are), the cost is
 * computed exactly from those rates; otherwise (tiers by prompt size,
 * per-request fees) the library prices each turn itself and its dollar figure
 * is kept to the nano-dollar. A turn is priced as one request of its
 * cumulative counts.
 *
 * `--pricing FILE` overrides or adds models: `{"MODEL": {"input": USD,
 * "output": USD, "cache_write": USD, "cache_read": USD}}` per million tokens
 * (`input` the uncached input), keyed by model or `provider/model`.
 */
import { promptTokens } from '../events.js';
import { loadGenaiPrices } from './genai-load.js';
import type { Tokens, UsageUnit } from './types.js';

/** Rates in nano-dollars per million tokens (so rate x tokens is femto-dollars). */
export interface Rates {
  input: Rate;
  output: Rate;
  cache_write: Rate;
  cache_read: Rate;
}

/** A rate, or rates tiered by the prompt size: `price` applies once the prompt exceeds `start` tokens. */
export type Rate = bigint | { base: bigint; tiers: Array<{ start: bigint; price: bigint }> };

function isTiered(v: unknown): v is { base: number; tiers: Array<{ start: number; price: number }> } {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as { base?: unknown; tiers?: unknown };
  return typeof t.base === 'number' && Array.isArray(t.tiers) && t.tiers.every((x: { start?: unknown; price?: unknown }) => typeof x.start === 'number' && typeof x.price === 'number');
}

function toRate(v: unknown): Rate {
  if (typeof v === 'number') return nanoOf(v);
  if (isTiered(v)) {
    const tiers = v.tiers.map((x) => ({ start: BigInt(Math.floor(x.start)), price: nanoOf(x.price) }));
    tiers.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    return { base: nanoOf(v.base), tiers };
  }
  return 0n;
}

/** The rate for a prompt of `prompt` tokens (the library's rule: the last tier whose start it exceeds). */
function rateFor(rate: Rate, prompt: bigint): bigint {
  if (typeof rate === 'bigint') return rate;
  let price = rate.base;
  for (const tier of rate.tiers) if (prompt > tier.start) price = tier.price;
  return price;
}

/** A --pricing file: rates by `model` or `provider/model`. */
export type PriceTable = ReadonlyMap<string, Rates>;

/** Femto-dollars per dollar. */
export const FEMTO_PER_USD = 10n ** 15n;

/** A non-negative decimal number of USD per million tokens, as nano-dollars (exact to 9 decimals). */
export function nanoOf(usd: number): bigint {
  if (!Number.isFinite(usd) || usd < 0) throw new RangeError(`not a price: ${usd}`);
  const text = usd.toFixed(9);
  return BigInt(text.replace('.', ''));
}

const PRICE_FIELDS = ['input', 'output', 'cache_write', 'cache_read'] as const;

/**
 * Reads a pricing file: `{"MODEL": {"input": USD, "output": USD,
 * "cache_write": USD, "cache_read": USD}, ...}`, prices per million tokens.
 * Keys starting with `_` are comments. Throws an Error saying what is wrong.
 */
export function parsePricing(text: string): Map<string, Rates> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`not valid JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object of models');
  const table = new Map<string, Rates>();
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    if (model.startsWith('_')) continue;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`model '${model}': expected an object of prices`);
    const rates = {} as Rates;
    for (const field of PRICE_FIELDS) {
      const v = (entry as Record<string, unknown>)[field];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1e9) {
        throw new Error(`model '${model}': '${field}' must be a non-negative number (USD per million tokens)`);
      }
      rates[field] = nanoOf(v);
    }
    table.set(model, rates);
  }
  return table;
}

/** The cost of tokens at plain rates, in femto-dollars. */
export function costAtRates(t: Tokens, r: Rates): bigint {
  const prompt = promptTokens(t);
  return (
    t.input_tokens * rateFor(r.input, prompt) +
    t.cache_creation_tokens * rateFor(r.cache_write, prompt) +
    t.cache_read_tokens * rateFor(r.cache_read, prompt) +
    t.output_tokens * rateFor(r.output, prompt)
  );
}

type GenaiPrices = typeof import('@pydantic/genai-prices');
let genai: GenaiPrices | undefined;

declare const __WUU_BUNDLE__: boolean | undefined;

/**
 * The price library, loaded on first use (synchronously, from its CommonJS
 * build); in a bundled binary with the code cache the build wrote next to it
 * (genai-load.ts).
 */
function library(): GenaiPrices {
  genai ??= loadGenaiPrices<GenaiPrices>(import.meta.url, typeof __WUU_BUNDLE__ === 'boolean' ? new URL('./genai-prices.cache', import.meta.url) : undefined);
  return genai;
}

/** How one (provider, model) is priced. */
type Route =
  | { kind: 'rates'; rates: Rates; source: string }
  | { kind: 'library'; model: string; providerId: string | undefined; source: string }
  | { kind: 'none' };

/** The token kinds of the library's standard pricing that a wuu turn can use. */
/** The library's usage object for a turn: its input_tokens is the whole prompt. */
export function libraryUsage(t: Tokens): { input_tokens: number; cache_write_tokens: number; cache_read_tokens: number; output_tokens: number } {
  return {
    input_tokens: Number(promptTokens(t)),
    cache_write_tokens: Number(t.cache_creation_tokens),
    cache_read_tokens: Number(t.cache_read_tokens),
    output_tokens: Number(t.output_tokens),
  };
}

/**
 * Prices units: `--pricing` entries first (`provider/model`, then `model`),
 * then the built-in prices. Remembers the models it could not price.
 */
export class Pricer {
  private readonly routes = new Map<string, Route>();
  /** Models (as `provider/model` or `model`) with usage and no price. */
  readonly unknown = new Set<string>();

  constructor(
    private readonly table: PriceTable = new Map(),
    private readonly builtin = true,
  ) {}

  /** The cost of a unit in femto-dollars, or null when its model has no price. */
  cost(unit: UsageUnit): bigint | null {
    const route = this.route(unit.provider, unit.model);
    if (route.kind === 'none') {
      this.unknown.add(modelName(unit.provider, unit.model));
      return null;
    }
    if (route.kind === 'rates') return costAtRates(unit, route.rates);
    const result = safeCalc(library(), libraryUsage(unit), route.model, route.providerId);
    if (result === null) return null;
    return BigInt(Math.round(result.total_price * 1e9)) * 1_000_000n;
  }

  /** The last route asked for: units come by run, and a run's units share their model. */
  private last: { provider: string; model: string; route: Route } | undefined;

  private route(provider: string, model: string): Route {
    const last = this.last;
    if (last !== undefined && last.provider === provider && last.model === model) return last.route;
    const route = this.routeOf(provider, model);
    this.last = { provider, model, route };
    return route;
  }

  private routeOf(provider: string, model: string): Route {
    const key = `${provider}\u0000${model}`;
    let route = this.routes.get(key);
    if (route === undefined) {
      route = this.find(provider, model);
      this.routes.set(key, route);
    }
    return route;
  }

  private find(provider: string, model: string): Route {
    const own = (provider !== '' ? this.table.get(`${provider}/${model}`) : undefined) ?? this.table.get(model);
    if (own !== undefined) return { kind: 'rates', rates: own, source: 'pricing file' };
    if (!this.builtin || model === '' || model === 'unknown') return { kind: 'none' };
    const lib = library();
    const probe = { input_tokens: 0, output_tokens: 0 };
    let providerId: string | undefined = provider !== '' ? provider : undefined;
    let found = safeCalc(lib, probe, model, providerId);
    if (found === null && providerId !== undefined) {
      // A provider the library does not know (a proxy, a custom name): match by model alone.
      providerId = undefined;
      found = safeCalc(lib, probe, model, undefined);
    }
    if (found === null) return { kind: 'none' };
    const source = `${found.provider.id}/${found.model.id}`;
    // The price in force now (calcPrice resolved any date constraint): plain
    // rates, or rates tiered by the prompt size, are computed exactly here;
    // anything else (per-request fees) is left to the library, turn by turn.
    const prices = found.model_price as Record<string, unknown>;
    const plain = Object.entries(prices).every(([k, v]) => v === undefined || (k.startsWith('request') ? false : typeof v === 'number' || isTiered(v)));
    const input = prices.input_mtok;
    if (plain && input !== undefined) {
      const rate = (k: string, fallback: unknown) => toRate(prices[k] ?? fallback);
      return {
        kind: 'rates',
        source,
        // The library charges an unpriced cache partition at the input rate.
        rates: { input: toRate(input), output: rate('output_mtok', 0), cache_write: rate('cache_write_mtok', input), cache_read: rate('cache_read_mtok', input) },
      };
    }
    return { kind: 'library', model, providerId, source };
  }
}

function safeCalc(lib: GenaiPrices, usage: Record<string, number>, model: string, providerId: string | undefined) {
  try {
    return lib.calcPrice(usage, model, providerId === undefined ? {} : { providerId });
  } catch {
    return null;
  }
}

/** How a model is named in messages: `provider/model`, or the model alone. */
export function modelName(provider: string, model: string): string {
  return provider !== '' ? `${provider}/${model}` : model;
}

/** The largest femto-dollar count a double holds exactly (about $9). */
const SAFE_FEMTO = BigInt(Number.MAX_SAFE_INTEGER);

/** Exact decimal text of femto-dollars (`0.003765`, `12`), for machines. */
export function usdDecimal(femto: bigint): string {
  // Most costs (a turn's, a run's) are under $9: done in doubles, exact for
  // integers below 2^53, without the BigInt divisions (the report writes one
  // per unit and row).
  if (femto >= 0n && femto <= SAFE_FEMTO) return usdDecimalSafe(Number(femto));
  const neg = femto < 0n;
  const abs = neg ? -femto : femto;
  const whole = abs / FEMTO_PER_USD;
  let frac = (abs % FEMTO_PER_USD).toString().padStart(15, '0');
  let cut = frac.length;
  while (cut > 0 && frac.charCodeAt(cut - 1) === 48) cut--;
  frac = frac.slice(0, cut);
  return `${neg ? '-' : ''}${whole}${frac === '' ? '' : `.${frac}`}`;
}

/** {@link usdDecimal} of a safe non-negative integer count of femto-dollars: the same text. */
function usdDecimalSafe(femto: number): string {
  // `%` of doubles is exact, and so is the division of a multiple of 1e15.
  let frac = femto % 1e15;
  const whole = (femto - frac) / 1e15;
  if (frac === 0) return String(whole);
  // Trailing zeros dropped as digits of the number: each division by ten is exact.
  let width = 15;
  while (frac % 10 === 0) {
    frac /= 10;
    width--;
  }
  return `${whole}.${String(frac).padStart(width, '0')}`;
}

/** Digits with thousands separators. */
export function groupDigits(n: bigint | number | string): string {
  const s = String(n);
  return s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Dollars for people: to the cent with thousands separators (`$1,234.57`);
 * under a cent, two significant digits (`$0.0042`); zero is `$0.00`.
 */
export function usdHuman(femto: bigint): string {
  if (femto === 0n) return '$0.00';
  const cent = FEMTO_PER_USD / 100n;
  if (femto < cent) {
    // Two significant digits, rounded half up.
    const digits = femto.toString().length; // femto < 1e13
    const scale = 10n ** BigInt(Math.max(0, digits - 2));
    const rounded = ((femto + scale / 2n) / scale) * scale;
    const text = usdDecimal(rounded);
    return `$${text}`;
  }
  const cents = (femto + cent / 2n) / cent;
  return `$${groupDigits(cents / 100n)}.${(cents % 100n).toString().padStart(2, '0')}`;
}
