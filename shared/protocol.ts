// The supervisor ↔ worker message protocol. Every message crossing the IPC channel is one of
// these shapes; both sides narrow incoming `unknown` values with the guards below.
import type { HeapImage } from './heap-image.ts';
import type { HeapBlobs } from './heap-encode.ts';
import { isDecisionLog, type DecisionLog } from './decision-log.ts';
import { isWorkerSettings, type WorkerSettings } from './worker-settings.ts';
import { isMountChanges, type MountChange } from './fs-mount.ts';
import { isPackedMountImage, type PackedMountImage } from './fs-mount-wire.ts';

/** Which engine runs an execution: V8 (isolated-vm) unless heap persistence needs QuickJS images. */
export type EngineName = 'v8' | 'quickjs';

export interface RunRequest {
  readonly type: 'run';
  readonly runId: string;
  readonly code: string;
  readonly engine: EngineName;
  readonly heapMemoryMaxMb: number;
  readonly timeoutMs: number;
  /** Console output beyond this many bytes is dropped (one notice line marks the cut). */
  readonly maxOutputBytes: number;
  /** QuickJS only: restore this heap image instead of booting from the base image. */
  readonly image?: HeapImage;
  /** QuickJS only: when the run completes, send the resulting heap image with its result. */
  readonly captureImage?: boolean;
  /**
   * QuickJS only: the name of the input image in the worker's image cache (shared/image-lru.ts).
   * With `image`, the worker caches it under this name; without, it restores the image it holds
   * under this name, or answers `imageMiss` when it holds none.
   */
  readonly imageToken?: string;
  /** QuickJS only: cache the captured image under this name (with captureImage). */
  readonly captureToken?: string;
  /**
   * The upstream MCP servers and their tools as the supervisor holds them when the run starts
   * (the JSON of shared/mcp-catalog.ts's McpCatalog), for `mcp.servers`, `mcp.listTools()` and the
   * typed bindings; absent when no server is configured. Per run, not per worker: tools change
   * when an upstream reconnects.
   */
  readonly mcpCatalog?: string;
  /**
   * QuickJS only: when the run completes, encode its heap for the store (shared/heap-encode.ts)
   * and send the blobs with the result (ResultMessage.heap) instead of the image; the worker keeps
   * the image under its heap key.
   */
  readonly encodeHeap?: HeapEncodeRequest;
  /** The filesystem snapshot mounted at /work (shared/fs-mount.ts, packed: fs-mount-wire.ts); absent: /work starts empty and is discarded. */
  readonly mount?: PackedMountImage;
}

/** What a run's heap may be encoded against (docs/heap-snapshots.md, "Storage layout"). */
export interface HeapEncodeRequest {
  /** The heap the run restores (`imageToken` is its key) and its record's depth; null for a fresh run. */
  readonly parent: { readonly key: string; readonly depth: number } | null;
  /** With `parent` at `maxDepth`: the chain's depth-1 heap, used when this worker holds its image. */
  readonly anchor?: string;
  readonly maxDepth: number;
  /** Base heaps the store holds: a worker whose base is not among them sends it along (ResultMessage.heap.base). */
  readonly storedBases: readonly string[];
}

/** A completed run's heap, encoded by its worker: record and payload, and the base heap's when the store lacks it. */
export interface EncodedHeapResult extends HeapBlobs {
  readonly base?: HeapBlobs;
}

export interface CancelRequest {
  readonly type: 'cancel';
  readonly runId: string;
  readonly reason: 'cancel' | 'timeout';
}

/** The first message a worker receives: its configuration (it reads no environment). */
export interface InitMessage {
  readonly type: 'init';
  readonly settings: WorkerSettings;
}

