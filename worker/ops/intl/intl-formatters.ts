// The host's ICU formatters behind the guest Intl shim (worker/guest/intl.js). A guest formatter
// is a spec — [kind, locales, options] as JSON — and the host keeps one real Intl object per
// spec, so repeated formatting costs a lookup instead of a formatter construction (~50–150 µs
// in V8 for toLocaleString with options, ~1 µs with a cached formatter).
import { createHash } from 'node:crypto';
import { ByteLru } from '../../../shared/image-lru.ts';
import { OpError } from '../op-types.ts';

export const INTL_KINDS = {
  NumberFormat: Intl.NumberFormat,
  DateTimeFormat: Intl.DateTimeFormat,
  Collator: Intl.Collator,
  PluralRules: Intl.PluralRules,
  RelativeTimeFormat: Intl.RelativeTimeFormat,
  ListFormat: Intl.ListFormat,
} as const;

export type IntlKind = keyof typeof INTL_KINDS;

/**
 * Spec kinds: the Intl constructors, plus the date formatters behind Date#toLocaleString,
 * #toLocaleDateString and #toLocaleTimeString, which add their own defaults to the options.
 */
export type SpecKind = IntlKind | 'DateAny' | 'DateOnly' | 'TimeOnly';

/**
 * The formatter cache's budget. Specs come from scripts (a script can put a megabyte string into
 * the options), so entries are counted in bytes: the spec's UTF-16 size plus an estimate of what
 * an ICU formatter holds natively.
 */
export const FORMATTER_CACHE_BYTES = 8 * 1024 * 1024;
export const FORMATTER_COST_BYTES = 16 * 1024;
interface Entry { readonly kind: SpecKind; readonly formatter: object }

export function isIntlKind(k: unknown): k is IntlKind {
  return typeof k === 'string' && Object.hasOwn(INTL_KINDS, k);
}

function isSpecKind(k: unknown): k is SpecKind {
  return isIntlKind(k) || k === 'DateAny' || k === 'DateOnly' || k === 'TimeOnly';
}

/** Locales as the guest may pass them: undefined, a tag, or a list of tags. */
export function checkLocales(l: unknown): string | string[] | undefined {
  if (l === undefined || l === null) return undefined;
  if (typeof l === 'string') return l;
  if (Array.isArray(l) && l.every((x) => typeof x === 'string')) return l as string[];
  throw new OpError('Intl: locales must be a string or an array of strings', 'TypeError');
}

/** Options as plain data: the guest copies own enumerable primitive properties. */
export function checkOptions(o: unknown): Record<string, unknown> | undefined {
  if (o === undefined || o === null) return undefined;
  if (typeof o !== 'object' || Array.isArray(o)) throw new OpError('Intl: options must be an object', 'TypeError');
  return o as Record<string, unknown>;
}

const DATE_FIELDS = ['weekday', 'year', 'month', 'day'];
const TIME_FIELDS = ['dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits'];

/** ECMA-402 ToDateTimeOptions / CreateDateTimeFormat defaults for the Date toLocale* methods. */
function dateDefaults(options: Record<string, unknown> | undefined, required: 'any' | 'date' | 'time', defaults: 'all' | 'date' | 'time'): Record<string, unknown> {
  const o: Record<string, unknown> = { ...options };
  let needDefaults = true;
  if (required !== 'time' && DATE_FIELDS.some((f) => o[f] !== undefined)) needDefaults = false;
  if (required !== 'date' && TIME_FIELDS.some((f) => o[f] !== undefined)) needDefaults = false;
  if (o['dateStyle'] !== undefined || o['timeStyle'] !== undefined) needDefaults = false;
  if (required === 'date' && o['timeStyle'] !== undefined) throw new OpError('Invalid option : timeStyle', 'TypeError');
  if (required === 'time' && o['dateStyle'] !== undefined) throw new OpError('Invalid option : dateStyle', 'TypeError');
  if (needDefaults && defaults !== 'time') { o['year'] = 'numeric'; o['month'] = 'numeric'; o['day'] = 'numeric'; }
  if (needDefaults && defaults !== 'date') { o['hour'] = 'numeric'; o['minute'] = 'numeric'; o['second'] = 'numeric'; }
  return o;
}

