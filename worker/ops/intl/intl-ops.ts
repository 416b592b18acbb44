// Intl for engines that lack it (QuickJS): the guest shim (worker/guest/intl.js) forwards every
// formatting call here, to the host's ICU, so scripts format the same on both engines.
// Validate → act (on a cached host formatter) → map the host's RangeError/TypeError to the guest.
import { OpError, type OpFactory } from '../op-types.ts';
import { INTL_KINDS, asGuestError, checkLocales, checkOptions, decodeNumeric, FormatterCache, isIntlKind, type SpecKind } from './intl-formatters.ts';

interface CallArgs {
  readonly s: unknown;
  readonly m: unknown;
  readonly a: unknown;
}

function record(args: unknown, what: string): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new OpError(`${what} expects an object`, 'TypeError');
  return args as Record<string, unknown>;
}

function str(v: unknown): string {
  if (typeof v !== 'string') throw new OpError('Intl: expected a string argument', 'TypeError');
  return v;
}

function time(v: unknown): number {
  const t = decodeNumeric(v);
  return typeof t === 'number' ? t : Number(t);
}

type Method = (f: never, a: readonly unknown[]) => unknown;

/** The methods a guest may call per kind, with their argument decoding. */
const METHODS: Record<string, Record<string, Method>> = {
  NumberFormat: {
    format: (f: Intl.NumberFormat, a) => f.format(decodeNumeric(a[0]) as number),
    formatToParts: (f: Intl.NumberFormat, a) => f.formatToParts(decodeNumeric(a[0]) as number),
    formatRange: (f: Intl.NumberFormat, a) => f.formatRange(decodeNumeric(a[0]) as number, decodeNumeric(a[1]) as number),
    formatRangeToParts: (f: Intl.NumberFormat, a) => f.formatRangeToParts(decodeNumeric(a[0]) as number, decodeNumeric(a[1]) as number),
  },
  DateTimeFormat: {
    format: (f: Intl.DateTimeFormat, a) => f.format(time(a[0])),
    formatToParts: (f: Intl.DateTimeFormat, a) => f.formatToParts(time(a[0])),
    formatRange: (f: Intl.DateTimeFormat, a) => f.formatRange(time(a[0]), time(a[1])),
    formatRangeToParts: (f: Intl.DateTimeFormat, a) => f.formatRangeToParts(time(a[0]), time(a[1])),
  },
  Collator: {
    compare: (f: Intl.Collator, a) => f.compare(str(a[0]), str(a[1])),
  },
  PluralRules: {
    select: (f: Intl.PluralRules, a) => f.select(decodeNumeric(a[0]) as number),
    // selectRange is in V8 but not yet in TypeScript's lib.
    selectRange: (f: Intl.PluralRules & { selectRange(x: number, y: number): string }, a) => f.selectRange(decodeNumeric(a[0]) as number, decodeNumeric(a[1]) as number),
  },
  RelativeTimeFormat: {
    format: (f: Intl.RelativeTimeFormat, a) => f.format(decodeNumeric(a[0]) as number, str(a[1]) as Intl.RelativeTimeFormatUnit),
    formatToParts: (f: Intl.RelativeTimeFormat, a) => f.formatToParts(decodeNumeric(a[0]) as number, str(a[1]) as Intl.RelativeTimeFormatUnit),
  },
  ListFormat: {
    format: (f: Intl.ListFormat, a) => f.format(strings(a[0])),
    formatToParts: (f: Intl.ListFormat, a) => f.formatToParts(strings(a[0])),
  },
};

function strings(v: unknown): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new OpError('Iterable yielded a non-string value', 'TypeError');
  return v as string[];
}

function methodsOf(kind: SpecKind): Record<string, Method> {
  return METHODS[kind === 'DateAny' || kind === 'DateOnly' || kind === 'TimeOnly' ? 'DateTimeFormat' : kind]!;
}

export const createIntlOps: OpFactory = () => {
  const formatters = new FormatterCache();
  return {
    /** Creates (or finds) the formatter for a spec and returns its resolvedOptions(). */
    'intl.resolve': {
      kind: 'sync',
      run(args) {
        const { formatter } = formatters.formatterFor(record(args, 'intl.resolve')['s']);
        return (formatter as { resolvedOptions(): unknown }).resolvedOptions();
      },
    },
    /** Calls a formatting method: { s: spec, m: method, a: encoded arguments }. */
    'intl.call': {
      kind: 'sync',
      run(args) {
        const { s, m, a } = record(args, 'intl.call') as unknown as CallArgs;
        const { kind, formatter } = formatters.formatterFor(s);
        const methods = methodsOf(kind);
        if (typeof m !== 'string' || !Object.hasOwn(methods, m)) throw new OpError(`Intl: ${String(m)} is not a method of ${kind}`, 'TypeError');
        if (!Array.isArray(a)) throw new OpError('Intl: malformed arguments', 'TypeError');
        return asGuestError(() => methods[m]!(formatter as never, a));
      },
    },
    'intl.supported': {
      kind: 'sync',
      run(args) {
        const { k, l, o } = record(args, 'intl.supported');
        if (!isIntlKind(k)) throw new OpError('Intl: unknown formatter kind', 'TypeError');
        const supported = INTL_KINDS[k].supportedLocalesOf as (l: string | string[], o?: Record<string, unknown>) => string[];
        return asGuestError(() => supported.call(INTL_KINDS[k], checkLocales(l) ?? [], checkOptions(o)));
      },
    },
    'intl.canonical': {
      kind: 'sync',
      run(args) {
        return asGuestError(() => Intl.getCanonicalLocales(checkLocales(record(args, 'intl.canonical')['l'])));
      },
    },
    /** Intl.supportedValuesOf(key). */
    'intl.values': {
      kind: 'sync',
      run(args) {
        const { k } = record(args, 'intl.values');
        return asGuestError(() => Intl.supportedValuesOf(str(k) as Parameters<typeof Intl.supportedValuesOf>[0]));
      },
    },
    /** String#toLocaleUpperCase / #toLocaleLowerCase with a locale. */
    'intl.case': {
      kind: 'sync',
      run(args) {
        const { s, l, u } = record(args, 'intl.case');
        const locales = checkLocales(l);
        return asGuestError(() => (u === true ? str(s).toLocaleUpperCase(locales) : str(s).toLocaleLowerCase(locales)));
      },
    },
  };
};
