// Safety: every variable must be bound by some expression before an expression needs its value.
// Like OPA, the compiler reorders a body — repeatedly taking the first expression whose inputs
// are bound — so `x > 1; x = input.n` works as written the other way round, and reports
// `var x is unsafe` when no order binds it. Nested bodies (comprehensions, `every`) are ordered
// with the variables bound where they occur; rule heads must use only bound variables.
import type { Body, Expr, Term, VarTerm } from './ast.ts';
import { RegoError } from './errors.ts';
import { walkVars } from './resolve.ts';

type Bound = Set<number>;

const isLocal = (v: VarTerm): boolean => v.slot >= 0;
const isWildcard = (v: VarTerm): boolean => v.name.startsWith('_$');

/** Reorders `body` in place (and its nested bodies); returns the variables bound after it. */
export function orderBody(body: Body, bound: Bound): Bound {
  const b = new Set(bound);
  const remaining = [...body.exprs];
  const out: Expr[] = [];
  while (remaining.length > 0) {
    let picked = -1;
    let firstProblem: VarTerm | undefined;
    for (let i = 0; i < remaining.length; i++) {
      const problems = unsafeIn(remaining[i]!, b);
      if (problems.length === 0) { picked = i; break; }
      firstProblem ??= problems[0];
    }
    if (picked < 0) throw unsafe(firstProblem!);
    const e = remaining.splice(picked, 1)[0]!;
    orderNested(e, b);
    if (!e.negated && e.e !== 'every' && e.e !== 'some') for (const t of exprTerms(e)) walkVars(t, (v) => { if (isLocal(v)) b.add(v.slot); });
    out.push(e);
  }
  body.exprs = out;
  return b;
}

/** Head terms (and else values) must be computable from the body's bindings. */
export function checkHead(t: Term | undefined, bound: Bound): void {
  if (t === undefined) return;
  const problems: VarTerm[] = [];
  valueProblems(t, bound, problems);
  walkVars(t, (v) => { if (isLocal(v) && !bound.has(v.slot)) problems.push(v); });
  if (problems.length > 0) throw unsafe(problems[0]!);
}

function unsafe(v: VarTerm): RegoError {
  return new RegoError('rego_unsafe_var_error', `var ${isWildcard(v) ? '_' : v.name} is unsafe`, v.pos);
}

function exprTerms(e: Expr): Term[] {
  switch (e.e) {
    case 'term': return [e.term];
    case 'unify':
    case 'assign': return [e.a, e.b];
    case 'somein': return e.key ? [e.key, e.value, e.coll] : [e.value, e.coll];
    case 'every': return [e.coll];
    case 'some': return [];
  }
}

function unsafeIn(e: Expr, b: Bound): VarTerm[] {
  const problems: VarTerm[] = [];
  for (const w of e.with) valueProblems(w.value, b, problems);
  if (e.negated) {
    for (const t of exprTerms(e)) {
      valueProblems(t, b, problems);
      walkVars(t, (v) => { if (isLocal(v) && !isWildcard(v) && !b.has(v.slot)) problems.push(v); });
    }
    return problems;
  }
  switch (e.e) {
    case 'some': break;
    case 'term':
      if (e.term.t === 'call' && e.term.hasOutput) {
        e.term.args.slice(0, -1).forEach((a) => valueProblems(a, b, problems));
        patternProblems(e.term.args[e.term.args.length - 1]!, b, problems);
      } else {
        valueProblems(e.term, b, problems);
      }
      break;
    case 'unify':
    case 'assign': unifyProblems(e.a, e.b, b, problems); break;
    case 'somein':
      valueProblems(e.coll, b, problems);
      if (e.key) patternProblems(e.key, b, problems);
      patternProblems(e.value, b, problems);
      break;
    case 'every':
      valueProblems(e.coll, b, problems);
      closureProblems(e.body, b, problems);
      break;
  }
  return problems;
}

function unifyProblems(a: Term, c: Term, b: Bound, problems: VarTerm[]): void {
  const pa: VarTerm[] = [];
  valueProblems(a, b, pa);
  if (pa.length === 0) return patternProblems(c, b, problems);
  const pc: VarTerm[] = [];
  valueProblems(c, b, pc);
  if (pc.length === 0) return patternProblems(a, b, problems);
  if (a.t === 'array' && c.t === 'array' && a.items.length === c.items.length) {
    a.items.forEach((x, i) => unifyProblems(x, c.items[i]!, b, problems));
    return;
  }
  problems.push(...pa);
}

