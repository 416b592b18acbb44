// The compiler: parsed modules → a CompiledPolicy the evaluator runs. It groups rules by the
// document they define (`data.pkg.allow`), rejects conflicting definitions (a complete rule and a
// set at one path, two defaults, functions of different arity), resolves names (resolve.ts),
// orders bodies for safety (safety.ts) and refuses recursion. Every error names file:line:col.
import type { Body, Module, Rule, Term } from './ast.ts';
import { RegoError } from './errors.ts';
import { parseModule, parseQuery } from './parser.ts';
import { RuleResolver, type PackageScope } from './resolve.ts';
import { checkHead, orderBody, orderHeadComprehensions } from './safety.ts';
import type { Value } from './values.ts';

export interface SourceFile {
  readonly file: string;
  readonly text: string;
}

export interface CompiledRule {
  readonly src: Rule;
  /** The group's id (`data.pkg.p`), for error texts. */
  readonly groupId: string;
  readonly args: Term[];
  /** Object rules: the head's key terms after the group's path (`p[k]` → [k]). */
  readonly keyPath: Term[];
  /** Partial sets: the element. */
  readonly key: Term | undefined;
  /** The head value; undefined means `true`. */
  readonly value: Term | undefined;
  readonly body: Body;
  readonly elses: readonly { readonly value: Term | undefined; readonly body: Body }[];
  readonly slots: number;
}

export type GroupKind = 'complete' | 'set' | 'object' | 'function';

export interface RuleGroup {
  /** `data.pkg.allow`. */
  readonly id: string;
  readonly path: readonly string[];
  readonly kind: GroupKind;
  readonly rules: CompiledRule[];
  defaultRule: CompiledRule | undefined;
  arity: number;
  /**
   * Every rule yields the same constant (`allow if …` twenty times): the first body that succeeds
   * decides, since no other can conflict with it. The common allow-list shape, and the fast path.
   */
  constValue: Value | undefined;
}

/** The `data` tree: packages and rule groups. */
export interface DataNode {
  readonly children: Map<string, DataNode>;
  group: RuleGroup | undefined;
}

export interface CompiledPolicy {
  readonly root: DataNode;
  readonly groups: ReadonlyMap<string, RuleGroup>;
}

/** `future.keywords` and any keyword under it (all are on in v1), and `rego.v1`. */
const isKnownFuture = (name: string): boolean => name === 'rego.v1' || name === 'future.keywords' || /^future\.keywords\.[a-z]+$/.test(name);

export function compileModules(files: readonly SourceFile[]): CompiledPolicy {
  const modules = files.map((f) => parseModule(f.text, f.file));
  const groups = new Map<string, RuleGroup>();
  const pending: { group: RuleGroup; rule: Rule; module: Module; keyPath: Term[] }[] = [];
  for (const m of modules) {
    for (const imp of m.imports) {
      const name = imp.path.join('.');
      if ((imp.path[0] === 'future' || imp.path[0] === 'rego') && !isKnownFuture(name)) {
        throw new RegoError('rego_parse_error', `unexpected import path ${name}`, imp.pos);
      }
    }
    for (const rule of m.rules) {
      const { path, keyPath } = splitHead(rule);
      // `p[k] := v` and `p[k] contains x` (a set under each key) build objects; `p contains x` a set.
      const kind: GroupKind = rule.kind === 'function' ? 'function' : keyPath.length > 0 ? 'object' : rule.kind === 'contains' ? 'set' : 'complete';
      const id = ['data', ...m.pkg, ...path].join('.');
      let group = groups.get(id);
      if (!group) {
        group = { id, path: ['data', ...m.pkg, ...path], kind, rules: [], defaultRule: undefined, arity: rule.args.length, constValue: undefined };
        groups.set(id, group);
      } else if (group.kind !== kind || (kind === 'function' && group.arity !== rule.args.length)) {
        throw new RegoError('rego_type_error', `conflicting rules ${id} found`, rule.pos);
      }
      if (rule.isDefault && pending.some((p) => p.group === group && p.rule.isDefault)) throw new RegoError('rego_type_error', `multiple default rules ${id} found`, rule.pos);
      if (rule.isDefault && kind !== 'complete' && kind !== 'function') throw new RegoError('rego_type_error', `default rules must be complete rules or functions: ${id}`, rule.pos);
      pending.push({ group, rule, module: m, keyPath });
    }
  }
  const root = buildTree(groups);
  const scopes = packageScopes(modules, groups);
  for (const { group, rule, module, keyPath } of pending) {
    const compiled = compileRule(rule, group.id, keyPath, scopes.get(module)!);
    if (rule.isDefault) group.defaultRule = compiled;
    else group.rules.push(compiled);
  }
  for (const g of groups.values()) g.constValue = constantValue(g);
  checkRecursion(groups, root);
  return { root, groups };
}

