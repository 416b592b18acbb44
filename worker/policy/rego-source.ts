// A Rego source evaluated in-process: the modules the supervisor read and compiled at startup are
// compiled again here once per worker (on first use) and the configured rule is evaluated with the
// decision's input document. Only a value of exactly `true` allows; `false` denies with the
// operation's own text, anything else (undefined included) with a reason saying what it was; a
// conflict or an exhausted budget is an error (the operation fails, never allowed).
import type { RegoSource } from '../../shared/policy-settings.ts';
import { REGO_MAX_STEPS } from '../../shared/policy-settings.ts';
import { RegoError } from '../../shared/rego/errors.ts';
import { RegoPolicy } from '../../shared/rego/policy.ts';
import { SourceError } from './policy-errors.ts';

export interface RegoAnswer {
  readonly allow: boolean;
  readonly reason?: string;
  /** `print(…)` output of this evaluation. */
  readonly prints: readonly string[];
}

export class RegoEvaluator {
  readonly #source: RegoSource;
  readonly #policy: RegoPolicy;

  constructor(source: RegoSource) {
    this.#source = source;
    try {
      this.#policy = new RegoPolicy(source.modules);
    } catch (e) {
      throw new SourceError(e instanceof Error ? e.message : String(e));
    }
  }

  decide(input: unknown): RegoAnswer {
    const rule = this.#source.rule;
    let d;
    try {
      d = this.#policy.evaluate(rule, input, { maxSteps: REGO_MAX_STEPS, timeoutMs: this.#source.timeoutMs });
    } catch (e) {
      if (e instanceof RegoError) throw new SourceError(e.message);
      throw e;
    }
    if (d.value === true) return { allow: true, prints: d.prints };
    // false: the operation's own denial text (`GET <url> is not allowed`); otherwise say why.
    if (d.value === false) return { allow: false, prints: d.prints };
    const reason = d.value === undefined ? `${rule} is undefined` : `${rule} is ${JSON.stringify(d.value).slice(0, 100)}, not true`;
    return { allow: false, reason, prints: d.prints };
  }
}
