// The top-down evaluator. Bodies run in continuation-passing style: each expression, on every
// way it can succeed, binds its variables in the rule's frame (an array of slots) and calls the
// continuation for the rest of the body; returning `true` from a continuation halts the search
// (the first solution is enough for `not`, for a constant-valued rule, for `every`'s check).
// A binding is undone by whoever made it, right after its continuation returns, so no trail is
// needed. Rule groups are evaluated once per query and cached (a `with` gets a fresh cache).
//
// Budget: every expression and every iteration step counts; past `maxSteps`, or past the
// deadline (checked every 1024 steps), evaluation stops with eval_budget_error.
import type { Body, CallTerm, Expr, Term } from './ast.ts';
import { BUILTINS, type BuiltinContext } from './builtins/index.ts';
import { forEachEntry, lookup, setPath } from './collections.ts';
import type { CompiledPolicy, CompiledRule, DataNode, RuleGroup } from './compiler.ts';
import { BuiltinError, RegoError } from './errors.ts';
import type { Position } from './lexer.ts';
import { conflict, insertIntoSet, insertPath, mergeObjects } from './documents.ts';
import { equal, RegoObject, RegoSet, show, type Value } from './values.ts';

type Frame = (Value | undefined)[];
type K = () => boolean;
type VK = (v: Value) => boolean;

/** `fastValue` could not take the shortcut; evaluate the general way. */
const NOFAST: unique symbol = Symbol('nofast');
/** A cache entry for a group whose value is undefined. */
const UNDEF: unique symbol = Symbol('undefined');

export interface EvalLimits {
  /** Expressions plus iteration steps. */
  readonly maxSteps: number;
  readonly timeoutMs: number;
}

export interface EvalOptions extends Partial<EvalLimits> {
  readonly input?: Value;
  /** Built-in errors fail the query instead of making the expression undefined. */
  readonly strict?: boolean;
  /** `time.now_ns()` for this query (one value per query, as OPA). */
  readonly nowNs?: number;
  /** Compiled regular expressions, shared by the queries of one policy. */
  readonly patterns?: Map<string, RegExp>;
}

export const DEFAULT_LIMITS: EvalLimits = { maxSteps: 1_000_000, timeoutMs: 1000 };

interface Override { readonly path: readonly string[]; readonly value: Value }

export class Query {
  readonly #policy: CompiledPolicy;
  readonly #data: Value;
  #input: Value | undefined;
  #overrides: readonly Override[] = [];
  #cache = new Map<RuleGroup, Value | typeof UNDEF>();
  readonly #maxSteps: number;
  readonly #deadline: number;
  readonly #timeoutMs: number;
  readonly #strict: boolean;
  #steps = 0;
  readonly prints: string[] = [];
  readonly #ctx: BuiltinContext;

  constructor(policy: CompiledPolicy, data: Value, opts: EvalOptions) {
    this.#policy = policy;
    this.#data = data;
    this.#input = opts.input;
    this.#maxSteps = opts.maxSteps ?? DEFAULT_LIMITS.maxSteps;
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_LIMITS.timeoutMs;
    this.#deadline = performance.now() + this.#timeoutMs;
    this.#strict = opts.strict ?? false;
    const nowNs = opts.nowNs ?? Date.now() * 1e6;
    this.#ctx = { nowNs, tick: () => this.#tick(), patterns: opts.patterns ?? new Map() };
  }

