// The per-run policy decision log: what the worker records (worker/policy/), sends with the run's
// result (ResultMessage.decisions), and the supervisor stores with the execution and serves at
// GET /api/executions/{id}/decisions and the MCP tool get_execution_decisions. Bounded in the
// worker and again by the supervisor's pool, which trusts no worker to have done so.

/** How one source or hook answered. `error` aborts the operation; `abstain` is a hook's undefined. */
export type StepVerdict = 'allow' | 'deny' | 'abstain' | 'error';
/** Where in the evaluation a step ran: a pre hook, the chain (`policies`), a stacked chain, a post hook. */
export type StepStage = 'pre' | 'policy' | 'stack' | 'post';

export interface DecisionStep {
  readonly stage: StepStage;
  /** The source's configured URL. */
  readonly source: string;
  readonly verdict: StepVerdict;
  readonly reason?: string;
  /** A pre hook rewrote the input, or a post hook the output. */
  readonly rewrote?: boolean;
  /** A Rego source's `print(…)` output for this decision (redacted; at most 32 lines of 1024 characters). */
  readonly prints?: readonly string[];
  readonly ms: number;
}

export interface DecisionEntry {
  /** 1-based position in the run's log (counting dropped entries). */
  readonly seq: number;
  /** When the decision started (ISO 8601). */
  readonly at: string;
  readonly category: string;
  /** `decide`: before the operation acts (pre hooks, chain, stack); `post`: on its output. */
  readonly phase: 'decide' | 'post';
  /** Whether the category has a configuration (an unconfigured one gets the operation's default). */
  readonly configured: boolean;
  /** The input document as the first step saw it, redacted of secrets and cut to a summary. */
  readonly input: unknown;
  readonly steps: readonly DecisionStep[];
  readonly verdict: 'allow' | 'deny' | 'error';
  readonly reason?: string;
  readonly ms: number;
}

export interface DecisionLog {
  readonly entries: readonly DecisionEntry[];
  /** Decisions made but not kept (beyond MAX_DECISIONS or MAX_DECISION_LOG_BYTES). */
  readonly dropped: number;
}

/** At most this many decisions are kept per run… */
export const MAX_DECISIONS = 1000;
/** …and at most this many bytes of their JSON (UTF-16 units, an upper bound of UTF-8 for the ASCII that dominates). */
export const MAX_DECISION_LOG_BYTES = 256 * 1024;

export const EMPTY_DECISION_LOG: DecisionLog = Object.freeze({ entries: Object.freeze([]), dropped: 0 });

/** The JSON size an entry is charged for. */
export function entryBytes(entry: unknown): number {
  return (JSON.stringify(entry) ?? '').length;
}

/** The log within both caps: entries kept in order until one would exceed either; the rest are counted as dropped. */
export function capDecisionLog(log: DecisionLog): DecisionLog {
  let bytes = 0;
  let kept = 0;
  for (const entry of log.entries) {
    const n = entryBytes(entry);
    if (kept >= MAX_DECISIONS || bytes + n > MAX_DECISION_LOG_BYTES) break;
    bytes += n;
    kept++;
  }
  if (kept === log.entries.length) return log;
  return { entries: log.entries.slice(0, kept), dropped: log.dropped + log.entries.length - kept };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const optionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';
const isMs = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function isStep(v: unknown): boolean {
  return isObject(v) && ['pre', 'policy', 'stack', 'post'].includes(v['stage'] as string) && typeof v['source'] === 'string'
    && ['allow', 'deny', 'abstain', 'error'].includes(v['verdict'] as string) && optionalString(v['reason'])
    && (v['rewrote'] === undefined || typeof v['rewrote'] === 'boolean') && isMs(v['ms'])
    && (v['prints'] === undefined || (Array.isArray(v['prints']) && v['prints'].length <= 32 && v['prints'].every((p) => typeof p === 'string')));
}

function isEntry(v: unknown): boolean {
  return isObject(v) && Number.isSafeInteger(v['seq']) && typeof v['at'] === 'string' && typeof v['category'] === 'string'
    && (v['phase'] === 'decide' || v['phase'] === 'post') && typeof v['configured'] === 'boolean'
    && Array.isArray(v['steps']) && v['steps'].every(isStep)
    && (v['verdict'] === 'allow' || v['verdict'] === 'deny' || v['verdict'] === 'error') && optionalString(v['reason']) && isMs(v['ms']);
}

/** The shape check the supervisor applies to a worker's log (sizes are capped separately). */
export function isDecisionLog(v: unknown): v is DecisionLog {
  return isObject(v) && Array.isArray(v['entries']) && v['entries'].length <= 4 * MAX_DECISIONS && v['entries'].every(isEntry)
    && Number.isSafeInteger(v['dropped']) && (v['dropped'] as number) >= 0;
}
