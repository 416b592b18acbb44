// What a worker process is configured with, once, when it is spawned: the supervisor sends these
// as the first protocol message (`init`), and the worker builds its op tables from them
// (worker/ops/capabilities.ts). A worker reads no environment and no configuration of its own, so
// everything that shapes what a script may do reaches it here, typed and checked.
import type { EngineName } from './protocol.ts';
import { isPolicySettings, type PolicySettings } from './policy-settings.ts';
import { isHeaderRules, type HeaderRules } from './header-rules.ts';
import { isWasmSettings, type WasmModuleSetting } from './wasm-settings.ts';

/**
 * Host-side limits of the ops a script can call. Per-run limits that vary with the request (the
 * heap cap, the timeout) travel with each run instead (RunRequest).
 */
/** What one execution may do with fetch (docs/network.md). */
export interface FetchLimits {
  /** Requests a run may have open at once (started and not read to the end or cancelled). */
  readonly maxConcurrent: number;
  /** Response body bytes a run may read, over all its requests. */
  readonly maxResponseBytesPerRun: number;
  readonly connectTimeoutMs: number;
  /** The longest wait for a response's head, and between two chunks of its body. */
  readonly requestTimeoutMs: number;
  readonly maxRedirects: number;
}

/** What one execution may do with WebSocket (docs/network.md). */
export interface WebSocketLimits {
  /** Sockets a run may have at once (from `new WebSocket` until the socket is closed on the host). */
  readonly maxOpen: number;
  /** The largest message a socket accepts; a larger one fails the connection (the server gets close code 1009). */
  readonly maxMessageBytes: number;
  /** The longest wait from `new WebSocket` (the policy decision included) to the open handshake's end. */
  readonly handshakeTimeoutMs: number;
}

/** What one execution may do with child processes (docs/subprocess.md). */
export interface SubprocessLimits {
  /** Children a run may have at once (from spawn until their stdout and stderr have closed). */
  readonly maxRunning: number;
  /** Bytes of stdout and stderr a run's children may write, together; beyond, the child writing is killed. */
  readonly maxOutputBytesPerRun: number;
}

/** What one execution may do with HTTP/2 (docs/network.md). */
export interface Http2Limits {
  /** Sessions a run may have open at once. */
  readonly maxSessions: number;
  /** Streams a run may have open at once, over all its sessions. */
  readonly maxStreams: number;
}

export interface HostOpLimits {
  /** Bytes of artifact() payloads a run may have in flight to the supervisor at once. */
  readonly maxPendingArtifactBytes: number;
  /** PBKDF2 (node:crypto and WebCrypto) per call: iterations × output blocks of the digest. */
  readonly maxPbkdf2Work: number;
  /** scrypt per call: N × r × p. (Its memory, 128 × r × (N + p + 2), is held to the run's heap cap.) */
  readonly maxScryptWork: number;
  /** Async key derivations (pbkdf2, scrypt, WebCrypto PBKDF2) a run may have running at once; more wait. */
  readonly maxConcurrentKeyDerivations: number;
  readonly fetch: FetchLimits;
  /** WebSocket messages also count against `fetch.maxResponseBytesPerRun` (one budget for what a run receives). */
  readonly websocket: WebSocketLimits;
  readonly subprocess: SubprocessLimits;
  /** HTTP/2 response bodies also count against `fetch.maxResponseBytesPerRun`. */
  readonly http2: Http2Limits;
}

/** The network as the operator configured it. */
export interface NetworkSettings {
  /** What a fetch or WebSocket connection no policy decides gets: deny (the default) or allow. */
  readonly fetchDefault: 'allow' | 'deny';
  /** PEM certificates trusted besides Node's bundled roots for outbound TLS (--fetch-ca-file); absent or `[]` when none. */
  readonly caCerts?: readonly string[];
}

