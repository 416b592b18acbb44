// The Rego v1 parser: tokens → a Module. Recursive descent with OPA's operator precedence
// (`in` < `|` < `&` < comparison < `+ -` < `* / %`). Rego separates a body's expressions by `;`
// or a newline, but a newline inside brackets is just space: `#nl` is a stack saying whether
// newlines end expressions at the current nesting level.
import type { Body, ElseClause, Expr, Import, Module, Rule, Term, VarTerm, With } from './ast.ts';
import { RegoError } from './errors.ts';
import { tokenize, type Position, type Token } from './lexer.ts';

const KEYWORDS = new Set(['if', 'contains', 'in', 'every', 'some', 'not', 'with', 'as', 'default', 'else', 'package', 'import']);
const RELATIONS: Record<string, string> = { '==': 'equal', '!=': 'neq', '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' };

export function parseModule(src: string, file: string): Module {
  return new Parser(tokenize(src, file), file).module();
}

/** A query: a body without braces (`data.x.p = v; v > 1`). */
export function parseQuery(src: string, file = 'query'): Body {
  return new Parser(tokenize(src, file), file).query();
}

class Parser {
  readonly #toks: Token[];
  readonly #file: string;
  #i = 0;
  readonly #nl: boolean[] = [false];
  #wildcards = 0;
  /** Terms written in parentheses (`(2 in xs)` is a value, not the tail of `k, v in xs`). */
  readonly #parenthesized = new WeakSet<Term>();
  #noOr = false;

  constructor(toks: Token[], file: string) {
    this.#toks = toks;
    this.#file = file;
  }

  get #tok(): Token { return this.#toks[this.#i]!; }
  #peek(n = 1): Token { return this.#toks[Math.min(this.#i + n, this.#toks.length - 1)]!; }
  #pos(t: Token = this.#tok): Position { return { file: this.#file, line: t.line, col: t.col }; }

  #fail(msg: string, t: Token = this.#tok): never {
    throw new RegoError('rego_parse_error', msg, this.#pos(t));
  }

  #isOp(text: string, t: Token = this.#tok): boolean { return t.kind === 'op' && t.text === text; }
  #isKw(text: string, t: Token = this.#tok): boolean { return t.kind === 'ident' && t.text === text; }
  /** Whether a newline before the current token ends the expression at this level. */
  #atBreak(): boolean { return this.#tok.nl && this.#nl[this.#nl.length - 1] === true; }

  #expectOp(text: string): Token {
    if (!this.#isOp(text)) this.#fail(`expected '${text}', found ${describe(this.#tok)}`);
    return this.#toks[this.#i++]!;
  }

