// The policy configuration as a worker receives it (WorkerSettings.policies): parsed and checked by
// the supervisor (supervisor/config/policy-config.ts), JavaScript hook sources already read, so a
// worker reads no policy file of its own (its OS sandbox need not grant the policy directory).
// docs/policies.md describes the configuration shape this comes from.

/**
 * Every operation category a policy can govern: the reference's nine, and `mcp_run_js` (runjs's
 * own: an MCP client's run_js call, decided by the supervisor, the one place a policy may ask a
 * human — docs/policies.md).
 */
export const POLICY_CATEGORIES = [
  'fetch', 'websocket', 'http2', 'modules', 'filesystem', 'fs_snapshot', 'mcp_tools', 'subprocess', 'run_js_file', 'mcp_run_js',
] as const;
export type PolicyCategory = typeof POLICY_CATEGORIES[number];

export type ChainMode = 'all' | 'any';

/** What a JavaScript hook may use besides plain ECMAScript: an outbound `fetch`, and `fs` (its own directory, read-only). */
export type HookCapability = 'fetch' | 'fs';

/** The files of a hook's directory, read by the supervisor at startup (the `fs` capability). */
export interface HookFiles {
  /** The directory as the supervisor saw it: absolute paths inside it are accepted too. */
  readonly root: string;
  /** Path relative to `root` (`/`-separated) → content, base64. */
  readonly files: Readonly<Record<string, string>>;
}

/** An OPA-compatible server: `POST <base>/v1/data/<policyPath>` with `{input}`. */
export interface OpaSource {
  readonly kind: 'opa';
  /** The `url` as configured (names the source in errors and the decision log). */
  readonly url: string;
  readonly policyPath: string;
  readonly timeoutMs: number;
}

/** A `file://…js` module whose default export is the hook; it runs in its own isolate. */
export interface JsHookSource {
  readonly kind: 'js';
  readonly url: string;
  /** The module's source text, read by the supervisor at startup. */
  readonly code: string;
  readonly timeoutMs: number;
  readonly capabilities: readonly HookCapability[];
  /** With the `fs` capability: the hook directory's files. */
  readonly files?: HookFiles;
}

/** One file of a Rego policy, as read at startup. */
export interface RegoModuleText {
  /** The file's absolute path (errors name it with line and column). */
  readonly file: string;
  readonly text: string;
}

/**
 * A `file://…rego` file or a directory of `.rego` files (non-recursive, sorted), evaluated
 * in-process (shared/rego/). The supervisor has compiled it and checked that it defines `rule`.
 */
export interface RegoSource {
  readonly kind: 'rego';
  readonly url: string;
  readonly modules: readonly RegoModuleText[];
  /** The rule decided on: `data.mcp.<category>.allow` unless configured; allows only when exactly `true`. */
  readonly rule: string;
  /** The time budget of one evaluation. */
  readonly timeoutMs: number;
}

export type PolicySource = OpaSource | JsHookSource | RegoSource;

/** One chain: its sources combined by `mode`. */
export interface PolicyChain {
  readonly mode: ChainMode;
  readonly policies: readonly PolicySource[];
}

/** A category's whole configuration: pre hooks, the chain, the stacked chains, post hooks. */
export interface CategoryPolicy extends PolicyChain {
  readonly pre: readonly PolicySource[];
  readonly post: readonly PolicySource[];
  /** Further chains every decision must also pass, in order (each with its own mode). */
  readonly stack: readonly PolicyChain[];
}

export type PolicySettings = Readonly<Partial<Record<PolicyCategory, CategoryPolicy>>>;

export const DEFAULT_HOOK_TIMEOUT_MS = 5000;
/** A Rego evaluation runs on the worker's thread: its default budget is short. */
export const DEFAULT_REGO_TIMEOUT_MS = 100;
/** The step budget of one Rego evaluation (expressions evaluated plus iteration steps). */
export const REGO_MAX_STEPS = 1_000_000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isTimeout = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

function isSource(v: unknown): v is PolicySource {
  if (!isObject(v) || typeof v['url'] !== 'string' || !isTimeout(v['timeoutMs'])) return false;
  if (v['kind'] === 'opa') return typeof v['policyPath'] === 'string';
  if (v['kind'] === 'rego') {
    return typeof v['rule'] === 'string' && Array.isArray(v['modules'])
      && v['modules'].every((m) => isObject(m) && typeof m['file'] === 'string' && typeof m['text'] === 'string');
  }
  const files = v['files'];
  return v['kind'] === 'js' && typeof v['code'] === 'string'
    && Array.isArray(v['capabilities']) && v['capabilities'].every((c) => c === 'fetch' || c === 'fs')
    && (files === undefined || (isObject(files) && typeof files['root'] === 'string' && isObject(files['files'])
      && Object.values(files['files']).every((f) => typeof f === 'string')));
}

const isSources = (v: unknown): boolean => Array.isArray(v) && v.every(isSource);

function isChain(v: unknown): boolean {
  return isObject(v) && (v['mode'] === 'all' || v['mode'] === 'any') && isSources(v['policies']);
}

function isCategoryPolicy(v: unknown): boolean {
  return isObject(v) && isChain(v) && isSources(v['pre']) && isSources(v['post'])
    && Array.isArray(v['stack']) && v['stack'].every(isChain);
}

export function isPolicySettings(v: unknown): v is PolicySettings {
  if (!isObject(v)) return false;
  return Object.entries(v).every(([k, p]) => (POLICY_CATEGORIES as readonly string[]).includes(k) && isCategoryPolicy(p));
}
