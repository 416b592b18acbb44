// Comparison and arithmetic: `==` `!=` `<` … (any two values, by Rego's total order), `+ - * / %`,
// and the number helpers. `-` on two sets is set difference, as in OPA.
import { compare, equal, RegoSet, type Value } from '../values.ts';
import { fail, int, num, set, type BuiltinTable } from './kit.ts';

const arith = (f: (a: number, b: number) => number) => ({ arity: 2, fn: (a: readonly Value[]) => f(num(a, 0), num(a, 1)) });

export const COMPARISON: BuiltinTable = {
  equal: { arity: 2, fn: (a) => equal(a[0]!, a[1]!) },
  neq: { arity: 2, fn: (a) => !equal(a[0]!, a[1]!) },
  lt: { arity: 2, fn: (a) => compare(a[0]!, a[1]!) < 0 },
  lte: { arity: 2, fn: (a) => compare(a[0]!, a[1]!) <= 0 },
  gt: { arity: 2, fn: (a) => compare(a[0]!, a[1]!) > 0 },
  gte: { arity: 2, fn: (a) => compare(a[0]!, a[1]!) >= 0 },
  plus: arith((x, y) => x + y),
  minus: {
    arity: 2,
    fn: (a) => {
      if (a[0] instanceof RegoSet && a[1] instanceof RegoSet) {
        const right = a[1];
        return new RegoSet(a[0].sorted().filter((v) => !right.has(v)));
      }
      if (a[0] instanceof RegoSet || a[1] instanceof RegoSet) set(a, a[0] instanceof RegoSet ? 1 : 0);
      return num(a, 0) - num(a, 1);
    },
  },
  mul: arith((x, y) => x * y),
  div: arith((x, y) => (y === 0 ? fail('divide by zero') : x / y)),
  rem: {
    arity: 2,
    fn: (a) => {
      const x = int(a, 0);
      const y = int(a, 1);
      if (y === 0) fail('modulo by zero');
      return x % y;
    },
  },
  abs: { arity: 1, fn: (a) => Math.abs(num(a, 0)) },
  round: { arity: 1, fn: (a) => { const x = num(a, 0); return Math.sign(x) * Math.round(Math.abs(x)); } },
  ceil: { arity: 1, fn: (a) => Math.ceil(num(a, 0)) },
  floor: { arity: 1, fn: (a) => Math.floor(num(a, 0)) },
  'numbers.range': {
    arity: 2,
    fn: (a, ctx) => {
      const x = int(a, 0);
      const y = int(a, 1);
      const out: Value[] = [];
      const step = x <= y ? 1 : -1;
      for (let i = x; ; i += step) {
        ctx.tick();
        out.push(i);
        if (i === y) break;
      }
      return out;
    },
  },
  to_number: {
    arity: 1,
    fn: (a) => {
      const v = a[0]!;
      if (v === null) return 0;
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'number') return v;
      if (typeof v === 'string') {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n)) fail(`invalid syntax: ${JSON.stringify(v)}`);
        return n;
      }
      return fail('operand 1 must be one of {null, boolean, number, string}');
    },
  },
};