  #nested<T>(significant: boolean, f: () => T): T {
    this.#nl.push(significant);
    const noOr = this.#noOr;
    this.#noOr = false;
    try {
      return f();
    } finally {
      this.#nl.pop();
      this.#noOr = noOr;
    }
  }

  query(): Body {
    this.#nl.push(true);
    const exprs: Expr[] = [];
    while (this.#tok.kind !== 'eof') {
      exprs.push(this.#literal());
      const t: Token = this.#tok;
      if (this.#isOp(';')) { this.#i++; continue; }
      if (t.kind !== 'eof' && !t.nl) this.#fail(`unexpected ${describe(t)}`);
    }
    if (exprs.length === 0) this.#fail('empty query');
    return { exprs };
  }

  module(): Module {
    if (!this.#isKw('package')) this.#fail(`expected 'package', found ${describe(this.#tok)}`);
    this.#i++;
    const pkg = this.#packagePath();
    const imports: Import[] = [];
    while (this.#isKw('import')) imports.push(this.#import());
    const rules: Rule[] = [];
    while (this.#tok.kind !== 'eof') {
      if (this.#isKw('import')) this.#fail('imports must come before the rules');
      if (this.#isKw('package')) this.#fail('a file holds one package');
      rules.push(...this.#rule());
    }
    return { file: this.#file, pkg, imports, rules };
  }

  #packagePath(): string[] {
    const parts = [this.#ident()];
    for (;;) {
      if (this.#isOp('.') && !this.#tok.nl) { this.#i++; parts.push(this.#ident()); continue; }
      if (this.#isOp('[') && !this.#tok.nl) {
        this.#i++;
        if (this.#tok.kind !== 'string') this.#fail('package path elements must be strings');
        parts.push(this.#toks[this.#i++]!.text);
        this.#expectOp(']');
        continue;
      }
      return parts;
    }
  }

  #ident(): string {
    const t = this.#tok;
    if (t.kind !== 'ident') this.#fail(`expected a name, found ${describe(t)}`);
    this.#i++;
    return t.text;
  }

  #import(): Import {
    const at = this.#pos();
    this.#i++;
    const path = this.#packagePath();
    const root = path[0];
    if (root !== 'data' && root !== 'input' && root !== 'future' && root !== 'rego') {
      this.#fail(`invalid import path ${path.join('.')}: must begin with input, data, future or rego`, this.#toks[this.#i - 1]);
    }
    let alias = path[path.length - 1]!;
    if (this.#isKw('as')) {
      this.#i++;
      alias = this.#ident();
    }
    return { path, alias, pos: at };
  }

  #rule(): Rule[] {
    const start = this.#tok;
    const isDefault = this.#isKw('default');
    if (isDefault) this.#i++;
    if (this.#tok.kind !== 'ident' || KEYWORDS.has(this.#tok.text)) this.#fail(`expected a rule, found ${describe(this.#tok)}`);
    const ref = this.#headRef();
    let kind: Rule['kind'] = 'complete';
    let args: Term[] = [];
    let key: Term | undefined;
    let value: Term | undefined;
    if (this.#isOp('(') && !this.#tok.nl) {
      kind = 'function';
      this.#i++;
      args = this.#nested(false, () => this.#termList(')'));
    }
    if (this.#isKw('contains')) {
      if (kind === 'function') this.#fail('a function cannot use contains');
      kind = 'contains';
      this.#i++;
      key = this.#nested(false, () => this.#termIn());
    }
    if ((this.#isOp(':=') || this.#isOp('=')) && kind !== 'contains') {
      this.#i++;
      value = this.#nested(false, () => this.#termIn());
    }
    const pos = this.#pos(start);
    if (isDefault) {
      if (value === undefined) this.#fail('a default rule must assign a value (default p := <value>)', start);
      return [{ pos, isDefault, ref, kind, key, value, args, body: { exprs: [] }, elses: [], slots: 0 }];
    }
    if (this.#isOp('{') && !this.#tok.nl) this.#fail('`if` keyword is required before rule body');
    const body = this.#ruleBody();
    const elses: ElseClause[] = [];
    while (this.#isKw('else')) {
      const at = this.#pos();
      this.#i++;
      let v: Term | undefined;
      if (this.#isOp(':=') || this.#isOp('=')) {
        this.#i++;
        v = this.#nested(false, () => this.#termIn());
      }
      elses.push({ value: v, body: this.#ruleBody(), pos: at });
    }
    if (elses.length > 0 && kind !== 'complete' && kind !== 'function') this.#fail('else applies to complete rules and functions only', start);
    return [{ pos, isDefault, ref, kind, key, value, args, body, elses, slots: 0 }];
  }

  /** `p`, `p.q.r`, `p[x]`, `p.q[x]`: the first element is the name. */
  #headRef(): Term[] {
    const t = this.#tok;
    const ref: Term[] = [{ t: 'scalar', v: this.#ident(), pos: this.#pos(t) }];
    for (;;) {
      if (this.#isOp('.') && !this.#tok.nl) {
        this.#i++;
        const p = this.#tok;
        ref.push({ t: 'scalar', v: this.#ident(), pos: this.#pos(p) });
      } else if (this.#isOp('[') && !this.#tok.nl) {
        this.#i++;
        ref.push(this.#nested(false, () => this.#termIn()));
        this.#expectOp(']');
      } else {
        return ref;
      }
    }
  }

  /** `if { … }`, `if <expr>`, or nothing (an empty body). */
  #ruleBody(): Body {
    if (!this.#isKw('if')) return { exprs: [] };
    this.#i++;
    if (this.#isOp('{')) {
      this.#i++;
      const body = this.#nested(true, () => this.#literals('}'));
      this.#expectOp('}');
      return body;
    }
    return { exprs: [this.#nested(true, () => this.#literal())] };
  }

  /** Literals up to (not including) `close`, separated by `;` or newlines. */
  #literals(close: string): Body {
    const exprs: Expr[] = [];
    while (!this.#isOp(close)) {
      if (this.#tok.kind === 'eof') this.#fail(`expected '${close}'`);
      const before = this.#i;
      exprs.push(this.#literal());
      if (this.#isOp(';')) { this.#i++; continue; }
      if (!this.#isOp(close) && !this.#tok.nl) this.#fail(`unexpected ${describe(this.#tok)}`);
      if (this.#i === before) this.#fail(`unexpected ${describe(this.#tok)}`);
    }
    if (exprs.length === 0) this.#fail('a body must not be empty');
    return { exprs };
  }

  #literal(): Expr {
    const start = this.#tok;
    const pos = this.#pos(start);
    if (this.#isKw('some') || this.#isKw('every')) {
      const e = this.#isKw('some') ? this.#some(pos) : this.#every(pos);
      while (this.#isKw('with') && !this.#atBreak()) e.with.push(this.#with());
      return e;
    }
    const negated = this.#isKw('not');
    if (negated) this.#i++;
    const a = this.#termIn();
    let expr: Expr;
    if (this.#isOp(',') && !this.#atBreak()) {
      this.#i++;
      expr = { e: 'term', term: this.#memberWithKey(a, pos), pos, negated, with: [] };
    } else if ((this.#isOp(':=') || this.#isOp('=')) && !this.#atBreak()) {
      const op = this.#toks[this.#i++]!.text;
      if (op === ':=' && negated) this.#fail('cannot assign in a negated expression', start);
      expr = { e: op === ':=' ? 'assign' : 'unify', a, b: this.#termIn(), pos, negated, with: [] };
    } else {
      expr = { e: 'term', term: a, pos, negated, with: [] };
    }
    while (this.#isKw('with') && !this.#atBreak()) expr.with.push(this.#with());
    return expr;
  }

  /**
   * `k, v in coll` after the `k,`: the rest is parsed as one `in` chain and its outermost `in` is
   * the keyed membership, so `1, 2 in [2] in [false, true]` is `1, (2 in [2]) in [false, true]`.
   */
  #memberWithKey(key: Term, pos: Position): Term {
    const t = this.#tok;
    const rest = this.#termIn();
    if (rest.t !== 'call' || rest.name !== 'internal.member_2' || this.#parenthesized.has(rest)) this.#fail(`expected 'in', found ${describe(this.#tok)}`, t);
    return { t: 'call', name: 'internal.member_3', args: [key, rest.args[0]!, rest.args[1]!], pos };
  }

  #with(): With {
    const pos = this.#pos();
    this.#i++;
    const target = this.#termOr();
    if (!this.#isKw('as')) this.#fail(`expected 'as', found ${describe(this.#tok)}`);
    this.#i++;
    return { target, value: this.#termOr(), pos };
  }

  #some(pos: Position): Expr {
    this.#i++;
    const first = this.#termOr();
    const terms: Term[] = [first];
    while (this.#isOp(',') && !this.#atBreak()) {
      this.#i++;
      terms.push(this.#termOr());
    }
    if (this.#isKw('in') && !this.#atBreak()) {
      this.#i++;
      if (terms.length > 2) this.#fail('some … in takes at most a key and a value', this.#toks[this.#i - 1]);
      const coll = this.#termOr();
      const [k, v] = terms.length === 2 ? [terms[0], terms[1]!] : [undefined, terms[0]!];
      return { e: 'somein', key: k, value: v, coll, pos, negated: false, with: [] };
    }
    const vars = terms.map((t) => (t.t === 'var' ? t : this.#fail('some declares variables: expected a name', this.#toks[this.#i - 1])));
    return { e: 'some', vars, pos, negated: false, with: [] };
  }

  #every(pos: Position): Expr {
    this.#i++;
    const first = this.#varName();
    let key: VarTerm | undefined;
    let value = first;
    if (this.#isOp(',')) {
      this.#i++;
      key = first;
      value = this.#varName();
    }
    if (!this.#isKw('in')) this.#fail(`expected 'in', found ${describe(this.#tok)}`);
    this.#i++;
    const coll = this.#termOr();
    this.#expectOp('{');
    const body = this.#nested(true, () => this.#literals('}'));
    this.#expectOp('}');
    return { e: 'every', key, value, coll, body, pos, negated: false, with: [] };
  }

  #varName(): VarTerm {
    const t = this.#tok;
    if (t.kind !== 'ident' || KEYWORDS.has(t.text)) this.#fail(`expected a variable, found ${describe(t)}`);
    this.#i++;
    return this.#var(t);
  }

  #var(t: Token): VarTerm {
    const name = t.text === '_' ? `_$${++this.#wildcards}` : t.text;
    return { t: 'var', name, pos: this.#pos(t), slot: -1 };
  }

  // ── terms, by precedence ──────────────────────────────────────────────

  #termIn(): Term {
    let lhs = this.#termOr();
    while (this.#isKw('in') && !this.#atBreak()) {
      const pos = this.#pos();
      this.#i++;
      lhs = { t: 'call', name: 'internal.member_2', args: [lhs, this.#termOr()], pos };
    }
    return lhs;
  }

  #binary(next: () => Term, ops: Record<string, string>): Term {
    let lhs = next();
    for (;;) {
      const t = this.#tok;
      const name = t.kind === 'op' ? ops[t.text] : undefined;
      if (name === undefined || this.#atBreak()) return lhs;
      this.#i++;
      lhs = { t: 'call', name, args: [lhs, next()], pos: this.#pos(t) };
    }
  }

  #termOr(): Term { return this.#binary(() => this.#termAnd(), this.#noOr ? {} : { '|': 'or' }); }

  /** A comprehension's head: `[x | …]` is a comprehension, never `x | …` (set union). */
  #head(): Term {
    return this.#nested(false, () => {
      this.#noOr = true;
      return this.#termIn();
    });
  }
  #termAnd(): Term { return this.#binary(() => this.#termRelation(), { '&': 'and' }); }
  #termRelation(): Term { return this.#binary(() => this.#termArith(), RELATIONS); }
  #termArith(): Term { return this.#binary(() => this.#termFactor(), { '+': 'plus', '-': 'minus' }); }
  #termFactor(): Term { return this.#binary(() => this.#unary(), { '*': 'mul', '/': 'div', '%': 'rem' }); }

  #unary(): Term {
    if (this.#isOp('-')) {
      const t = this.#tok;
      this.#i++;
      const operand = this.#unary();
      if (operand.t === 'scalar' && typeof operand.v === 'number') return { t: 'scalar', v: -operand.v, pos: this.#pos(t) };
      return { t: 'call', name: 'minus', args: [{ t: 'scalar', v: 0, pos: this.#pos(t) }, operand], pos: this.#pos(t) };
    }
    return this.#postfix(this.#primary());
  }

  /** `.name`, `[term]` and `(args)` after a term; none may start a new line. */
  #postfix(term: Term): Term {
    let t = term;
    for (;;) {
      if (this.#isOp('.') && !this.#tok.nl && this.#peek().kind === 'ident') {
        this.#i++;
        const p = this.#tok;
        t = appendRef(t, { t: 'scalar', v: this.#ident(), pos: this.#pos(p) });
      } else if (this.#isOp('[') && !this.#tok.nl) {
        this.#i++;
        const key = this.#nested(false, () => this.#termIn());
        this.#expectOp(']');
        t = appendRef(t, key);
      } else if (this.#isOp('(') && !this.#tok.nl && (t.t === 'var' || t.t === 'ref')) {
        const name = callName(t);
        if (name === undefined) this.#fail('a call needs a function name like f or lib.f');
        this.#i++;
        const args = this.#nested(false, () => this.#termList(')'));
        t = { t: 'call', name, args, pos: t.pos };
      } else {
        return t;
      }
    }
  }

  #termList(close: string): Term[] {
    const items: Term[] = [];
    while (!this.#isOp(close)) {
      items.push(this.#termIn());
      if (this.#isOp(',')) { this.#i++; continue; }
      if (!this.#isOp(close)) this.#fail(`expected ',' or '${close}', found ${describe(this.#tok)}`);
    }
    this.#i++;
    return items;
  }

  #primary(): Term {
    const t = this.#tok;
    const pos = this.#pos(t);
    switch (t.kind) {
      case 'number': {
        this.#i++;
        return { t: 'scalar', v: Number(t.text), pos };
      }
      case 'string':
        this.#i++;
        return { t: 'scalar', v: t.text, pos };
      case 'ident':
        if (t.text === 'true' || t.text === 'false') { this.#i++; return { t: 'scalar', v: t.text === 'true', pos }; }
        if (t.text === 'null') { this.#i++; return { t: 'scalar', v: null, pos }; }
        if (t.text === 'set' && this.#isOp('(', this.#peek()) && this.#isOp(')', this.#peek(2))) {
          this.#i += 3;
          return { t: 'set', items: [], pos };
        }
        // `contains` is a keyword in rule heads and the built-in contains(s, sub) in calls.
        if (KEYWORDS.has(t.text) && !(t.text === 'contains' && this.#isOp('(', this.#peek()) && !this.#peek().nl)) {
          this.#fail(`unexpected keyword '${t.text}'`);
        }
        this.#i++;
        return this.#var(t);
      case 'op':
        if (t.text === '(') {
          this.#i++;
          const inner = this.#nested(false, () => {
            const first = this.#termIn();
            if (!this.#isOp(',')) return first;
            this.#i++;
            return this.#memberWithKey(first, pos);
          });
          this.#expectOp(')');
          this.#parenthesized.add(inner);
          return inner;
        }
        if (t.text === '[') return this.#array(pos);
        if (t.text === '{') return this.#braces(pos);
        return this.#fail(`unexpected ${describe(t)}`);
      default:
        return this.#fail('unexpected end of file');
    }
  }

  #array(pos: Position): Term {
    this.#i++;
    if (this.#isOp(']')) { this.#i++; return { t: 'array', items: [], pos }; }
    const first = this.#head();
    if (this.#isOp('|')) {
      this.#i++;
      const body = this.#nested(true, () => this.#literals(']'));
      this.#expectOp(']');
      return { t: 'acomp', head: first, body, pos };
    }
    const rest = this.#isOp(',') ? (this.#i++, this.#nested(false, () => this.#termList(']'))) : (this.#expectOp(']'), []);
    return { t: 'array', items: [first, ...rest], pos };
  }

  #braces(pos: Position): Term {
    this.#i++;
    if (this.#isOp('}')) { this.#i++; return { t: 'object', entries: [], pos }; }
    const first = this.#head();
    if (this.#isOp(':')) {
      this.#i++;
      const value = this.#head();
      if (this.#isOp('|')) {
        this.#i++;
        const body = this.#nested(true, () => this.#literals('}'));
        this.#expectOp('}');
        return { t: 'ocomp', key: first, value, body, pos };
      }
      const entries: [Term, Term][] = [[first, value]];
      this.#nested(false, () => {
        while (this.#isOp(',')) {
          this.#i++;
          if (this.#isOp('}')) break;
          const k = this.#termIn();
          this.#expectOp(':');
          entries.push([k, this.#termIn()]);
        }
      });
      this.#expectOp('}');
      return { t: 'object', entries, pos };
    }
    if (this.#isOp('|')) {
      this.#i++;
      const body = this.#nested(true, () => this.#literals('}'));
      this.#expectOp('}');
      return { t: 'scomp', head: first, body, pos };
    }
    const rest = this.#isOp(',') ? (this.#i++, this.#nested(false, () => this.#termList('}'))) : (this.#expectOp('}'), []);
    return { t: 'set', items: [first, ...rest], pos };
  }
}

function appendRef(t: Term, key: Term): Term {
  if (t.t === 'ref') return { t: 'ref', head: t.head, path: [...t.path, key], pos: t.pos };
  return { t: 'ref', head: t, path: [key], pos: t.pos };
}

/** `f` or `a.b.c` (all-string path) as a dotted name. */
function callName(t: Term): string | undefined {
  if (t.t === 'var') return t.name;
  if (t.t !== 'ref' || t.head.t !== 'var') return undefined;
  const parts = [t.head.name];
  for (const p of t.path) {
    if (p.t !== 'scalar' || typeof p.v !== 'string') return undefined;
    parts.push(p.v);
  }
  return parts.join('.');
}

function describe(t: Token): string {
  if (t.kind === 'eof') return 'end of file';
  if (t.kind === 'string') return 'a string';
  return `'${t.text}'`;
}
