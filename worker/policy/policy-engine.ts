// The policy engine every capability asks before it acts (fetch, websocket, modules, fs, …):
// `decide(category, input)` runs the category's pre hooks (which may deny or rewrite the input),
// its chain (`mode` all: first deny stops, empty allows; any: first allow stops), then each
// stacked chain; `post(category, output, input)` runs its post hooks (which may deny or rewrite
// the output). A source that fails aborts the operation (PolicyFailedError) — never a silent
// deny. Every decision is recorded in the run's decision log, redacted.
//
// One PolicyEngine per worker (hooks compiled once, on first use); one RunPolicy per run (its log
// and its redactions), reached by ops as `ctx.policy`. docs/policies.md is the user's view.
import type { DecisionEntry, DecisionLog, DecisionStep, EgressCounts, StepStage, StepVerdict } from '../../shared/decision-log.ts';
import { entryBytes, MAX_DECISION_LOG_BYTES, MAX_DECISIONS } from '../../shared/decision-log.ts';
import type { CategoryPolicy, PolicyCategory, PolicyChain, PolicySettings, PolicySource, RegoSource } from '../../shared/policy-settings.ts';
import { JsHook } from './js-hook.ts';
import { queryOpa } from './opa-source.ts';
import { RegoEvaluator } from './rego-source.ts';
import { DEFAULT_DENY_REASON, PolicyDeniedError, PolicyFailedError, SourceError } from './policy-errors.ts';
import { Redactor, summarize } from './redact.ts';

/** How one source answered, normalised. `rewrite` is present when it replaced the input/output. */
interface Verdict {
  readonly verdict: Exclude<StepVerdict, 'error'>;
  readonly reason?: string;
  readonly rewrite?: { readonly value: unknown };
  /** A Rego source's `print(…)` lines. */
  readonly prints?: readonly string[];
}

export interface DecideOptions {
  /** What an unconfigured category decides (default `allow`; fetch and http2 pass `deny`). */
  readonly unconfigured?: 'allow' | 'deny';
  /** The denial reason when the denying source gives none, e.g. `GET https://x/ is not allowed`. */
  readonly defaultReason?: string;
  /** Aborts OPA queries (the operation was cancelled; the run ended). */
  readonly signal?: AbortSignal;
  /**
   * Whether this operation can put an `ask` to a human (only the supervisor's MCP run_js call).
   * Elsewhere a source's `ask` denies: nobody is there to answer it.
   */
  readonly canAsk?: boolean;
}

export interface Decision {
  readonly allow: boolean;
  readonly reason?: string;
  /** Allowed only once a human confirms: the question (every asking source's, one a line). Only with `canAsk`. */
  readonly ask?: string;
  /** The input after pre hooks (the operation acts on this). */
  readonly input: unknown;
}

export interface PostDecision {
  readonly allow: boolean;
  readonly reason?: string;
  readonly output: unknown;
}

