// Name resolution, one rule at a time: every variable becomes either a local (a slot in the rule's
// frame) or a reference under `data`/`input` (a rule of the same package, an import alias, the
// roots), and every call gets its target (built-in or user function). Locals are scoped by body:
// a comprehension or `every` body sees the enclosing body's variables, and its own stay its own.
// Runs before safety (safety.ts), which needs to know which variables are local.
import type { Body, CallTerm, Expr, Rule, Term, VarTerm, With } from './ast.ts';
import { BUILTIN_ARITY } from './builtins/index.ts';
import { RegoError } from './errors.ts';
import type { Position } from './lexer.ts';

/** What names mean in one package. */
export interface PackageScope {
  readonly pkg: readonly string[];
  /** Import alias → its path (`['data', 'lib']`, `['input', 'x']`). */
  readonly imports: ReadonlyMap<string, readonly string[]>;
  /** First names of the package's rules (`allow`, `f`). */
  readonly ruleNames: ReadonlySet<string>;
  /** Full paths of user functions (`data.pkg.f`) → arity. */
  readonly functions: ReadonlyMap<string, number>;
}

class Scope {
  readonly names = new Map<string, number>();
  readonly locals = new Set<number>();
  readonly parent: Scope | undefined;
  constructor(parent: Scope | undefined) {
    this.parent = parent;
  }
  lookup(name: string): number | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name);
  }
}

const ROOT_INPUT = (pos: Position): VarTerm => ({ t: 'var', name: 'input', pos, slot: -1 });
const ROOT_DATA = (pos: Position): VarTerm => ({ t: 'var', name: 'data', pos, slot: -1 });

export class RuleResolver {
  readonly #pkg: PackageScope;
  #slots = 0;

  constructor(pkg: PackageScope) {
    this.#pkg = pkg;
  }

  get slots(): number { return this.#slots; }

  #declare(scope: Scope, v: VarTerm): number {
    const slot = this.#slots++;
    scope.names.set(v.name, slot);
    scope.locals.add(slot);
    return slot;
  }