/** How a delegated op failed, as the guest will see it: an exception with this name, message and code. */
export interface GuestErrorShape {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** Answer to an op the worker delegated to the supervisor (artifacts, stores, ...). */
export interface OpResponse {
  readonly type: 'op-response';
  readonly reqId: number;
  readonly ok: boolean;
  readonly value?: unknown;
  readonly error?: GuestErrorShape;
}

export type SupervisorMessage = InitMessage | RunRequest | CancelRequest | OpResponse;

export interface ReadyMessage {
  readonly type: 'ready';
}

export interface OutputMessage {
  readonly type: 'output';
  readonly runId: string;
  readonly data: string;
}

export type Outcome =
  | { readonly status: 'completed'; readonly result: string }
  | { readonly status: 'failed' | 'timed_out' | 'cancelled'; readonly error: string };

export interface ResultMessage {
  readonly type: 'result';
  readonly runId: string;
  readonly outcome: Outcome;
  /**
   * Console output the run wrote that no `output` message carried yet: it comes before the
   * outcome, in the same message, so a run that prints costs one message at its end, not two.
   */
  readonly output?: string;
  /** The worker could not stop its guest code (a stuck isolate), or host work the run started still runs on its threadpool: kill and replace it. */
  readonly recycle?: boolean;
  /** The heap image after a completed run that asked for one (captureImage). */
  readonly image?: HeapImage;
  /** The encoded heap after a completed run that asked for it (encodeHeap). */
  readonly heap?: EncodedHeapResult;
  /** The run named an input image by `imageToken` alone and this worker does not hold it: nothing ran; resend it inline. */
  readonly imageMiss?: boolean;
  /** The run's policy decisions (shared/decision-log.ts), when it made any. */
  readonly decisions?: DecisionLog;
  /** A completed run with a mount: what it changed under /work (empty when it wrote nothing). */
  readonly fsChanges?: readonly MountChange[];
}

/** An op the worker cannot perform itself and asks the supervisor for. */
export interface OpRequest {
  readonly type: 'op-request';
  readonly runId: string;
  readonly reqId: number;
  readonly op: string;
  readonly args: unknown;
}

export type WorkerMessage = ReadyMessage | OutputMessage | ResultMessage | OpRequest;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** The outer shape of a heap image; its contents are checked by parseHeapImage where it is used. */
function isImageShape(v: unknown): boolean {
  return isObject(v) && isObject(v['manifest']) && v['bytes'] instanceof Uint8Array;
}

function isHeapBlobs(v: unknown): boolean {
  return isObject(v) && v['record'] instanceof Uint8Array && v['payload'] instanceof Uint8Array;
}

function isEncodedHeap(v: unknown): v is EncodedHeapResult {
  return isObject(v) && isHeapBlobs(v) && (v['base'] === undefined || isHeapBlobs(v['base']));
}

function isEncodeRequest(v: unknown): v is HeapEncodeRequest {
  if (!isObject(v) || typeof v['maxDepth'] !== 'number' || !Array.isArray(v['storedBases']) || !v['storedBases'].every((k) => typeof k === 'string')) return false;
  const p = v['parent'];
  return (p === null || (isObject(p) && typeof p['key'] === 'string' && typeof p['depth'] === 'number')) && (v['anchor'] === undefined || typeof v['anchor'] === 'string');
}

/** A whole Outcome: the status is one of the four, with its string field (what the store writes). */
export function isOutcome(v: unknown): v is Outcome {
  if (!isObject(v)) return false;
  switch (v['status']) {
    case 'completed': return typeof v['result'] === 'string';
    case 'failed': case 'timed_out': case 'cancelled': return typeof v['error'] === 'string';
    default: return false;
  }
}

export function isWorkerMessage(v: unknown): v is WorkerMessage {
  if (!isObject(v)) return false;
  switch (v['type']) {
    case 'ready': return true;
    case 'output': return typeof v['runId'] === 'string' && typeof v['data'] === 'string';
    case 'result': return typeof v['runId'] === 'string' && isOutcome(v['outcome']) && (v['image'] === undefined || isImageShape(v['image']))
      && (v['output'] === undefined || typeof v['output'] === 'string')
      && (v['heap'] === undefined || isEncodedHeap(v['heap']))
      && (v['decisions'] === undefined || isDecisionLog(v['decisions']))
      && (v['fsChanges'] === undefined || isMountChanges(v['fsChanges']));
    case 'op-request': return typeof v['runId'] === 'string' && typeof v['reqId'] === 'number' && typeof v['op'] === 'string';
    default: return false;
  }
}

export function isSupervisorMessage(v: unknown): v is SupervisorMessage {
  if (!isObject(v)) return false;
  switch (v['type']) {
    case 'run':
      return typeof v['runId'] === 'string' && typeof v['code'] === 'string' && (v['engine'] === 'v8' || v['engine'] === 'quickjs')
        && typeof v['heapMemoryMaxMb'] === 'number' && typeof v['timeoutMs'] === 'number' && typeof v['maxOutputBytes'] === 'number'
        && (v['image'] === undefined || isImageShape(v['image'])) && (v['captureImage'] === undefined || typeof v['captureImage'] === 'boolean')
        && (v['imageToken'] === undefined || typeof v['imageToken'] === 'string') && (v['captureToken'] === undefined || typeof v['captureToken'] === 'string')
        && (v['encodeHeap'] === undefined || isEncodeRequest(v['encodeHeap']))
        && (v['mcpCatalog'] === undefined || typeof v['mcpCatalog'] === 'string')
        && (v['mount'] === undefined || isPackedMountImage(v['mount']));
    case 'cancel': return typeof v['runId'] === 'string' && (v['reason'] === 'cancel' || v['reason'] === 'timeout');
    case 'op-response': return typeof v['reqId'] === 'number' && typeof v['ok'] === 'boolean' && (v['error'] === undefined || isGuestErrorShape(v['error']));
    case 'init': return isWorkerSettings(v['settings']);
    default: return false;
  }
}

export function isGuestErrorShape(v: unknown): v is GuestErrorShape {
  return isObject(v) && typeof v['name'] === 'string' && typeof v['message'] === 'string' && (v['code'] === undefined || typeof v['code'] === 'string');
}
