// The errors the Rego implementation raises. `code` follows OPA's names (rego_parse_error,
// rego_compile_error, rego_unsafe_var_error, rego_recursion_error, rego_type_error at load time;
// eval_conflict_error, eval_builtin_error, eval_type_error, eval_budget_error when evaluating),
// and the message carries `file:line:col` when the error has a place in a module.
import type { Position } from './lexer.ts';

export type RegoErrorCode =
  | 'rego_parse_error' | 'rego_compile_error' | 'rego_unsafe_var_error' | 'rego_recursion_error' | 'rego_type_error'
  | 'eval_conflict_error' | 'eval_builtin_error' | 'eval_type_error' | 'eval_budget_error';

export class RegoError extends Error {
  readonly code: RegoErrorCode;
  readonly detail: string;
  readonly pos: Position | undefined;
  constructor(code: RegoErrorCode, detail: string, pos?: Position) {
    super(`${pos ? `${pos.file}:${pos.line}:${pos.col}: ` : ''}${code}: ${detail}`);
    this.name = 'RegoError';
    this.code = code;
    this.detail = detail;
    this.pos = pos;
  }
}

/** A built-in's failure (bad operand, bad pattern): the expression is undefined unless evaluation is strict. */
export class BuiltinError extends Error {
  override readonly name = 'BuiltinError';
  /** `type`: an operand of the wrong type (eval_type_error); `builtin`: anything else (eval_builtin_error). */
  readonly kind: 'type' | 'builtin';
  constructor(message: string, kind: 'type' | 'builtin' = 'builtin') {
    super(message);
    this.kind = kind;
  }
}
