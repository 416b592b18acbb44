// Rewrites bundled guest-platform code so that it calls the builtins captured at boot instead of
// whatever the globals and prototypes hold when it runs (aesthetics §8.3: glue captures
// primordials first). Applied to every bundle, including the npm packages in it:
//   Object.keys(x)            → __runjs_P.Object_keys(x)
//   Array.prototype.slice     → __runjs_P.ArrayProto_slice
//   a.push(b)                 → __runjs_P.$push(a, b)      (dispatches to the boot-time method)
//   for (x of xs), [...xs], f(...xs), const [a, b] = xs
//                             → …__runjs_P.iter(xs)…       (boot-time iteration of builtin collections)
//   for (k in o)              → for (k of __runjs_P.forIn(o))   (no keys planted on builtin prototypes)
// and the bundle runs inside a function whose locals shadow the global constructors
// (`Promise`, `Map`, `Uint8Array`, …) with their boot-time values (see wrapBundle).
import { parse } from 'acorn';
import { BOOT_CAPTURES, PRIMORDIALS_BINDING, PROTOTYPE_HOLDERS, SHADOWED_GLOBALS, STATIC_HOLDERS } from './primordials-names.ts';

type AnyNode = { type: string; start: number; end: number; [k: string]: unknown };

/** What the rewritten code refers to; the runtime captures exactly these. */
export interface PrimordialsUse {
  statics: Map<string, Set<string>>;
  protoStatics: Map<string, Set<string>>;
  methods: Set<string>;
  /** BOOT_CAPTURES names the code reads. */
  boot: Set<string>;
}

export function emptyUse(): PrimordialsUse {
  return { statics: new Map(), protoStatics: new Map(), methods: new Set(), boot: new Set() };
}

const g = globalThis as unknown as Record<string, unknown>;

function holderObject(name: string): object | undefined {
  if (name === 'TypedArray') return Object.getPrototypeOf(Uint8Array) as object;
  const v = g[name];
  return typeof v === 'object' || typeof v === 'function' ? (v as object) : undefined;
}

function functionKeys(o: object | undefined): Set<string> {
  const out = new Set<string>();
  if (o === undefined) return out;
  for (const k of Object.getOwnPropertyNames(o)) {
    const d = Object.getOwnPropertyDescriptor(o, k);
    if (d && typeof d.value === 'function' && k !== 'constructor') out.add(k);
  }
  return out;
}

/** Function-valued statics per holder, as the host's (newer-or-equal) engine has them. */
const STATICS = new Map(STATIC_HOLDERS.map((h) => [h, functionKeys(holderObject(h))]));
/**
 * Prototype methods per global constructor (for `X.prototype.m` reads), inherited ones included
 * (`Uint8Array.prototype.set` lives on %TypedArray%.prototype), short of Object.prototype.
 */
const PROTO_STATICS = new Map(
  SHADOWED_GLOBALS.filter((n) => PROTOTYPE_HOLDERS.includes(n)).map((n) => {
    const keys = new Set<string>();
    let proto = (holderObject(n) as { prototype?: object } | undefined)?.prototype;
    while (proto !== undefined && proto !== null && (proto !== Object.prototype || n === 'Object')) {
      for (const k of functionKeys(proto)) keys.add(k);
      proto = Object.getPrototypeOf(proto) as object | null ?? undefined;
    }
    return [n, keys];
  }),
);
/** Method name → the captured prototypes (PROTOTYPE_HOLDERS names) that hold it: calls by these names are dispatched. */
const METHOD_HOLDERS = new Map<string, string[]>();
{
  const protoOf = (h: string): object | undefined => {
    switch (h) {
      case 'ArrayIterator': return Object.getPrototypeOf([][Symbol.iterator]()) as object;
      case 'MapIterator': return Object.getPrototypeOf(new Map()[Symbol.iterator]()) as object;
      case 'SetIterator': return Object.getPrototypeOf(new Set()[Symbol.iterator]()) as object;
      case 'StringIterator': return Object.getPrototypeOf(''[Symbol.iterator]()) as object;
      case 'Generator': return (Object.getPrototypeOf(function* () {}) as { prototype: object }).prototype;
      case 'AsyncGenerator': return (Object.getPrototypeOf(async function* () {}) as { prototype: object }).prototype;
      default: return (holderObject(h) as { prototype?: object } | undefined)?.prototype;
    }
  };
  for (const h of PROTOTYPE_HOLDERS) {
    for (const k of functionKeys(protoOf(h))) {
      let list = METHOD_HOLDERS.get(k);
      if (!list) METHOD_HOLDERS.set(k, (list = []));
      list.push(h);
    }
  }
}

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as AnyNode).type === 'string';
}