/** A pattern: its variables are outputs; refs, calls and comprehensions inside must be evaluable. */
function patternProblems(t: Term, b: Bound, problems: VarTerm[]): void {
  switch (t.t) {
    case 'var':
    case 'scalar': return;
    case 'array': for (const x of t.items) patternProblems(x, b, problems); return;
    case 'object': for (const [k, v] of t.entries) { valueProblems(k, b, problems); patternProblems(v, b, problems); } return;
    default: valueProblems(t, b, problems);
  }
}

/** What keeps `t` from being evaluated; unbound variables in ref keys are fine (they iterate). */
function valueProblems(t: Term, b: Bound, problems: VarTerm[]): void {
  switch (t.t) {
    case 'scalar': return;
    case 'var': if (isLocal(t) && !b.has(t.slot)) problems.push(t); return;
    case 'ref':
      valueProblems(t.head, b, problems);
      for (const p of t.path) patternProblems(p, b, problems);
      return;
    case 'array':
    case 'set': for (const x of t.items) valueProblems(x, b, problems); return;
    case 'object': for (const [k, v] of t.entries) { valueProblems(k, b, problems); valueProblems(v, b, problems); } return;
    case 'call': for (const a of t.args) valueProblems(a, b, problems); return;
    case 'acomp':
    case 'scomp':
    case 'ocomp': closureProblems(t.body, b, problems); return;
  }
}

/** A nested body's closure variables (used, not declared inside) must be bound outside. */
function closureProblems(body: Body, b: Bound, problems: VarTerm[]): void {
  const inner = new Set<number>();
  collectLocals(body, inner);
  forEachVarDeep(body, (v) => { if (isLocal(v) && !inner.has(v.slot) && !b.has(v.slot)) problems.push(v); });
}

function collectLocals(body: Body, into: Set<number>): void {
  for (const s of body.locals ?? []) into.add(s);
  for (const e of body.exprs) forEachNested(e, (nb) => collectLocals(nb, into));
}

function forEachVarDeep(body: Body, f: (v: VarTerm) => void): void {
  for (const e of body.exprs) {
    const terms = [...exprTerms(e), ...e.with.map((w) => w.value)];
    if (e.e === 'every') { if (e.key) f(e.key); f(e.value); }
    for (const t of terms) {
      walkVars(t, f);
      forEachComprehension(t, (c) => {
        if (c.t === 'ocomp') { walkVars(c.key, f); walkVars(c.value, f); } else walkVars(c.head, f);
        forEachVarDeep(c.body, f);
      });
    }
    if (e.e === 'every') forEachVarDeep(e.body, f);
  }
}

type Comprehension = Extract<Term, { t: 'acomp' | 'scomp' | 'ocomp' }>;

function forEachComprehension(t: Term, f: (c: Comprehension) => void): void {
  switch (t.t) {
    case 'acomp':
    case 'scomp':
    case 'ocomp': f(t); return;
    case 'ref': forEachComprehension(t.head, f); for (const p of t.path) forEachComprehension(p, f); return;
    case 'array':
    case 'set': for (const x of t.items) forEachComprehension(x, f); return;
    case 'object': for (const [k, v] of t.entries) { forEachComprehension(k, f); forEachComprehension(v, f); } return;
    case 'call': for (const a of t.args) forEachComprehension(a, f); return;
    default: return;
  }
}

function forEachNested(e: Expr, f: (b: Body) => void): void {
  for (const t of [...exprTerms(e), ...e.with.map((w) => w.value)]) forEachComprehension(t, (c) => f(c.body));
  if (e.e === 'every') f(e.body);
}

/** Orders the bodies nested in `e` with the variables bound before it. */
function orderNested(e: Expr, b: Bound): void {
  for (const t of [...exprTerms(e), ...e.with.map((w) => w.value)]) {
    forEachComprehension(t, (c) => {
      const after = orderBody(c.body, b);
      if (c.t === 'ocomp') { checkHead(c.key, after); checkHead(c.value, after); } else checkHead(c.head, after);
    });
  }
  if (e.e === 'every') {
    const inner = new Set(b);
    if (e.key) inner.add(e.key.slot);
    inner.add(e.value.slot);
    orderBody(e.body, inner);
  }
}

/** Orders the comprehension bodies inside a rule head term. */
export function orderHeadComprehensions(t: Term | undefined, b: Bound): void {
  if (t === undefined) return;
  forEachComprehension(t, (c) => {
    const after = orderBody(c.body, b);
    if (c.t === 'ocomp') { checkHead(c.key, after); checkHead(c.value, after); } else checkHead(c.head, after);
  });
}
