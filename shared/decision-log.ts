// The per-run policy decision log: what the worker records (worker/policy/), sends with the run's
// result (ResultMessage.decisions), and the supervisor stores with the execution and serves at
// GET /api/executions/{id}/decisions and the MCP tool get_execution_decisions. Bounded in the
// worker and again by the supervisor's pool, which trusts no worker to have done so.

/**
 * How one source or hook answered. `error` aborts the operation; `abstain` is a hook's undefined;
 * `ask` wants a human to confirm (only an operation that can ask one honours it, else it denies).
 */
export type StepVerdict = 'allow' | 'deny' | 'abstain' | 'ask' | 'error';
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
  /** `ask`: allowed once a human confirms (the reason is the question). */
  readonly verdict: 'allow' | 'deny' | 'ask' | 'error';
  readonly reason?: string;
  readonly ms: number;
}

/** What a run exchanged with the network in one category (fetch, websocket, …). */
export interface EgressCounts {
  /** Requests made (fetch: every hop, redirects included; websocket: connections opened). */
  readonly requests: number;
  /** Body bytes sent (request bodies, messages). */
  readonly sent_bytes: number;
  /** Body bytes received (response bodies, messages). */
  readonly received_bytes: number;
}

export interface DecisionLog {
  readonly entries: readonly DecisionEntry[];
  /** Decisions made but not kept (beyond MAX_DECISIONS or MAX_DECISION_LOG_BYTES). */
  readonly dropped: number;
  /** The run's network traffic per category; absent when it made none. Never dropped. */
  readonly egress?: Readonly<Record<string, EgressCounts>>;
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
  return { entries: log.entries.slice(0, kept), dropped: log.dropped + log.entries.length - kept, ...(log.egress ? { egress: log.egress } : {}) };
}

/** `b` after `a` (b's entries renumbered to follow a's), within the caps; egress counts added up. */
export function concatDecisionLogs(a: DecisionLog, b: DecisionLog): DecisionLog {
  const offset = a.entries.length + a.dropped;
  const egress: Record<string, EgressCounts> = { ...a.egress };
  for (const [k, c] of Object.entries(b.egress ?? {})) {
    const p = egress[k];
    egress[k] = p === undefined ? c : { requests: p.requests + c.requests, sent_bytes: p.sent_bytes + c.sent_bytes, received_bytes: p.received_bytes + c.received_bytes };
  }
  return capDecisionLog({
    entries: [...a.entries, ...b.entries.map((e) => ({ ...e, seq: e.seq + offset }))],
    dropped: a.dropped + b.dropped,
    ...(Object.keys(egress).length > 0 ? { egress } : {}),
  });
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

const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

/** At most one entry per policy category, each three counts. */
function isEgress(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  const entries = Object.entries(v);
  return entries.length <= 16 && entries.every(([k, c]) => /^[a-z0-9_]{1,32}$/.test(k) && isObject(c)
    && Object.keys(c).length === 3 && isCount(c['requests']) && isCount(c['sent_bytes']) && isCount(c['received_bytes']));
}

/** The shape check the supervisor applies to a worker's log (sizes are capped separately). */
export function isDecisionLog(v: unknown): v is DecisionLog {
  return isObject(v) && Array.isArray(v['entries']) && v['entries'].length <= 4 * MAX_DECISIONS && v['entries'].every(isEntry)
    && Number.isSafeInteger(v['dropped']) && (v['dropped'] as number) >= 0 && isEgress(v['egress']);
}