function children(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const key of Object.keys(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    const v = node[key];
    if (Array.isArray(v)) { for (const c of v) if (isNode(c)) out.push(c); } else if (isNode(v)) out.push(v);
  }
  return out;
}

/** Every name bound anywhere in the program (a declared `Object` would make rewriting unsafe). */
function declaredNames(root: AnyNode): Set<string> {
  const names = new Set<string>();
  const addPattern = (p: AnyNode | null | undefined): void => {
    if (!p) return;
    switch (p.type) {
      case 'Identifier': names.add(p['name'] as string); break;
      case 'ObjectPattern': for (const prop of p['properties'] as AnyNode[]) addPattern(prop.type === 'RestElement' ? prop : (prop['value'] as AnyNode)); break;
      case 'ArrayPattern': for (const el of p['elements'] as (AnyNode | null)[]) addPattern(el); break;
      case 'RestElement': addPattern(p['argument'] as AnyNode); break;
      case 'AssignmentPattern': addPattern(p['left'] as AnyNode); break;
      default: break;
    }
  };
  const visit = (n: AnyNode): void => {
    switch (n.type) {
      case 'VariableDeclarator': addPattern(n['id'] as AnyNode); break;
      case 'FunctionDeclaration': case 'FunctionExpression': case 'ArrowFunctionExpression':
        addPattern(n['id'] as AnyNode | null);
        for (const p of n['params'] as AnyNode[]) addPattern(p);
        break;
      case 'ClassDeclaration': case 'ClassExpression': addPattern(n['id'] as AnyNode | null); break;
      case 'CatchClause': addPattern(n['param'] as AnyNode | null); break;
      default: break;
    }
    for (const c of children(n)) visit(c);
  };
  visit(root);
  return names;
}

interface Edit { start: number; end: number; text: string; order: number }

