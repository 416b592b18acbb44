// Every built-in by name. The compiler refuses a call to a name not listed here (a load-time
// error naming it); the evaluator looks the function up here.
import { COLLECTIONS } from './collections.ts';
import { COMPARISON } from './comparison.ts';
import { ENCODING } from './encoding.ts';
import { GLOB_NET } from './glob-net.ts';
import type { Builtin } from './kit.ts';
import { REGEX } from './regex.ts';
import { STRINGS } from './strings.ts';
import { TIME_UNITS } from './time-units.ts';
import { TYPES } from './types.ts';

export type { Builtin, BuiltinContext } from './kit.ts';

/** `print` is evaluated by the evaluator itself (an undefined argument must not fail it). */
const PRINT: Builtin = { arity: -1, fn: () => true };

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(Object.entries({
  ...COMPARISON, ...COLLECTIONS, ...STRINGS, ...REGEX, ...GLOB_NET, ...ENCODING, ...TIME_UNITS, ...TYPES, print: PRINT,
}));

export const BUILTIN_ARITY: ReadonlyMap<string, number> = new Map([...BUILTINS].map(([k, b]) => [k, b.arity]));