/** What an op sees of the policy engine (OpContext.policy). */
export interface RunPolicy {
  /** Whether `category` has a configuration. */
  configured(category: PolicyCategory): boolean;
  /** Whether `category` has post hooks (an op buffers its output for them only then). */
  hasPost(category: PolicyCategory): boolean;
  /** Decides; rejects with PolicyFailedError when a source fails. A denial resolves `{allow: false}`. */
  decide(category: PolicyCategory, input: unknown, opts?: DecideOptions): Promise<Decision>;
  /** decide(), then a denial rejects with PolicyDeniedError; resolves to the (rewritten) input. */
  enforce(category: PolicyCategory, input: unknown, opts?: DecideOptions): Promise<unknown>;
  /** Runs the post hooks on an operation's output (no hooks: the output unchanged, nothing logged). */
  post(category: PolicyCategory, output: unknown, input: unknown, opts?: DecideOptions): Promise<PostDecision>;
  /** post(), then a denial rejects with PolicyDeniedError; resolves to the (rewritten) output. */
  enforcePost(category: PolicyCategory, output: unknown, input: unknown, opts?: DecideOptions): Promise<unknown>;
  /**
   * Counts the run's network traffic in `category` (fetch, websocket): requests made, body bytes
   * sent and received. Reported with the decision log (`egress`), whatever the policy decided.
   */
  countEgress(category: PolicyCategory, counts: Partial<EgressCounts>): void;
  /** Secrets this run holds (header injection registers its values and names here). */
  readonly redactor: Redactor;
  /** The run's log so far; after `close()` nothing more is recorded. */
  log(): DecisionLog;
  close(): void;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const reasonOf = (v: Record<string, unknown>): { reason?: string } =>
  typeof v['reason'] === 'string' && v['reason'] !== '' ? { reason: v['reason'] } : {};

/**
 * `{ask: "<question>"}`: allow once a human confirms (the question is shown to them). Not with
 * `allow` (a source either decides or asks), not after the operation (post: nothing left to ask).
 */
function askOf(v: Record<string, unknown>, rewriteKey: 'input' | 'output' | undefined): Verdict | undefined {
  if (!Object.hasOwn(v, 'ask')) return undefined;
  const ask = v['ask'];
  if (typeof ask !== 'string' || ask === '') throw new SourceError(`returned ask: ${JSON.stringify(ask)}; expected a non-empty string (the question for the human)`);
  if (v['allow'] !== undefined) throw new SourceError('returned both allow and ask; a source either decides (allow) or asks a human (ask)');
  if (rewriteKey === 'output') throw new SourceError('returned ask from a post hook; only a decision before the operation can ask a human');
  return { verdict: 'ask', reason: ask, ...(rewriteKey !== undefined && Object.hasOwn(v, rewriteKey) ? { rewrite: { value: v[rewriteKey] } } : {}) };
}

/** A JavaScript hook's return value → a verdict (boolean, `{allow, reason, input|output}`, undefined abstains). */
function hookVerdict(value: unknown, rewriteKey: 'input' | 'output' | undefined): Verdict {
  if (value === undefined) return { verdict: 'abstain' };
  if (typeof value === 'boolean') return { verdict: value ? 'allow' : 'deny' };
  if (!isObject(value)) {
    throw new SourceError(`returned ${value === null ? 'null' : typeof value}; a hook returns a boolean, an object {allow, reason, ${rewriteKey ?? 'input|output'}} or undefined`);
  }
  const asked = askOf(value, rewriteKey);
  if (asked !== undefined) return asked;
  const allow = value['allow'];
  if (allow !== undefined && typeof allow !== 'boolean') throw new SourceError(`returned allow: ${JSON.stringify(allow)}; expected true, false or no allow key`);
  const verdict = allow === undefined ? 'abstain' : allow ? 'allow' : 'deny';
  const rewrite = rewriteKey !== undefined && Object.hasOwn(value, rewriteKey) ? { rewrite: { value: value[rewriteKey] } } : {};
  return { verdict, ...reasonOf(value), ...rewrite };
}

/** An OPA `result` → a verdict: only `allow === true` allows; a missing result denies. */
function opaVerdict(result: unknown, rewriteKey: 'input' | 'output' | undefined): Verdict {
  if (!isObject(result)) return { verdict: 'deny', reason: result === undefined ? 'the policy returned no result' : 'the policy result is not an object' };
  if (result['allow'] !== true && typeof result['ask'] === 'string' && result['ask'] !== '') return askOf({ ...result, allow: undefined }, rewriteKey) ?? { verdict: 'deny' };
  const rewrite = rewriteKey !== undefined && Object.hasOwn(result, rewriteKey) ? { rewrite: { value: result[rewriteKey] } } : {};
  return { verdict: result['allow'] === true ? 'allow' : 'deny', ...reasonOf(result), ...rewrite };
}

export interface PolicyEngineOptions {
  /** Hook console lines and diagnostics (the worker's stderr). */
  readonly log?: (line: string) => void;
  /** Key names always redacted from the decision log (header injection's header names). */
  readonly redactKeys?: readonly string[];
  readonly now?: () => Date;
}

/** One worker's policy engine: the configuration and its compiled hooks and Rego policies. */
export class PolicyEngine {
  readonly #settings: PolicySettings;
  readonly #hooks = new Map<PolicySource, JsHook>();
  readonly #regos = new Map<RegoSource, RegoEvaluator>();
  readonly #log: (line: string) => void;
  readonly #redactor: Redactor;
  readonly #now: () => Date;

