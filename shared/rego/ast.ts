// The Rego syntax tree. The parser builds it; the compiler (compiler.ts) then resolves names in
// place — a variable that names a rule or an import becomes a ref under `data`/`input`, local
// variables get frame slots, calls get their target — so the evaluator walks this same tree.
import type { Position } from './lexer.ts';
import type { Value } from './values.ts';

export type Term =
  | ScalarTerm | VarTerm | RefTerm | ArrayTerm | SetTerm | ObjectTerm | CallTerm | ComprehensionTerm | ObjectComprehensionTerm;

export interface ScalarTerm { readonly t: 'scalar'; readonly v: Value; readonly pos: Position }

export interface VarTerm {
  readonly t: 'var';
  readonly name: string;
  readonly pos: Position;
  /** The frame slot (compiler); -1 for the roots `input` and `data`. */
  slot: number;
}

export interface RefTerm { readonly t: 'ref'; head: Term; readonly path: Term[]; readonly pos: Position }
export interface ArrayTerm { readonly t: 'array'; readonly items: Term[]; readonly pos: Position }
export interface SetTerm { readonly t: 'set'; readonly items: Term[]; readonly pos: Position }
export interface ObjectTerm { readonly t: 'object'; readonly entries: [Term, Term][]; readonly pos: Position }

/** What a call resolves to (compiler): a built-in, or the rule group of a user function. */
export type CallTarget = { readonly kind: 'builtin'; readonly name: string } | { readonly kind: 'function'; readonly path: string };

export interface CallTerm {
  readonly t: 'call';
  /** The dotted name as written (`startswith`, `lib.f`, `data.lib.f`). */
  readonly name: string;
  readonly args: Term[];
  readonly pos: Position;
  target?: CallTarget;
  /** Called with one argument more than its arity: the last is unified with the result (`count(x, n)`). */
  hasOutput?: boolean;
}

export interface ComprehensionTerm { readonly t: 'acomp' | 'scomp'; readonly head: Term; readonly body: Body; readonly pos: Position }
export interface ObjectComprehensionTerm { readonly t: 'ocomp'; readonly key: Term; readonly value: Term; readonly body: Body; readonly pos: Position }

export interface With { readonly target: Term; readonly value: Term; readonly pos: Position }

interface ExprBase {
  readonly pos: Position;
  readonly negated: boolean;
  readonly with: With[];
}

export type Expr =
  | (ExprBase & { readonly e: 'term'; readonly term: Term })
  | (ExprBase & { readonly e: 'unify' | 'assign'; readonly a: Term; readonly b: Term })
  | (ExprBase & { readonly e: 'some'; readonly vars: VarTerm[] })
  | (ExprBase & { readonly e: 'somein'; readonly key: Term | undefined; readonly value: Term; readonly coll: Term })
  | (ExprBase & { readonly e: 'every'; readonly key: VarTerm | undefined; readonly value: VarTerm; readonly coll: Term; readonly body: Body });

/** A rule body: its expressions, reordered by the compiler so every variable is bound before use. */
export interface Body {
  exprs: Expr[];
  /** Slots this body declares (resolver): the rest it uses are closure variables of an enclosing body. */
  locals?: ReadonlySet<number>;
}

export interface ElseClause { readonly value: Term | undefined; readonly body: Body; readonly pos: Position }

export interface Rule {
  readonly pos: Position;
  readonly isDefault: boolean;
  /** The head reference after the package: its first element is the rule name (a string scalar). */
  readonly ref: Term[];
  readonly kind: 'complete' | 'contains' | 'function';
  /** `p contains key`. */
  readonly key: Term | undefined;
  /** The head value (undefined: `true`). */
  readonly value: Term | undefined;
  readonly args: Term[];
  readonly body: Body;
  readonly elses: ElseClause[];
  /** Frame slots the rule's body needs (compiler). */
  slots: number;
}

export interface Import { readonly path: string[]; readonly alias: string; readonly pos: Position }

export interface Module {
  readonly file: string;
  readonly pkg: string[];
  readonly imports: Import[];
  readonly rules: Rule[];
}