/** Runs `fn`, turning the host's Intl exceptions into errors the guest sees with the same name. */
export function asGuestError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof OpError) throw e;
    if (e instanceof Error) throw new OpError(e.message, e.name === 'RangeError' || e.name === 'TypeError' ? e.name : 'Error');
    throw e;
  }
}

function construct(kind: SpecKind, locales: string | string[] | undefined, options: Record<string, unknown> | undefined): object {
  return asGuestError(() => {
    switch (kind) {
      case 'DateAny': return new Intl.DateTimeFormat(locales, dateDefaults(options, 'any', 'all'));
      case 'DateOnly': return new Intl.DateTimeFormat(locales, dateDefaults(options, 'date', 'date'));
      case 'TimeOnly': return new Intl.DateTimeFormat(locales, dateDefaults(options, 'time', 'time'));
      default: {
        const Ctor = INTL_KINDS[kind] as unknown as new (l?: string | string[], o?: Record<string, unknown>) => object;
        return new Ctor(locales, options);
      }
    }
  });
}

/** One worker's formatters, least recently used evicted first, bounded in bytes. */
export class FormatterCache {
  readonly #cache = new ByteLru<Entry>(FORMATTER_CACHE_BYTES, Number.MAX_SAFE_INTEGER);

  get size(): number {
    return this.#cache.size;
  }

  /** Bytes the cached entries are counted as (at most FORMATTER_CACHE_BYTES). */
  get bytes(): number {
    return this.#cache.bytes;
  }

  /**
   * The host formatter for a spec string `[kind, locales, options]`, created once and cached; a
   * cache hit costs one Map lookup (the spec is parsed only to build a formatter).
   */
  formatterFor(spec: unknown): Entry {
    if (typeof spec !== 'string') throw new OpError('Intl: malformed formatter spec', 'TypeError');
    const key = cacheKey(spec);
    const hit = this.#cache.get(key);
    if (hit !== undefined) return hit;
    const entry = buildEntry(spec);
    this.#cache.set(key, entry, key.length * 2 + FORMATTER_COST_BYTES);
    return entry;
  }
}

/** Specs longer than this are cached under their digest (see cacheKey). */
const LONG_SPEC = 1024;

/**
 * A spec's cache key: itself, or for a long one (options carrying large strings) its SHA-256.
 * The cache outlives V8's young generation, so a key it holds is promoted and freed only by a
 * full collection; long keys by the thousand would pile up there as garbage after eviction
 * (measured: 10,000 distinct 40 KB specs grew the worker by 170 MB) and trip the memory watchdog.
 */
function cacheKey(spec: string): string {
  return spec.length <= LONG_SPEC ? spec : `#${createHash('sha256').update(spec).digest('base64')}`;
}

function buildEntry(spec: string): Entry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(spec);
  } catch {
    throw new OpError('Intl: malformed formatter spec', 'TypeError');
  }
  if (!Array.isArray(parsed) || !isSpecKind(parsed[0])) throw new OpError('Intl: unknown formatter kind', 'TypeError');
  const kind = parsed[0];
  return { kind, formatter: construct(kind, checkLocales(parsed[1]), checkOptions(parsed[2])) };
}

/**
 * A numeric value as the guest encodes it: ["n", "<Number as string>"] (round-trips exactly,
 * including -0, NaN and ±Infinity), ["b", "<BigInt digits>"], or ["s", "<decimal string>"].
 */
export function decodeNumeric(v: unknown): number | bigint | string {
  if (!Array.isArray(v) || v.length !== 2 || typeof v[1] !== 'string') throw new OpError('Intl: malformed numeric value', 'TypeError');
  switch (v[0]) {
    case 'n': return Number(v[1]);
    case 'b':
      try { return BigInt(v[1]); } catch { throw new OpError('Intl: malformed BigInt value', 'TypeError'); }
    case 's': return v[1];
    default: throw new OpError('Intl: malformed numeric value', 'TypeError');
  }
}
