// The Rego entry point runjs uses: compile a policy's files once, then evaluate one rule per
// decision with that decision's input, within a step and time budget.
import { compileModules, compileQuery, definesRule, type CompiledPolicy, type SourceFile } from './compiler.ts';
import { DEFAULT_LIMITS, Query, type EvalLimits } from './evaluator.ts';
import { fromJson, RegoObject, toJson, type Value } from './values.ts';

export interface Decision {
  /** The rule's value as JSON; undefined when the rule is undefined for this input. */
  readonly value: unknown;
  /** `print(…)` lines, in order. */
  readonly prints: readonly string[];
  readonly steps: number;
}

export interface QueryOptions {
  readonly input?: unknown;
  /** Built-in errors fail the query (OPA's strict-builtin-errors); otherwise they make it undefined. */
  readonly strict?: boolean;
  readonly limits?: EvalLimits;
}

export class RegoPolicy {
  readonly compiled: CompiledPolicy;
  readonly #data: Value;
  readonly #patterns = new Map<string, RegExp>();

  /** Throws RegoError (parse, compile, safety, recursion, unknown built-in) naming file:line:col. */
  constructor(files: readonly SourceFile[], data: unknown = {}) {
    this.compiled = compileModules(files);
    this.#data = data === undefined ? new RegoObject() : fromJson(data);
  }

  /** Whether `path` (`data.mcp.fetch.allow`) is a rule the policy defines. */
  defines(path: string): boolean {
    return definesRule(this.compiled, path);
  }

  /** Evaluates `path` with `input` (a JSON document). Throws RegoError on conflicts and when the budget runs out. */
  evaluate(path: string, input: unknown, limits: EvalLimits = DEFAULT_LIMITS): Decision {
    const q = new Query(this.compiled, this.#data, { input: input === undefined ? undefined : fromJson(input), ...limits, patterns: this.#patterns });
    const parts = path.split('.');
    const v = q.document(parts[0] === 'data' ? parts.slice(1) : parts);
    return { value: v === undefined ? undefined : toJson(v), prints: q.prints, steps: q.steps };
  }

  /** Every solution of an ad-hoc query, as `{variable: value}` (JSON) objects. */
  query(text: string, opts: QueryOptions = {}): Record<string, unknown>[] {
    const compiled = compileQuery(this.compiled, text);
    const q = new Query(this.compiled, this.#data, {
      input: opts.input === undefined ? undefined : fromJson(opts.input), strict: opts.strict ?? false, ...(opts.limits ?? DEFAULT_LIMITS), patterns: this.#patterns,
    });
    const out: Record<string, unknown>[] = [];
    q.run(compiled.body, compiled.slots, (frame) => {
      const row: Record<string, unknown> = {};
      for (const [name, slot] of compiled.vars) {
        const v = frame[slot];
        if (v !== undefined) row[name] = toJson(v);
      }
      out.push(row);
      return false;
    });
    return out;
  }
}