/** The head's ground prefix (the group's path) and the key terms after it. */
function splitHead(rule: Rule): { path: string[]; keyPath: Term[] } {
  const path: string[] = [];
  let i = 0;
  for (; i < rule.ref.length; i++) {
    const t = rule.ref[i]!;
    if (t.t !== 'scalar' || typeof t.v !== 'string') break;
    path.push(t.v);
  }
  const keyPath = rule.ref.slice(i);
  if (keyPath.length > 0 && rule.kind === 'function') throw new RegoError('rego_parse_error', 'a function head must be a ground reference', rule.pos);
  if (keyPath.length > 0 && rule.isDefault) throw new RegoError('rego_parse_error', 'a default rule head must be a ground reference', rule.pos);
  return { path, keyPath };
}

function buildTree(groups: Map<string, RuleGroup>): DataNode {
  const root: DataNode = { children: new Map(), group: undefined };
  const sorted = [...groups.values()].sort((a, b) => a.path.length - b.path.length);
  for (const g of sorted) {
    let node = root;
    for (const seg of g.path.slice(1)) {
      if (node.group && node.group.kind !== 'object') {
        throw new RegoError('rego_type_error', `rule ${g.id} conflicts with rule ${node.group.id}`, (g.rules[0] ?? g.defaultRule)?.src.pos);
      }
      let next = node.children.get(seg);
      if (!next) {
        next = { children: new Map(), group: undefined };
        node.children.set(seg, next);
      }
      node = next;
    }
    node.group = g;
  }
  return root;
}

function packageScopes(modules: readonly Module[], groups: Map<string, RuleGroup>): Map<Module, PackageScope> {
  const names = new Map<string, Set<string>>();
  for (const m of modules) {
    const key = m.pkg.join('.');
    const set = names.get(key) ?? new Set<string>();
    for (const r of m.rules) set.add((r.ref[0] as { v: string }).v);
    names.set(key, set);
  }
  const functions = new Map<string, number>();
  for (const g of groups.values()) if (g.kind === 'function') functions.set(g.id, g.arity);
  const out = new Map<Module, PackageScope>();
  for (const m of modules) {
    const imports = new Map<string, readonly string[]>();
    for (const imp of m.imports) {
      if (imp.path[0] === 'data' || imp.path[0] === 'input') imports.set(imp.alias, imp.path);
    }
    out.set(m, { pkg: m.pkg, imports, ruleNames: names.get(m.pkg.join('.'))!, functions });
  }
  return out;
}

function compileRule(rule: Rule, groupId: string, keyPathRaw: Term[], scope: PackageScope): CompiledRule {
  const resolver = new RuleResolver(scope);
  const r = resolver.rule(rule);
  const keyPath = r.ref.slice(r.ref.length - keyPathRaw.length);
  const argBound = new Set<number>();
  for (const a of r.args) collectSlots(a, argBound);
  const bound = orderBody(r.body, argBound);
  for (const t of [...keyPath, r.key, r.value]) {
    orderHeadComprehensions(t, bound);
    checkHead(t, bound);
  }
  for (const e of r.elses) {
    const b = orderBody(e.body, argBound);
    orderHeadComprehensions(e.value, b);
    checkHead(e.value, b);
  }
  return { src: rule, groupId, args: r.args, keyPath, key: r.key, value: r.value, body: r.body, elses: r.elses, slots: resolver.slots };
}

function collectSlots(t: Term, into: Set<number>): void {
  switch (t.t) {
    case 'var': if (t.slot >= 0) into.add(t.slot); return;
    case 'array':
    case 'set': for (const x of t.items) collectSlots(x, into); return;
    case 'object': for (const [k, v] of t.entries) { collectSlots(k, into); collectSlots(v, into); } return;
    default: return;
  }
}

function constantValue(g: RuleGroup): Value | undefined {
  if (g.kind !== 'complete' || g.rules.length === 0) return undefined;
  let value: Value | undefined;
  for (const r of g.rules) {
    if (r.elses.length > 0) return undefined;
    const v = r.value === undefined ? true : r.value.t === 'scalar' ? r.value.v : undefined;
    if (v === undefined || (value !== undefined && v !== value)) return undefined;
    value = v;
  }
  return value;
}

// ── recursion ────────────────────────────────────────────────────────────