/** Rewrites `code` (a script body); records what it used into `use`. */
export function primordialize(code: string, use: PrimordialsUse): string {
  const program = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true }) as unknown as AnyNode;
  const declared = declaredNames(program);
  const edits: Edit[] = [];
  let order = 0;
  for (const m of code.matchAll(/\b(boot_[A-Za-z]+_\w+)\b/g)) if (m[1]! in BOOT_CAPTURES) use.boot.add(m[1]!);
  const P = PRIMORDIALS_BINDING;

  /** `X.m` for a captured static (or `X.prototype.m`), else undefined. */
  const staticRewrite = (m: AnyNode): string | undefined => {
    if (m.type !== 'MemberExpression' || m['computed'] || m['optional']) return undefined;
    const obj = m['object'] as AnyNode;
    const prop = m['property'] as AnyNode;
    if (prop.type !== 'Identifier') return undefined;
    const name = prop['name'] as string;
    if (obj.type === 'Identifier') {
      const holder = obj['name'] as string;
      if (declared.has(holder) || !STATICS.get(holder)?.has(name)) return undefined;
      let set = use.statics.get(holder);
      if (!set) use.statics.set(holder, (set = new Set()));
      set.add(name);
      return `${P}.${holder}_${name}`;
    }
    if (obj.type === 'MemberExpression' && !obj['computed'] && !obj['optional']) {
      const base = obj['object'] as AnyNode;
      const protoKey = obj['property'] as AnyNode;
      if (base.type !== 'Identifier' || protoKey.type !== 'Identifier' || protoKey['name'] !== 'prototype') return undefined;
      const holder = base['name'] as string;
      if (declared.has(holder) || !PROTO_STATICS.get(holder)?.has(name)) return undefined;
      let set = use.protoStatics.get(holder);
      if (!set) use.protoStatics.set(holder, (set = new Set()));
      set.add(name);
      return `${P}.${holder}Proto_${name}`;
    }
    return undefined;
  };

  const isWriteTarget = (parent: AnyNode | undefined, node: AnyNode): boolean => {
    if (!parent) return false;
    if (parent.type === 'AssignmentExpression' && parent['left'] === node) return true;
    if (parent.type === 'UpdateExpression') return true;
    if (parent.type === 'UnaryExpression' && parent['operator'] === 'delete') return true;
    if ((parent.type === 'ForInStatement' || parent.type === 'ForOfStatement') && parent['left'] === node) return true;
    return false;
  };

  /** Iterates `expr` through `__runjs_P.iter` (see primordials-runtime.js, makeIter). */
  const wrapIterated = (expr: AnyNode): void => {
    edits.push({ start: expr.start, end: expr.start, text: `${P}.iter(`, order: order++ });
    edits.push({ start: expr.end, end: expr.end, text: ')', order: order++ });
  };

  /**
   * `for (k in o)` → `for (k of __runjs_P.forIn(o))`: the keys for-in would visit, short of the
   * builtin prototypes (an enumerable `Object.prototype.polluted` is not a key of the platform's
   * objects; see primordials-runtime.js, forIn).
   */
  const rewriteForIn = (node: AnyNode): void => {
    const left = node['left'] as AnyNode;
    const right = node['right'] as AnyNode;
    const keyword = /\bin\b/.exec(code.slice(left.end, right.start));
    if (keyword === null) throw new Error(`primordialize: no 'in' in the for-in at ${node.start}`);
    const at = left.end + keyword.index;
    edits.push({ start: at, end: at + 2, text: `of ${P}.forIn(`, order: order++ });
    edits.push({ start: right.end, end: right.end, text: ')', order: order++ });
  };

  const visit = (node: AnyNode, parent: AnyNode | undefined, inChain: boolean): void => {
    if (node.type === 'ForOfStatement' && !node['await']) wrapIterated(node['right'] as AnyNode);
    if (node.type === 'ForInStatement') rewriteForIn(node);
    if (node.type === 'SpreadElement' && parent && parent.type !== 'ObjectExpression') wrapIterated(node['argument'] as AnyNode);
    // A binding pattern `[a, b = 1]` reads indices instead (`{0: a, 1: b = 1}`): no iterator. One
    // with holes or a rest element keeps iterating, through iter() where it has an initialiser.
    if (node.type === 'ArrayPattern' && parent?.type !== 'AssignmentExpression') {
      const elements = node['elements'] as (AnyNode | null)[];
      if (elements.every((el) => el !== null && el.type !== 'RestElement')) {
        edits.push({ start: node.start, end: node.start + 1, text: '{', order: order++ });
        elements.forEach((el, i) => edits.push({ start: el!.start, end: el!.start, text: `${i}: `, order: order++ }));
        edits.push({ start: node.end - 1, end: node.end, text: '}', order: order++ });
      } else if (parent?.type === 'VariableDeclarator' && parent['init']) {
        wrapIterated(parent['init'] as AnyNode);
      }
    }
    if (node.type === 'AssignmentExpression' && (node['left'] as AnyNode).type === 'ArrayPattern') wrapIterated(node['right'] as AnyNode);
    if (node.type === 'ChainExpression') { for (const c of children(node)) visit(c, node, true); return; }
    if (node.type === 'MemberExpression' && !isWriteTarget(parent, node)) {
      const text = staticRewrite(node);
      if (text !== undefined) {
        edits.push({ start: node.start, end: node.end, text, order: order++ });
        return;
      }
    }
    if (node.type === 'CallExpression' && !inChain && !node['optional']) {
      const callee = node['callee'] as AnyNode;
      if (callee.type === 'MemberExpression' && !callee['computed'] && !callee['optional']
          && (callee['object'] as AnyNode).type !== 'Super' && (callee['property'] as AnyNode).type === 'Identifier'
          && staticRewrite(callee) === undefined) {
        const name = (callee['property'] as AnyNode)['name'] as string;
        const obj = callee['object'] as AnyNode;
        const prop = callee['property'] as AnyNode;
        const args = node['arguments'] as AnyNode[];
        let dot = prop.start - 1;
        while (dot > obj.end && /\s/.test(code[dot]!)) dot--;
        let paren = callee.end;
        while (paren < node.end && /\s/.test(code[paren]!)) paren++;
        if (METHOD_HOLDERS.has(name) && code[dot] === '.' && code[paren] === '(') {
          use.methods.add(name);
          edits.push({ start: callee.start, end: callee.start, text: `${P}.$${name}(`, order: order++ });
          edits.push({ start: dot, end: paren + 1, text: args.length > 0 ? ', ' : '', order: order++ });
        }
      }
    }
    for (const c of children(node)) visit(c, node, inChain && node.type !== 'FunctionExpression' && node.type !== 'ArrowFunctionExpression');
  };
  visit(program, undefined, false);

  edits.sort((a, b) => a.start - b.start || (a.end - a.start) - (b.end - b.start) || a.order - b.order);
  let out = '';
  let pos = 0;
  for (const e of edits) {
    if (e.start < pos) throw new Error(`primordialize: overlapping edits at ${e.start}`);
    out += code.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + code.slice(pos);
}