  /** Resolves a query body; returns it with the names of its variables. */
  query(body: Body): { body: Body; names: ReadonlyMap<string, number> } {
    const scope = new Scope(undefined);
    return { body: this.#body(body, scope), names: scope.names };
  }

  /** Resolves a rule in place: args, body, head, else clauses. */
  rule(rule: Rule): { key: Term | undefined; value: Term | undefined; args: Term[]; ref: Term[]; body: Body; elses: { value: Term | undefined; body: Body }[] } {
    const argScope = new Scope(undefined);
    for (const a of rule.args) this.#declarePattern(argScope, a);
    const args = rule.args.map((a) => this.#term(a, argScope));
    const scope = new Scope(argScope);
    const body = this.#body(rule.body, scope);
    const ref = rule.ref.map((t, i) => (i === 0 ? t : this.#headTerm(t, scope)));
    const key = rule.key && this.#headTerm(rule.key, scope);
    const value = rule.value && this.#headTerm(rule.value, scope);
    const elses = rule.elses.map((e) => {
      const s = new Scope(argScope);
      const b = this.#body(e.body, s);
      return { value: e.value && this.#headTerm(e.value, s), body: b };
    });
    return { key, value, args, ref, body, elses };
  }

  /** Head terms may use body variables; a name the body never bound is still a local (safety reports it). */
  #headTerm(t: Term, scope: Scope): Term {
    this.#declareFree(t, scope);
    return this.#term(t, scope);
  }

  #declarePattern(scope: Scope, t: Term): void {
    walkVars(t, (v) => {
      if (!scope.names.has(v.name)) this.#declare(scope, v);
    });
  }

  /** Implicit declaration: a name that is not local, global or a root. */
  #declareFree(t: Term, scope: Scope): void {
    walkVars(t, (v) => {
      if (scope.lookup(v.name) === undefined && !this.#isGlobal(v.name)) this.#declare(scope, v);
    });
  }

  #isGlobal(name: string): boolean {
    return name === 'input' || name === 'data' || this.#pkg.imports.has(name) || this.#pkg.ruleNames.has(name);
  }

  #body(body: Body, scope: Scope): Body {
    // `some x` and `x := …` declare at their position (OPA's scoping: a comprehension before the
    // declaration has its own x); every other name is declared for the whole body up front.
    const positional = new Set<string>();
    for (const e of body.exprs) {
      if (e.e === 'some') for (const v of e.vars) positional.add(v.name);
      else if (e.e === 'assign') walkVars(e.a, (v) => void positional.add(v.name));
      else if (e.e === 'somein') for (const t of e.key ? [e.key, e.value] : [e.value]) walkVars(t, (v) => void positional.add(v.name));
    }
    for (const e of body.exprs) {
      for (const t of exprTerms(e)) {
        walkVars(t, (v) => {
          if (!positional.has(v.name) && scope.lookup(v.name) === undefined && !this.#isGlobal(v.name)) this.#declare(scope, v);
        });
      }
    }
    const exprs = body.exprs.map((e) => this.#expr(e, scope));
    return { exprs, locals: scope.locals };
  }

  #declarePositional(scope: Scope, t: Term, assign: boolean): void {
    walkVars(t, (v) => {
      if (assign && scope.names.has(v.name) && !v.name.startsWith('_$')) throw new RegoError('rego_compile_error', `var ${v.name} assigned above`, v.pos);
      if (assign && (v.name === 'input' || v.name === 'data')) throw new RegoError('rego_compile_error', `cannot assign to ${v.name}`, v.pos);
      this.#declare(scope, v);
    });
  }

  #expr(e: Expr, scope: Scope): Expr {
    const withs: With[] = e.with.map((w) => ({ target: this.#withTarget(w), value: this.#term(w.value, scope), pos: w.pos }));
    const base = { pos: e.pos, negated: e.negated, with: withs };
    switch (e.e) {
      case 'term': return { ...base, e: 'term', term: this.#term(e.term, scope) };
      case 'unify': return { ...base, e: e.e, a: this.#term(e.a, scope), b: this.#term(e.b, scope) };
      case 'assign': {
        const b = this.#term(e.b, scope);
        this.#declarePositional(scope, e.a, true);
        return { ...base, e: e.e, a: this.#term(e.a, scope), b };
      }
      case 'some':
        for (const v of e.vars) this.#declare(scope, v);
        return { ...base, e: 'some', vars: e.vars.map((v) => this.#term(v, scope) as VarTerm) };
      case 'somein': {
        const coll = this.#term(e.coll, scope);
        if (e.key) this.#declarePositional(scope, e.key, false);
        this.#declarePositional(scope, e.value, false);
        return { ...base, e: 'somein', key: e.key && this.#term(e.key, scope), value: this.#term(e.value, scope), coll };
      }
      case 'every': {
        const inner = new Scope(scope);
        const key = e.key && ({ ...e.key, slot: this.#declare(inner, e.key) });
        const value = { ...e.value, slot: this.#declare(inner, e.value) };
        const coll = this.#term(e.coll, scope);
        return { ...base, e: 'every', key, value, coll, body: this.#body(e.body, inner) };
      }
    }
  }

  #withTarget(w: With): Term {
    const t = w.target;
    const head = t.t === 'ref' ? t.head : t;
    if (head.t !== 'var' || (head.name !== 'input' && head.name !== 'data')) {
      throw new RegoError('rego_compile_error', 'with keyword target must reference existing input or data', w.pos);
    }
    const path = t.t === 'ref' ? t.path : [];
    for (const p of path) {
      if (p.t !== 'scalar' || typeof p.v !== 'string') throw new RegoError('rego_compile_error', 'with keyword target must be a ground reference', w.pos);
    }
    const full = [head.name, ...path.map((p) => (p as { v: string }).v)].join('.');
    if (this.#pkg.functions.has(full)) throw new RegoError('rego_compile_error', `with keyword cannot replace the function ${full} (not supported)`, w.pos);
    return { t: 'ref', head: head.name === 'input' ? ROOT_INPUT(head.pos) : ROOT_DATA(head.pos), path, pos: t.pos };
  }

  #term(t: Term, scope: Scope): Term {
    switch (t.t) {
      case 'scalar': return t;
      case 'var': return this.#var(t, scope);
      case 'ref': {
        const path = t.path.map((p) => this.#term(p, scope));
        const head = this.#term(t.head, scope);
        if (head.t === 'ref') return { t: 'ref', head: head.head, path: [...head.path, ...path], pos: t.pos };
        return { t: 'ref', head, path, pos: t.pos };
      }
      case 'array': return { t: 'array', items: t.items.map((x) => this.#term(x, scope)), pos: t.pos };
      case 'set': return { t: 'set', items: t.items.map((x) => this.#term(x, scope)), pos: t.pos };
      case 'object': return { t: 'object', entries: t.entries.map(([k, v]) => [this.#term(k, scope), this.#term(v, scope)]), pos: t.pos };
      case 'call': return this.#call(t, scope);
      case 'acomp':
      case 'scomp': {
        const inner = new Scope(scope);
        const body = this.#body(t.body, inner);
        return { t: t.t, head: this.#headTerm(t.head, inner), body, pos: t.pos };
      }
      case 'ocomp': {
        const inner = new Scope(scope);
        const body = this.#body(t.body, inner);
        return { t: 'ocomp', key: this.#headTerm(t.key, inner), value: this.#headTerm(t.value, inner), body, pos: t.pos };
      }
    }
  }

  #var(v: VarTerm, scope: Scope): Term {
    const slot = scope.lookup(v.name);
    if (slot !== undefined) return { ...v, slot };
    if (v.name === 'input') return ROOT_INPUT(v.pos);
    if (v.name === 'data') return ROOT_DATA(v.pos);
    const imported = this.#pkg.imports.get(v.name);
    if (imported) return pathRef(imported, v.pos);
    if (this.#pkg.ruleNames.has(v.name)) return pathRef(['data', ...this.#pkg.pkg, v.name], v.pos);
    throw new RegoError('rego_compile_error', `var ${v.name} is not declared`, v.pos);
  }

  #call(c: CallTerm, scope: Scope): Term {
    const args = c.args.map((a) => this.#term(a, scope));
    const parts = c.name.split('.');
    const first = parts[0]!;
    let fnPath: string | undefined;
    if (scope.lookup(first) === undefined) {
      const imported = this.#pkg.imports.get(first);
      if (first === 'data') fnPath = c.name;
      else if (imported && imported[0] === 'data') fnPath = [...imported, ...parts.slice(1)].join('.');
      else if (this.#pkg.ruleNames.has(first)) fnPath = ['data', ...this.#pkg.pkg, ...parts].join('.');
    }
    if (fnPath !== undefined && this.#pkg.functions.has(fnPath)) {
      return this.#checked({ ...c, args, target: { kind: 'function', path: fnPath } }, this.#pkg.functions.get(fnPath)!);
    }
    const arity = BUILTIN_ARITY.get(c.name);
    if (arity === undefined) {
      const what = fnPath !== undefined && this.#pkg.ruleNames.has(first) ? `${fnPath} is a rule, not a function` : `undefined function ${c.name}`;
      throw new RegoError('rego_type_error', what, c.pos);
    }
    return this.#checked({ ...c, args, target: { kind: 'builtin', name: c.name } }, arity);
  }

  /** A call takes its arity's arguments, or one more: an output to unify with the result. */
  #checked(c: CallTerm, arity: number): CallTerm {
    if (arity >= 0 && c.args.length !== arity && c.args.length !== arity + 1) {
      throw new RegoError('rego_type_error', `${c.name}: arity mismatch: takes ${arity} argument${arity === 1 ? '' : 's'}, got ${c.args.length}`, c.pos);
    }
    if (arity >= 0 && c.args.length === arity + 1) c.hasOutput = true;
    return c;
  }
}

function pathRef(path: readonly string[], pos: Position): Term {
  const head = path[0] === 'input' ? ROOT_INPUT(pos) : ROOT_DATA(pos);
  if (path.length === 1) return head;
  return { t: 'ref', head, path: path.slice(1).map((p) => ({ t: 'scalar', v: p, pos })), pos };
}

/** Terms of an expression at its own level (nested bodies are walked by their own scope). */
function exprTerms(e: Expr): Term[] {
  const withs = e.with.map((w) => w.value);
  switch (e.e) {
    case 'term': return [e.term, ...withs];
    case 'unify':
    case 'assign': return [e.a, e.b, ...withs];
    case 'somein': return [e.coll, ...withs];
    case 'every': return [e.coll];
    case 'some': return [];
  }
}

/** Every variable of a term, not descending into comprehensions (their bodies are scopes of their own). */
export function walkVars(t: Term, f: (v: VarTerm) => void): void {
  switch (t.t) {
    case 'var': f(t); return;
    case 'ref': walkVars(t.head, f); for (const p of t.path) walkVars(p, f); return;
    case 'array':
    case 'set': for (const x of t.items) walkVars(x, f); return;
    case 'object': for (const [k, v] of t.entries) { walkVars(k, f); walkVars(v, f); } return;
    case 'call': for (const a of t.args) walkVars(a, f); return;
    default: return;
  }
}
