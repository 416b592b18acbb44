// Policy decisions the supervisor makes itself, for operations that never reach a worker:
// filesystem label operations (`fs_snapshot`), session file routes (`filesystem`) and MCP run_js
// calls (`mcp_run_js`, the one category whose sources may ask a human, mcp/run-js-approval.ts). The same
// engine as the workers' (worker/policy/policy-engine.ts: pre hooks, chain, stack, Rego, OPA and
// JavaScript hooks), over only the categories given. An operation has no run, so its decision log
// goes to the server log, one line per decision (`runjs: policy decision: {…}`), redacted as
// a run's would be.
import type { PolicyCategory, PolicySettings } from '../../shared/policy-settings.ts';
import { PolicyEngine } from '../../worker/policy/policy-engine.ts';
import { PolicyFailedError } from '../../worker/policy/policy-errors.ts';

export type SupervisorDecision =
  /** `ask`: allowed once a human confirms (only when the caller said it can ask one). */
  | { readonly allow: true; readonly input: unknown; readonly ask?: string }
  | { readonly allow: false; readonly reason: string }
  | { readonly failed: string };

export class SupervisorPolicy {
  readonly #engine: PolicyEngine | undefined;
  readonly #settings: PolicySettings;
  readonly #log: (line: string) => void;

  constructor(policies: PolicySettings, categories: readonly PolicyCategory[], log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {
    const picked: Partial<Record<PolicyCategory, NonNullable<PolicySettings[PolicyCategory]>>> = {};
    for (const c of categories) if (policies[c] !== undefined) picked[c] = policies[c];
    this.#settings = picked;
    this.#log = log;
    this.#engine = Object.keys(picked).length === 0 ? undefined : new PolicyEngine(picked, { log: (line) => log(`runjs: ${line}`) });
  }

  configured(category: PolicyCategory): boolean {
    return this.#settings[category] !== undefined;
  }

  /**
   * Decides `input` under `category`. Unconfigured categories allow (nothing is logged). A source
   * that fails is `{failed}`: the operation is refused, never silently allowed.
   */
  async decide(category: PolicyCategory, input: unknown, opts: { readonly canAsk?: boolean } = {}): Promise<SupervisorDecision> {
    if (this.#engine === undefined || !this.configured(category)) return { allow: true, input };
    const run = this.#engine.forRun();
    try {
      const d = await run.decide(category, input, { defaultReason: 'not allowed', canAsk: opts.canAsk === true });
      if (!d.allow) return { allow: false, reason: d.reason ?? 'not allowed' };
      return { allow: true, input: d.input, ...(d.ask === undefined ? {} : { ask: d.ask }) };
    } catch (e) {
      if (e instanceof PolicyFailedError) return { failed: e.message };
      throw e;
    } finally {
      for (const entry of run.log().entries) this.#log(`runjs: policy decision: ${JSON.stringify(entry)}`);
      run.close();
    }
  }

  dispose(): void {
    this.#engine?.dispose();
  }
}