const PROTO_EXPR: Record<string, string> = {
  TypedArray: 'getProto(Uint8Array.prototype)',
  ArrayIterator: 'getProto([][Symbol.iterator]())',
  MapIterator: 'getProto(new Map()[Symbol.iterator]())',
  SetIterator: 'getProto(new Set()[Symbol.iterator]())',
  StringIterator: 'getProto(\'\'[Symbol.iterator]())',
  Generator: 'getProto(function* () {}).prototype',
  AsyncGenerator: 'getProto(async function* () {}).prototype',
};

/**
 * The capture of every builtin the rewritten code refers to, as straight-line code (an object
 * literal, not a loop over names: it runs at every realm boot, before any user code).
 * Evaluates to the primordials object; needs installDispatchers (primordials-runtime.js) in scope.
 */
export function primordialsSource(use: PrimordialsUse): string {
  const lines: string[] = [];
  const protoVar = (h: string) => `${h}Proto`;
  const protoHolders = new Set<string>([...use.protoStatics.keys()]);
  for (const m of use.methods) for (const h of METHOD_HOLDERS.get(m)!) protoHolders.add(h);
  lines.push('const g = globalThis;', 'const getProto = Object.getPrototypeOf;');
  for (const h of [...protoHolders].sort()) {
    lines.push(`const ${protoVar(h)} = ${PROTO_EXPR[h] ?? `g.${h}?.prototype`};`);
  }
  const props: string[] = [];
  for (const n of SHADOWED_GLOBALS) props.push(`${n}: g.${n}`);
  for (const [holder, names] of [...use.statics].sort(([a], [b]) => a.localeCompare(b))) {
    // Statics that use `this` as a constructor or receiver stay bound to their holder.
    const bind = holder === 'Promise' || holder === 'Uint8Array';
    for (const n of [...names].sort()) props.push(`${holder}_${n}: ${bind ? `g.${holder}.${n}?.bind(g.${holder})` : `${holder}.${n}`}`);
  }
  for (const [holder, names] of [...use.protoStatics].sort(([a], [b]) => a.localeCompare(b))) {
    for (const n of [...names].sort()) props.push(`${holder}Proto_${n}: ${protoVar(holder)}?.${n}`);
  }
  for (const n of [...use.boot].sort()) props.push(`${n}: ${BOOT_CAPTURES[n]!}`);
  lines.push(`const P = {\n  ${props.join(',\n  ')},\n};`);
  const saved: string[] = [];
  for (const m of [...use.methods].sort()) {
    const pairs = METHOD_HOLDERS.get(m)!.map((h) => `${protoVar(h)}, ${protoVar(h)}?.${m}`);
    saved.push(`${JSON.stringify(m)}: [${pairs.join(', ')}]`);
  }
  lines.push(`return installDispatchers(P, {\n  ${saved.join(',\n  ')},\n});`);
  return lines.join('\n');
}

/** `var Promise = __runjs_P.Promise, …;` — the shadowing prologue of every bundle. */
export function shadowPrologue(extra: readonly string[] = []): string {
  const names = [...SHADOWED_GLOBALS.map((n) => `${n} = ${PRIMORDIALS_BINDING}.${n}`), ...extra];
  return `var ${names.join(', ')};`;
}