export interface WorkerSettings {
  /** Engines the worker boots before it says ready (others boot on first use). */
  readonly warmEngines: readonly EngineName[];
  /** Where QuickJS keeps its base image between worker restarts (a private, rebuildable cache). */
  readonly quickjsCacheDir: string;
  readonly limits: HostOpLimits;
  /** The policy configuration (--policies-json), checked and with hook sources read; `{}` when none. */
  readonly policies: PolicySettings;
  readonly network: NetworkSettings;
  /** Header-injection rules (--fetch-header, --fetch-header-config), with their credentials; `[]` when none. */
  readonly headerRules: HeaderRules;
  /** WebAssembly modules for V8 runs (--wasm-module, --wasm-config); absent or `[]` when none. */
  readonly wasm?: readonly WasmModuleSetting[];
  /** --allow-external-modules: `npm:`, `jsr:` and URL imports load through the supervisor; absent when off. */
  readonly externalModules?: boolean;
  /** --fs-passthrough: a readFile outside /work that the run's filesystem misses reads the host's file (worker/ops/fs/host-read.ts); absent when off. */
  readonly fsPassthrough?: boolean;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = Object.freeze({
  maxConcurrent: 16,
  maxResponseBytesPerRun: 64 * 1024 * 1024,
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxRedirects: 20,
});

export const DEFAULT_WEBSOCKET_LIMITS: WebSocketLimits = Object.freeze({
  maxOpen: 16,
  maxMessageBytes: 16 * 1024 * 1024,
  handshakeTimeoutMs: 30_000,
});

export const DEFAULT_SUBPROCESS_LIMITS: SubprocessLimits = Object.freeze({
  maxRunning: 8,
  maxOutputBytesPerRun: 16 * 1024 * 1024,
});

export const DEFAULT_HTTP2_LIMITS: Http2Limits = Object.freeze({
  maxSessions: 16,
  maxStreams: 64,
});

export const DEFAULT_HOST_OP_LIMITS: HostOpLimits = Object.freeze({
  maxPendingArtifactBytes: 64 * 1024 * 1024,
  // ≈ 8 s of SHA-512 (2 s of SHA-1) on the 2-core development machine.
  maxPbkdf2Work: 10_000_000,
  // 2²², 32 × Node's default N × r × p: ≈ 7 s.
  maxScryptWork: 4 * 1024 * 1024,
  maxConcurrentKeyDerivations: 4,
  fetch: DEFAULT_FETCH_LIMITS,
  websocket: DEFAULT_WEBSOCKET_LIMITS,
  subprocess: DEFAULT_SUBPROCESS_LIMITS,
  http2: DEFAULT_HTTP2_LIMITS,
});

export const DEFAULT_NETWORK_SETTINGS: NetworkSettings = Object.freeze({ fetchDefault: 'deny', caCerts: Object.freeze([]) });

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function isFetchLimits(v: unknown): v is FetchLimits {
  return isObject(v) && isCount(v['maxConcurrent']) && isCount(v['maxResponseBytesPerRun']) && isCount(v['connectTimeoutMs'])
    && isCount(v['requestTimeoutMs']) && isCount(v['maxRedirects']);
}

function isWebSocketLimits(v: unknown): v is WebSocketLimits {
  return isObject(v) && isCount(v['maxOpen']) && isCount(v['maxMessageBytes']) && v['maxMessageBytes'] > 0 && isCount(v['handshakeTimeoutMs']);
}

function isSubprocessLimits(v: unknown): v is SubprocessLimits {
  return isObject(v) && isCount(v['maxRunning']) && isCount(v['maxOutputBytesPerRun']);
}

function isHttp2Limits(v: unknown): v is Http2Limits {
  return isObject(v) && isCount(v['maxSessions']) && isCount(v['maxStreams']);
}

function isHostOpLimits(v: unknown): v is HostOpLimits {
  return isObject(v) && isCount(v['maxPendingArtifactBytes']) && isCount(v['maxPbkdf2Work']) && isCount(v['maxScryptWork'])
    && isCount(v['maxConcurrentKeyDerivations']) && v['maxConcurrentKeyDerivations'] > 0 && isFetchLimits(v['fetch'])
    && isWebSocketLimits(v['websocket']) && isSubprocessLimits(v['subprocess']) && isHttp2Limits(v['http2']);
}

function isNetworkSettings(v: unknown): v is NetworkSettings {
  return isObject(v) && (v['fetchDefault'] === 'allow' || v['fetchDefault'] === 'deny')
    && (v['caCerts'] === undefined || (Array.isArray(v['caCerts']) && v['caCerts'].every((c) => typeof c === 'string')));
}

export function isWorkerSettings(v: unknown): v is WorkerSettings {
  return isObject(v)
    && Array.isArray(v['warmEngines']) && v['warmEngines'].every((e) => e === 'v8' || e === 'quickjs')
    && typeof v['quickjsCacheDir'] === 'string'
    && isHostOpLimits(v['limits'])
    && isPolicySettings(v['policies'])
    && isNetworkSettings(v['network'])
    && isHeaderRules(v['headerRules'])
    && (v['wasm'] === undefined || isWasmSettings(v['wasm']))
    && (v['externalModules'] === undefined || typeof v['externalModules'] === 'boolean')
    && (v['fsPassthrough'] === undefined || typeof v['fsPassthrough'] === 'boolean');
}