function checkRecursion(groups: Map<string, RuleGroup>, root: DataNode): void {
  const deps = new Map<RuleGroup, Set<RuleGroup>>();
  for (const g of groups.values()) {
    const out = new Set<RuleGroup>();
    for (const r of [...g.rules, ...(g.defaultRule ? [g.defaultRule] : [])]) {
      const visit = (t: Term): void => visitTerm(t, root, groups, out);
      for (const t of [...r.args, ...r.keyPath, r.key, r.value]) if (t) visit(t);
      for (const b of [r.body, ...r.elses.map((e) => e.body)]) visitBody(b, visit);
      for (const e of r.elses) if (e.value) visit(e.value);
    }
    deps.set(g, out);
  }
  const state = new Map<RuleGroup, 'active' | 'done'>();
  const stack: RuleGroup[] = [];
  const dfs = (g: RuleGroup): void => {
    if (state.get(g) === 'done') return;
    if (state.get(g) === 'active') {
      const cycle = [...stack.slice(stack.indexOf(g)), g].map((x) => x.id);
      throw new RegoError('rego_recursion_error', `rule ${g.id} is recursive: ${cycle.join(' -> ')}`, (g.rules[0] ?? g.defaultRule)?.src.pos);
    }
    state.set(g, 'active');
    stack.push(g);
    for (const d of deps.get(g) ?? []) dfs(d);
    stack.pop();
    state.set(g, 'done');
  };
  for (const g of groups.values()) dfs(g);
}

function visitBody(b: Body, visit: (t: Term) => void): void {
  for (const e of b.exprs) {
    for (const w of e.with) visit(w.value);
    switch (e.e) {
      case 'term': visit(e.term); break;
      case 'unify':
      case 'assign': visit(e.a); visit(e.b); break;
      case 'somein': if (e.key) visit(e.key); visit(e.value); visit(e.coll); break;
      case 'every': visit(e.coll); visitBody(e.body, visit); break;
      case 'some': break;
    }
  }
}

function visitTerm(t: Term, root: DataNode, groups: Map<string, RuleGroup>, out: Set<RuleGroup>): void {
  const visit = (x: Term): void => visitTerm(x, root, groups, out);
  switch (t.t) {
    case 'ref':
      if (t.head.t !== 'var') visit(t.head);
      t.path.forEach(visit);
      if (t.head.t === 'var' && t.head.name === 'data' && t.head.slot < 0) dataDeps(t.path, root, out);
      return;
    case 'var':
      if (t.name === 'data' && t.slot < 0) dataDeps([], root, out);
      return;
    case 'array':
    case 'set': t.items.forEach(visit); return;
    case 'object': for (const [k, v] of t.entries) { visit(k); visit(v); } return;
    case 'call': {
      t.args.forEach(visit);
      const target = t.target;
      if (target?.kind === 'function') {
        const g = groups.get(target.path);
        if (g) out.add(g);
      }
      return;
    }
    case 'acomp':
    case 'scomp': visit(t.head); visitBody(t.body, visit); return;
    case 'ocomp': visit(t.key); visit(t.value); visitBody(t.body, visit); return;
    case 'scalar': return;
  }
}

/** The groups a `data` reference may read: the one it names, or all under the node it stops at. */
function dataDeps(path: readonly Term[], root: DataNode, out: Set<RuleGroup>): void {
  let node = root;
  for (const p of path) {
    if (node.group) { out.add(node.group); return; }
    if (p.t !== 'scalar' || typeof p.v !== 'string') break;
    const next = node.children.get(p.v);
    if (!next) return;
    node = next;
  }
  const all = (n: DataNode): void => {
    if (n.group) out.add(n.group);
    for (const c of n.children.values()) all(c);
  };
  all(node);
}

/** Whether the policy defines `path` (`data.mcp.fetch.allow`) as a rule or a package of rules. */
export function definesRule(policy: CompiledPolicy, path: string): boolean {
  const parts = path.split('.');
  if (parts[0] !== 'data') return false;
  let node = policy.root;
  for (const seg of parts.slice(1)) {
    const next = node.children.get(seg);
    if (!next) return false;
    node = next;
  }
  return node.group !== undefined && node.group.kind !== 'function';
}

export interface CompiledQuery {
  readonly body: Body;
  readonly slots: number;
  /** The query's named variables (not `_`) → slot. */
  readonly vars: ReadonlyMap<string, number>;
}

/** Compiles an ad-hoc query against a policy (conformance cases, tooling): no package, full refs. */
export function compileQuery(policy: CompiledPolicy, text: string): CompiledQuery {
  const functions = new Map<string, number>();
  for (const g of policy.groups.values()) if (g.kind === 'function') functions.set(g.id, g.arity);
  const resolver = new RuleResolver({ pkg: [], imports: new Map(), ruleNames: new Set(), functions });
  const { body, names } = resolver.query(parseQuery(text));
  orderBody(body, new Set());
  const vars = new Map([...names].filter(([n]) => !n.startsWith('_$')));
  return { body, slots: resolver.slots, vars };
}