  get steps(): number { return this.#steps; }

  /** The value of the document at `path` (the parts after `data`). */
  document(path: readonly string[]): Value | undefined {
    let out: Value | undefined;
    this.#data0(path.map((v) => ({ t: 'scalar', v, pos: NOWHERE })), 0, this.#policy.root, this.#data, [], [], (v) => { out = v; return true; });
    return out;
  }

  /** Runs a compiled query body; `k` sees each solution's frame (return true to stop). */
  run(body: Body, slots: number, k: (frame: Frame) => boolean): void {
    const frame: Frame = new Array(slots);
    this.#body(body.exprs, 0, frame, () => k(frame));
  }

  #tick(): void {
    if (++this.#steps > this.#maxSteps) throw new RegoError('eval_budget_error', `evaluation exceeded ${this.#maxSteps} steps`);
    if ((this.#steps & 1023) === 0 && performance.now() > this.#deadline) {
      throw new RegoError('eval_budget_error', `evaluation exceeded ${this.#timeoutMs} ms`);
    }
  }

  // ── bodies and expressions ─────────────────────────────────────────────

  #body(exprs: readonly Expr[], i: number, frame: Frame, k: K): boolean {
    if (i === exprs.length) return k();
    this.#tick();
    const e = exprs[i]!;
    const next = (): boolean => this.#body(exprs, i + 1, frame, k);
    return e.with.length > 0 ? this.#withExpr(e, frame, next) : this.#expr(e, frame, next);
  }

  #expr(e: Expr, frame: Frame, k: K): boolean {
    if (e.negated) {
      let found = false;
      this.#positive(e, frame, () => (found = true));
      return found ? false : k();
    }
    return this.#positive(e, frame, k);
  }

