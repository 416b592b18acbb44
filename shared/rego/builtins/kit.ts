// What a built-in is, and the operand checks they share. A built-in gets its arguments as values
// and returns a value, or undefined (the call is undefined); it throws BuiltinError for a bad
// operand, which makes the expression undefined unless evaluation is strict (OPA's default).
import { BuiltinError } from '../errors.ts';
import { RegoObject, RegoSet, typeName, type Value } from '../values.ts';

export interface BuiltinContext {
  /** `time.now_ns()`: fixed for one query. */
  readonly nowNs: number;
  /** Counts one step against the query's budget (built-ins that loop over large inputs call it). */
  tick(): void;
  /** Compiled patterns, kept per policy (a pattern is validated and compiled once). */
  readonly patterns: Map<string, RegExp>;
}

export interface Builtin {
  /** -1: any number of arguments (print). */
  readonly arity: number;
  readonly fn: (args: readonly Value[], ctx: BuiltinContext) => Value | undefined;
}

export type BuiltinTable = Record<string, Builtin>;

const expected = (i: number, want: string, got: Value): BuiltinError =>
  new BuiltinError(`operand ${i + 1} must be ${want} but got ${typeName(got)}`, 'type');

export function str(args: readonly Value[], i: number): string {
  const v = args[i]!;
  if (typeof v !== 'string') throw expected(i, 'string', v);
  return v;
}

export function num(args: readonly Value[], i: number): number {
  const v = args[i]!;
  if (typeof v !== 'number') throw expected(i, 'number', v);
  return v;
}

export function int(args: readonly Value[], i: number): number {
  const v = num(args, i);
  if (!Number.isInteger(v)) throw new BuiltinError(`operand ${i + 1} must be integer number but got floating-point number`, 'type');
  return v;
}

export function arr(args: readonly Value[], i: number): Value[] {
  const v = args[i]!;
  if (!Array.isArray(v)) throw expected(i, 'array', v);
  return v;
}

export function obj(args: readonly Value[], i: number): RegoObject {
  const v = args[i]!;
  if (!(v instanceof RegoObject)) throw expected(i, 'object', v);
  return v;
}

export function set(args: readonly Value[], i: number): RegoSet {
  const v = args[i]!;
  if (!(v instanceof RegoSet)) throw expected(i, 'set', v);
  return v;
}

export function bool(args: readonly Value[], i: number): boolean {
  const v = args[i]!;
  if (typeof v !== 'boolean') throw expected(i, 'boolean', v);
  return v;
}

/** An array or a set, as a list (sets in sorted order). */
export function list(args: readonly Value[], i: number, what = 'array or set'): Value[] {
  const v = args[i]!;
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  throw expected(i, what, v);
}

export function fail(msg: string): never {
  throw new BuiltinError(msg);
}