  constructor(settings: PolicySettings, opts: PolicyEngineOptions = {}) {
    this.#settings = settings;
    this.#log = opts.log ?? ((line) => process.stderr.write(`runjs: ${line}\n`));
    this.#redactor = new Redactor(opts.redactKeys ?? []);
    this.#now = opts.now ?? (() => new Date());
  }

  /** A run's view: its own log and redactions. */
  forRun(): RunPolicy {
    return new RunPolicyImpl(this, new Redactor([], this.#redactor), this.#now);
  }

  policyOf(category: PolicyCategory): CategoryPolicy | undefined {
    return this.#settings[category];
  }

  /** Asks one source. Throws SourceError when it cannot answer. */
  async evaluate(source: PolicySource, category: PolicyCategory, stage: StepStage, value: unknown, input: unknown, signal?: AbortSignal): Promise<Verdict> {
    const rewriteKey = stage === 'pre' ? 'input' : stage === 'post' ? 'output' : undefined;
    const phase = stage === 'stack' ? 'policy' : stage;
    if (source.kind === 'opa') {
      // An OPA document is one input: post hooks see the operation's input and its output together.
      const doc = stage === 'post' ? { phase: 'post', input, output: value } : value;
      return opaVerdict(await queryOpa(source, doc, signal), rewriteKey);
    }
    if (source.kind === 'rego') {
      let rego = this.#regos.get(source);
      if (!rego) {
        rego = new RegoEvaluator(source);
        this.#regos.set(source, rego);
      }
      const answer = rego.decide(stage === 'post' ? { phase: 'post', input, output: value } : value);
      return { verdict: answer.allow ? 'allow' : 'deny', ...(answer.reason !== undefined ? { reason: answer.reason } : {}), ...(answer.prints.length > 0 ? { prints: answer.prints } : {}) };
    }
    let hook = this.#hooks.get(source);
    if (!hook) {
      hook = new JsHook(source, this.#log);
      this.#hooks.set(source, hook);
    }
    const meta = stage === 'post' ? { category, phase, input } : { category, phase };
    return hookVerdict(await hook.call([value, meta]), rewriteKey);
  }

  /** Disposes every hook isolate. */
  dispose(): void {
    for (const hook of this.#hooks.values()) hook.dispose();
    this.#hooks.clear();
    this.#regos.clear();
  }
}

const EMPTY_POLICY: CategoryPolicy = Object.freeze({ mode: 'all', policies: [], pre: [], post: [], stack: [] });

class RunPolicyImpl implements RunPolicy {
  readonly #engine: PolicyEngine;
  readonly redactor: Redactor;
  readonly #now: () => Date;
  readonly #entries: DecisionEntry[] = [];
  #bytes = 0;
  #dropped = 0;
  #seq = 0;
  #closed = false;
  readonly #egress = new Map<PolicyCategory, { requests: number; sent_bytes: number; received_bytes: number }>();

  constructor(engine: PolicyEngine, redactor: Redactor, now: () => Date) {
    this.#engine = engine;
    this.redactor = redactor;
    this.#now = now;
  }

  configured(category: PolicyCategory): boolean {
    return this.#engine.policyOf(category) !== undefined;
  }

  hasPost(category: PolicyCategory): boolean {
    return (this.#engine.policyOf(category)?.post.length ?? 0) > 0;
  }

  async decide(category: PolicyCategory, input: unknown, opts: DecideOptions = {}): Promise<Decision> {
    const policy = this.#engine.policyOf(category);
    const started = this.#start(category, 'decide', policy !== undefined, input);
    if (policy === undefined) {
      const allow = opts.unconfigured !== 'deny';
      const reason = allow ? undefined : `no ${category} policy is configured`;
      this.#finish(started, allow ? 'allow' : 'deny', reason);
      return { allow, ...(reason !== undefined ? { reason } : {}), input };
    }
    let current = input;
    // Every `ask` on the way: the decision allows only once a human confirms all of them.
    const asks: string[] = [];
    // Pre hooks: any may deny (stops) or rewrite the input the rest of the decision sees.
    for (const source of policy.pre) {
      const v = await this.#step(started, category, 'pre', source, current, input, opts);
      if (v.rewrite) current = v.rewrite.value;
      if (v.verdict === 'deny') return this.#denied(started, v, opts, current);
      if (v.verdict === 'ask') asks.push(v.reason ?? '');
    }
    for (const [stage, chain] of [['policy', policy], ...policy.stack.map((c) => ['stack', c] as const)] as const) {
      const v = await this.#chain(started, category, stage, chain, current, opts, asks);
      if (v.verdict === 'deny') return this.#denied(started, v, opts, current);
    }
    if (asks.length > 0) {
      const question = asks.join('\n');
      // Nobody can be asked here: the question becomes the denial's reason.
      if (opts.canAsk !== true) return this.#denied(started, { verdict: 'deny', reason: `needs a human's approval, which this operation cannot ask for: ${question}` }, opts, current);
      this.#finish(started, 'ask', question);
      return { allow: true, ask: question, input: current };
    }
    this.#finish(started, 'allow', undefined);
    return { allow: true, input: current };
  }

  async enforce(category: PolicyCategory, input: unknown, opts?: DecideOptions): Promise<unknown> {
    const d = await this.decide(category, input, opts);
    if (!d.allow) throw new PolicyDeniedError(category, d.reason ?? DEFAULT_DENY_REASON);
    return d.input;
  }

  async post(category: PolicyCategory, output: unknown, input: unknown, opts: DecideOptions = {}): Promise<PostDecision> {
    const policy = this.#engine.policyOf(category) ?? EMPTY_POLICY;
    if (policy.post.length === 0) return { allow: true, output };
    const started = this.#start(category, 'post', true, output);
    let current = output;
    for (const source of policy.post) {
      const v = await this.#step(started, category, 'post', source, current, input, opts);
      if (v.rewrite) current = v.rewrite.value;
      if (v.verdict === 'deny') {
        const reason = v.reason ?? opts.defaultReason ?? DEFAULT_DENY_REASON;
        this.#finish(started, 'deny', reason);
        return { allow: false, reason, output: current };
      }
    }
    this.#finish(started, 'allow', undefined);
    return { allow: true, output: current };
  }

  async enforcePost(category: PolicyCategory, output: unknown, input: unknown, opts?: DecideOptions): Promise<unknown> {
    const d = await this.post(category, output, input, opts);
    if (!d.allow) throw new PolicyDeniedError(category, d.reason ?? DEFAULT_DENY_REASON);
    return d.output;
  }

  /**
   * One chain by its mode: `all` stops at the first deny (abstentions and asks pass); `any` at the
   * first allow — an ask is an allow on condition, so with no plain allow the chain asks (its
   * asks are added to `asks`), and only with neither does it deny.
   */
  async #chain(started: Started, category: PolicyCategory, stage: StepStage, chain: PolicyChain, input: unknown, opts: DecideOptions, asks: string[]): Promise<Verdict> {
    let lastDeny: Verdict | undefined;
    const chainAsks: string[] = [];
    for (const source of chain.policies) {
      const v = await this.#step(started, category, stage, source, input, input, opts);
      if (chain.mode === 'all' && v.verdict === 'deny') return v;
      if (chain.mode === 'any' && v.verdict === 'allow') return v;
      if (v.verdict === 'deny') lastDeny = v;
      if (v.verdict === 'ask') chainAsks.push(v.reason ?? '');
    }
    asks.push(...chainAsks);
    if (chain.mode === 'all' || chain.policies.length === 0 || chainAsks.length > 0) return { verdict: 'allow' };
    return lastDeny ?? { verdict: 'deny', reason: 'no policy allowed it' };
  }

  async #step(started: Started, category: PolicyCategory, stage: StepStage, source: PolicySource, value: unknown, input: unknown, opts: DecideOptions): Promise<Verdict> {
    const t0 = performance.now();
    try {
      const v = await this.#engine.evaluate(source, category, stage, value, input, opts.signal);
      started.steps.push({
        stage, source: source.url, verdict: v.verdict, ...this.#reason(v.reason), ...(v.rewrite ? { rewrote: true } : {}), ...this.#prints(v.prints), ms: elapsed(t0),
      });
      return v;
    } catch (e) {
      const detail = e instanceof SourceError ? e.message : `internal error: ${e instanceof Error ? e.message : String(e)}`;
      const failed = new PolicyFailedError(category, source.url, detail);
      started.steps.push({ stage, source: source.url, verdict: 'error', ...this.#reason(detail), ms: elapsed(t0) });
      this.#finish(started, 'error', failed.message);
      throw failed;
    }
  }

  #denied(started: Started, v: Verdict, opts: DecideOptions, input: unknown): Decision {
    const reason = v.reason ?? opts.defaultReason ?? DEFAULT_DENY_REASON;
    this.#finish(started, 'deny', reason);
    return { allow: false, reason, input };
  }

  /** A Rego source's print lines, redacted and cut like reasons (at most MAX_PRINT_LINES). */
  #prints(prints: readonly string[] | undefined): { prints?: string[] } {
    if (prints === undefined || prints.length === 0) return {};
    return { prints: prints.slice(0, MAX_PRINT_LINES).map((line) => this.redactor.redactString(line).slice(0, 1024)) };
  }

  #reason(reason: string | undefined): { reason?: string } {
    return reason === undefined ? {} : { reason: this.redactor.redactString(reason).slice(0, 1024) };
  }

  #start(category: PolicyCategory, phase: 'decide' | 'post', configured: boolean, input: unknown): Started {
    return { seq: ++this.#seq, at: this.#now().toISOString(), t0: performance.now(), category, phase, configured, input: summarize(input, this.redactor), steps: [] };
  }

  #finish(s: Started, verdict: DecisionEntry['verdict'], reason: string | undefined): void {
    if (this.#closed) return;
    const entry: DecisionEntry = {
      seq: s.seq, at: s.at, category: s.category, phase: s.phase, configured: s.configured, input: s.input, steps: s.steps,
      verdict, ...this.#reason(reason), ms: elapsed(s.t0),
    };
    const bytes = entryBytes(entry);
    if (this.#entries.length >= MAX_DECISIONS || this.#bytes + bytes > MAX_DECISION_LOG_BYTES) {
      this.#dropped++;
      return;
    }
    this.#bytes += bytes;
    this.#entries.push(entry);
  }

  countEgress(category: PolicyCategory, counts: Partial<EgressCounts>): void {
    let c = this.#egress.get(category);
    if (c === undefined) this.#egress.set(category, c = { requests: 0, sent_bytes: 0, received_bytes: 0 });
    c.requests += counts.requests ?? 0;
    c.sent_bytes += counts.sent_bytes ?? 0;
    c.received_bytes += counts.received_bytes ?? 0;
  }

  log(): DecisionLog {
    const log = { entries: [...this.#entries], dropped: this.#dropped };
    return this.#egress.size === 0 ? log : { ...log, egress: Object.fromEntries([...this.#egress].map(([k, c]) => [k, { ...c }])) };
  }

  close(): void {
    this.#closed = true;
  }
}

interface Started {
  readonly seq: number;
  readonly at: string;
  readonly t0: number;
  readonly category: PolicyCategory;
  readonly phase: 'decide' | 'post';
  readonly configured: boolean;
  readonly input: unknown;
  readonly steps: DecisionStep[];
}

/** The most `print` lines one step records. */
const MAX_PRINT_LINES = 32;

const elapsed = (t0: number): number => Math.round((performance.now() - t0) * 1000) / 1000;