  #positive(e: Expr, frame: Frame, k: K): boolean {
    switch (e.e) {
      case 'term': {
        const t = e.term;
        if (t.t === 'call' && t.hasOutput) {
          const out = t.args[t.args.length - 1]!;
          return this.#callValues(t, t.args.length - 1, frame, (v) => this.#unifyValue(out, v, frame, k));
        }
        return this.#term(t, frame, (v) => v !== false && k());
      }
      case 'unify':
      case 'assign': return this.#unify(e.a, e.b, frame, k);
      case 'some': return k();
      case 'somein':
        return this.#term(e.coll, frame, (coll) => forEachEntry(coll, (key, value) => {
          this.#tick();
          if (e.key === undefined) return this.#unifyValue(e.value, value, frame, k);
          return this.#unifyValue(e.key, key, frame, () => this.#unifyValue(e.value, value, frame, k));
        }));
      case 'every':
        return this.#term(e.coll, frame, (coll) => {
          const failed = forEachEntry(coll, (key, value) => {
            this.#tick();
            if (e.key) frame[e.key.slot] = key;
            frame[e.value.slot] = value;
            const ok = this.#body(e.body.exprs, 0, frame, () => true);
            if (e.key) frame[e.key.slot] = undefined;
            frame[e.value.slot] = undefined;
            return !ok;
          });
          return failed ? false : k();
        });
    }
  }

  /** Evaluates `e` with its `with` modifiers in force; the rest of the body runs without them. */
  #withExpr(e: Expr, frame: Frame, k: K): boolean {
    let input = this.#input;
    const overrides = [...this.#overrides];
    for (const w of e.with) {
      const v = this.#first(w.value, frame);
      if (v === undefined) return false;
      const target = w.target as Extract<Term, { t: 'ref' }>;
      const path = target.path.map((p) => (p as { v: string }).v);
      if ((target.head as { name: string }).name === 'input') input = setPath(input, path, v);
      else overrides.push({ path, value: v });
    }
    const saved = { input: this.#input, overrides: this.#overrides, cache: this.#cache };
    const inner = { input, overrides: overrides as readonly Override[], cache: new Map<RuleGroup, Value | typeof UNDEF>() };
    const use = (s: typeof saved): void => {
      this.#input = s.input;
      this.#overrides = s.overrides;
      this.#cache = s.cache;
    };
    use(inner);
    try {
      return this.#expr({ ...e, with: [] }, frame, () => {
        use(saved);
        try {
          return k();
        } finally {
          use(inner);
        }
      });
    } finally {
      use(saved);
    }
  }

  #first(t: Term, frame: Frame): Value | undefined {
    let out: Value | undefined;
    this.#term(t, frame, (v) => { out = v; return true; });
    return out;
  }

  // ── unification ────────────────────────────────────────────────────────

  #unbound(t: Term, frame: Frame): boolean {
    switch (t.t) {
      case 'var': return t.slot >= 0 && frame[t.slot] === undefined;
      case 'array': return t.items.some((x) => this.#unbound(x, frame));
      case 'object': return t.entries.some(([, v]) => this.#unbound(v, frame));
      default: return false;
    }
  }

  #unify(a: Term, b: Term, frame: Frame, k: K): boolean {
    if (a.t === 'array' && b.t === 'array' && this.#unbound(a, frame) && this.#unbound(b, frame)) {
      if (a.items.length !== b.items.length) return false;
      const step = (i: number): boolean => (i === a.items.length ? k() : this.#unify(a.items[i]!, b.items[i]!, frame, () => step(i + 1)));
      return step(0);
    }
    if (this.#unbound(a, frame)) return this.#term(b, frame, (v) => this.#unifyValue(a, v, frame, k));
    return this.#term(a, frame, (v) => this.#unifyValue(b, v, frame, k));
  }

  /** Unifies a term (a pattern, or something to evaluate and compare) with a value. */
  #unifyValue(t: Term, v: Value, frame: Frame, k: K): boolean {
    switch (t.t) {
      case 'var': {
        if (t.slot < 0) return this.#term(t, frame, (x) => equal(x, v) && k());
        const cur = frame[t.slot];
        if (cur !== undefined) return equal(cur, v) && k();
        frame[t.slot] = v;
        try {
          return k();
        } finally {
          frame[t.slot] = undefined;
        }
      }
      case 'scalar': return t.v === v && k();
      case 'array': {
        if (!Array.isArray(v) || v.length !== t.items.length) return false;
        const step = (i: number): boolean => (i === v.length ? k() : this.#unifyValue(t.items[i]!, v[i]!, frame, () => step(i + 1)));
        return step(0);
      }
      case 'object': {
        if (!(v instanceof RegoObject) || v.size !== t.entries.length) return false;
        const step = (i: number): boolean => {
          if (i === t.entries.length) return k();
          const [kt, vt] = t.entries[i]!;
          return this.#term(kt, frame, (key) => {
            const x = v.get(key);
            return x !== undefined && this.#unifyValue(vt, x, frame, () => step(i + 1));
          });
        };
        return step(0);
      }
      default: return this.#term(t, frame, (x) => equal(x, v) && k());
    }
  }

  // ── terms ──────────────────────────────────────────────────────────────

  /** A deterministic term's value without continuations (undefined: the term is undefined). */
  #fast(t: Term, frame: Frame): Value | undefined | typeof NOFAST {
    switch (t.t) {
      case 'scalar': return t.v;
      case 'var':
        if (t.slot >= 0) {
          const v = frame[t.slot];
          return v === undefined ? NOFAST : v;
        }
        return t.name === 'input' ? this.#input : NOFAST;
      case 'ref': {
        const h = t.head;
        let cur: Value | undefined;
        if (h.t !== 'var') return NOFAST;
        if (h.slot >= 0) cur = frame[h.slot];
        else if (h.name === 'input') cur = this.#input;
        else return NOFAST;
        if (cur === undefined) return h.slot >= 0 ? NOFAST : undefined;
        for (const p of t.path) {
          const key = p.t === 'scalar' ? p.v : p.t === 'var' && p.slot >= 0 ? frame[p.slot] : undefined;
          if (key === undefined) return NOFAST;
          cur = lookup(cur, key);
          if (cur === undefined) return undefined;
        }
        return cur;
      }
      default: return NOFAST;
    }
  }

  #term(t: Term, frame: Frame, k: VK): boolean {
    const f = this.#fast(t, frame);
    if (f !== NOFAST) return f !== undefined && k(f);
    switch (t.t) {
      case 'scalar': return k(t.v);
      case 'var':
        if (t.slot >= 0) throw new RegoError('eval_type_error', `var ${t.name} is unbound`, t.pos);
        return this.#data0([], 0, this.#policy.root, this.#data, [], frame, k);
      case 'ref': return this.#ref(t, frame, k);
      case 'array': return this.#terms(t.items, frame, (vs) => k(vs));
      case 'set': return this.#terms(t.items, frame, (vs) => k(new RegoSet(vs)));
      case 'object': {
        const flat = t.entries.flat();
        return this.#terms(flat, frame, (vs) => {
          const o = new RegoObject();
          for (let i = 0; i < vs.length; i += 2) o.set(vs[i]!, vs[i + 1]!);
          return k(o);
        });
      }
      case 'call': return this.#callValues(t, t.args.length, frame, k);
      case 'acomp': {
        const out: Value[] = [];
        this.#body(t.body.exprs, 0, frame, () => this.#term(t.head, frame, (v) => { out.push(v); return false; }));
        return k(out);
      }
      case 'scomp': {
        const out = new RegoSet();
        this.#body(t.body.exprs, 0, frame, () => this.#term(t.head, frame, (v) => { out.add(v); return false; }));
        return k(out);
      }
      case 'ocomp': {
        const out = new RegoObject();
        this.#body(t.body.exprs, 0, frame, () => this.#term(t.key, frame, (key) => this.#term(t.value, frame, (v) => {
          const prev = out.get(key);
          if (prev !== undefined && !equal(prev, v)) throw new RegoError('eval_conflict_error', 'object keys must be unique', t.pos);
          out.set(key, v);
          return false;
        })));
        return k(out);
      }
    }
  }

  /** Every combination of the terms' values. */
  #terms(ts: readonly Term[], frame: Frame, k: (vs: Value[]) => boolean): boolean {
    const vals: Value[] = new Array(ts.length);
    const step = (i: number): boolean => {
      if (i === ts.length) return k(vals.slice());
      return this.#term(ts[i]!, frame, (v) => { vals[i] = v; return step(i + 1); });
    };
    return step(0);
  }

  #ref(t: Extract<Term, { t: 'ref' }>, frame: Frame, k: VK): boolean {
    const h = t.head;
    if (h.t === 'var' && h.slot < 0) {
      if (h.name === 'data') return this.#data0(t.path, 0, this.#policy.root, this.#data, [], frame, k);
      return this.#input !== undefined && this.#walk(this.#input, t.path, 0, frame, k);
    }
    return this.#term(h, frame, (v) => this.#walk(v, t.path, 0, frame, k));
  }

  /** Follows `path[i…]` into a value; an unbound key iterates the collection. */
  #walk(cur: Value, path: readonly Term[], i: number, frame: Frame, k: VK): boolean {
    if (i === path.length) return k(cur);
    const p = path[i]!;
    if (this.#unbound(p, frame)) {
      return forEachEntry(cur, (key, value) => {
        this.#tick();
        return this.#unifyValue(p, key, frame, () => this.#walk(value, path, i + 1, frame, k));
      });
    }
    return this.#term(p, frame, (key) => {
      const next = lookup(cur, key);
      return next !== undefined && this.#walk(next, path, i + 1, frame, k);
    });
  }

  // ── data: rules and base documents ─────────────────────────────────────

  /** Follows `path[i…]` from a node of the data tree, with the base document at the same place. */
  #data0(path: readonly Term[], i: number, node: DataNode, base: Value | undefined, keys: string[], frame: Frame, k: VK): boolean {
    if (this.#overrides.length > 0) {
      const o = this.#overrideAt(keys);
      if (o !== undefined) return this.#walk(o, path, i, frame, k);
    }
    if (node.group) {
      if (node.children.size > 0) {
        // Rules under a rule's own path (`obj[x] contains …` and `obj.sub[x] contains …`).
        const p = path[i];
        const name = p?.t === 'scalar' && typeof p.v === 'string' ? p.v : undefined;
        const child = name === undefined ? undefined : node.children.get(name);
        if (child) return this.#data0(path, i + 1, child, undefined, [...keys, name!], frame, k);
        const merged = this.#groupWithChildren(node, keys);
        return merged !== undefined && this.#walk(merged, path, i, frame, k);
      }
      const v = this.#group(node.group);
      return v !== undefined && this.#walk(v, path, i, frame, k);
    }
    if (i === path.length) return k(this.#nodeValue(node, base, keys));
    const p = path[i]!;
    const step = (key: Value): boolean => {
      const child = typeof key === 'string' ? node.children.get(key) : undefined;
      const childBase = base === undefined ? undefined : lookup(base, key);
      if (child) return this.#data0(path, i + 1, child, childBase, [...keys, key as string], frame, k);
      if (this.#overrides.length > 0 && typeof key === 'string') return this.#data0(path, i + 1, EMPTY_NODE, childBase, [...keys, key], frame, k);
      return childBase !== undefined && this.#walk(childBase, path, i + 1, frame, k);
    };
    if (this.#unbound(p, frame)) {
      const names = new Set<Value>(node.children.keys());
      if (base instanceof RegoObject) for (const key of base.keys()) names.add(key);
      for (const name of [...names].sort()) {
        this.#tick();
        if (this.#unifyValue(p, name, frame, () => step(name))) return true;
      }
      return false;
    }
    return this.#term(p, frame, step);
  }

  #overrideAt(keys: readonly string[]): Value | undefined {
    for (let j = this.#overrides.length - 1; j >= 0; j--) {
      const o = this.#overrides[j]!;
      if (o.path.length === keys.length && o.path.every((s, n) => s === keys[n])) return o.value;
    }
    return undefined;
  }

  /** A whole package (or `data`): base documents merged with every rule group below. */
  #nodeValue(node: DataNode, base: Value | undefined, keys: string[]): Value {
    const out = new RegoObject();
    if (base instanceof RegoObject) for (const [key, v] of base.sortedEntries()) out.set(key, v);
    for (const [name, child] of node.children) {
      const childKeys = [...keys, name];
      const o = this.#overrides.length > 0 ? this.#overrideAt(childKeys) : undefined;
      const v = o !== undefined ? o : (child.group ? this.#group(child.group) : this.#nodeValue(child, lookup(out, name), childKeys));
      if (v !== undefined) out.set(name, v);
    }
    for (const o of this.#overrides) {
      if (o.path.length === keys.length + 1 && keys.every((s, n) => s === o.path[n])) out.set(o.path[keys.length]!, o.value);
    }
    return out;
  }

  #groupWithChildren(node: DataNode, keys: string[]): Value | undefined {
    const own = this.#group(node.group!);
    const extra = this.#nodeValue({ children: node.children, group: undefined }, undefined, keys);
    if (own === undefined) return extra;
    return own instanceof RegoObject && extra instanceof RegoObject ? mergeObjects(own, extra) : own;
  }

  #group(g: RuleGroup): Value | undefined {
    const hit = this.#cache.get(g);
    if (hit !== undefined) return hit === UNDEF ? undefined : hit;
    if (g.kind === 'function') return undefined;
    const v = g.kind === 'complete' ? this.#complete(g) : g.kind === 'set' ? this.#partialSet(g) : this.#partialObject(g);
    this.#cache.set(g, v === undefined ? UNDEF : v);
    return v;
  }

  #complete(g: RuleGroup): Value | undefined {
    let result: Value | undefined;
    for (const r of g.rules) {
      const v = this.#ruleValue(r, new Array(r.slots), g.constValue !== undefined);
      if (v === undefined) continue;
      if (g.constValue !== undefined) return v;
      if (result !== undefined && !equal(result, v)) throw conflict(`rule ${g.id} produced conflicting values`, r.src.pos);
      result = v;
    }
    if (result === undefined && g.defaultRule) result = this.#ruleValue(g.defaultRule, new Array(g.defaultRule.slots), true);
    return result;
  }

  /** A rule's value (its else chain in order); undefined when no clause succeeds. */
  #ruleValue(r: CompiledRule, frame: Frame, firstOnly: boolean): Value | undefined {
    const clauses = [{ value: r.value, body: r.body }, ...r.elses];
    for (const c of clauses) {
      let out: Value | undefined;
      const stopAtFirst = firstOnly || c.value === undefined || c.value.t === 'scalar';
      this.#body(c.body.exprs, 0, frame, () => this.#headValue(c.value, frame, (v) => {
        if (out !== undefined && !equal(out, v)) throw conflict(r.src.kind === 'function' ? 'functions must not produce multiple outputs for same inputs' : `rule ${r.groupId} produced conflicting values`, r.src.pos);
        out = v;
        return stopAtFirst;
      }));
      if (out !== undefined) return out;
    }
    return undefined;
  }

  #headValue(t: Term | undefined, frame: Frame, k: VK): boolean {
    return t === undefined ? k(true) : this.#term(t, frame, k);
  }

  #partialSet(g: RuleGroup): Value {
    const out = new RegoSet();
    for (const r of g.rules) {
      const frame: Frame = new Array(r.slots);
      this.#body(r.body.exprs, 0, frame, () => this.#term(r.key!, frame, (v) => { out.add(v); return false; }));
    }
    return out;
  }

  #partialObject(g: RuleGroup): Value {
    const out = new RegoObject();
    for (const r of g.rules) {
      const frame: Frame = new Array(r.slots);
      const leaf = r.key !== undefined ? r.key : r.value;
      this.#body(r.body.exprs, 0, frame, () => this.#terms(r.keyPath, frame, (keys) => this.#headValue(leaf, frame, (v) => {
        if (r.key !== undefined) insertIntoSet(out, keys, v, r.src.pos);
        else insertPath(out, keys, v, r.src.pos);
        return false;
      })));
    }
    return out;
  }

  // ── calls ──────────────────────────────────────────────────────────────

  /** Evaluates the first `n` arguments (every combination) and calls the target with them. */
  #callValues(t: CallTerm, n: number, frame: Frame, k: VK): boolean {
    const target = t.target!;
    if (target.kind === 'builtin' && target.name === 'print') return this.#print(t, frame, k);
    const args = n === t.args.length ? t.args : t.args.slice(0, n);
    const direct: Value[] = new Array(n);
    let simple = true;
    for (let i = 0; i < n; i++) {
      const f = this.#fast(args[i]!, frame);
      if (f === NOFAST) { simple = false; break; }
      if (f === undefined) return false;
      direct[i] = f;
    }
    const invoke = (vals: Value[]): boolean => {
      const v = target.kind === 'builtin' ? this.#builtin(target.name, vals, t.pos) : this.#function(target.path, vals, t.pos);
      return v !== undefined && k(v);
    };
    if (simple) return invoke(direct);
    return this.#terms(args, frame, invoke);
  }

  #builtin(name: string, args: Value[], pos: Position): Value | undefined {
    const b = BUILTINS.get(name)!;
    try {
      return b.fn(args, this.#ctx);
    } catch (e) {
      if (!(e instanceof BuiltinError)) throw e;
      if (this.#strict) throw new RegoError(e.kind === 'type' ? 'eval_type_error' : 'eval_builtin_error', `${name}: ${e.message}`, pos);
      return undefined;
    }
  }

  #function(path: string, args: Value[], pos: Position): Value | undefined {
    const g = this.#policy.groups.get(path)!;
    this.#tick();
    let result: Value | undefined;
    for (const r of g.rules) {
      const frame: Frame = new Array(r.slots);
      let v: Value | undefined;
      const bindArgs = (i: number): boolean => {
        if (i === args.length) {
          v = this.#ruleValue(r, frame, false);
          return v !== undefined;
        }
        return this.#unifyValue(r.args[i]!, args[i]!, frame, () => bindArgs(i + 1));
      };
      bindArgs(0);
      if (v === undefined) continue;
      if (result !== undefined && !equal(result, v)) throw conflict('functions must not produce multiple outputs for same inputs', pos);
      result = v;
    }
    if (result === undefined && g.defaultRule) result = this.#ruleValue(g.defaultRule, new Array(g.defaultRule.slots), true);
    return result;
  }

  /** `print(…)`: never fails; an undefined argument prints `<undefined>`. */
  #print(t: CallTerm, frame: Frame, k: VK): boolean {
    const parts = t.args.map((a) => {
      const v = this.#first(a, frame);
      return v === undefined ? '<undefined>' : typeof v === 'string' ? v : show(v);
    });
    this.prints.push(parts.join(' '));
    return k(true);
  }
}

const NOWHERE: Position = { file: '', line: 0, col: 0 };
const EMPTY_NODE: DataNode = { children: new Map(), group: undefined };
