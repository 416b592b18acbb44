// What one run's worker may make the supervisor hold. The worker enforces every cap itself, but a
// worker is treated as possibly compromised (a sandbox escape would own it), so the pool checks
// again here, against the same numbers: the largest message it will read (frame-channel refuses a
// larger one from its header), console output per run, the heap image, and payloads of ops the
// worker delegates upward. The result and error caps are shared/outcome-limits.ts, applied to
// every result message. docs/security.md lists these bounds.
import { MAX_ARTIFACT_BYTES } from '../../shared/artifact-rules.ts';
import { MAX_MOUNT_BYTES, MAX_PATH_BYTES, type MountLimits } from '../../shared/fs-mount.ts';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import { MAX_ERROR_CHARS, MAX_RESULT_BYTES } from '../../shared/outcome-limits.ts';
import { MAX_DECISION_LOG_BYTES } from '../../shared/decision-log.ts';
import { checkHeapBlobs, type CheckedHeap } from '../../shared/heap-encode.ts';
import type { EncodedHeapResult } from '../../shared/protocol.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Room for a message's envelope and V8 serialization overhead around its payload. */
const ENVELOPE_BYTES = 64 * KiB;
/** The worker's own truncation notice may follow the last admitted output. */
const OUTPUT_NOTICE_BYTES = 1 * KiB;
/**
 * A heap image holds at most the run's heap cap plus the engine's base pages and bookkeeping
 * (a few MB); anything larger did not come from an honest engine.
 */
export const IMAGE_SLACK_BYTES = 64 * MiB;
/** Delegated ops one run may have in flight, and the bytes of their payloads. */
export const MAX_DELEGATED_IN_FLIGHT = 16;
export const MAX_DELEGATED_BYTES = 64 * MiB;

export const OUTPUT_CUT_NOTICE = '[runjs] output truncated by the supervisor: the worker sent more than the per-execution limit (--max-output-bytes)\n';

/** The parts of a job the bounds depend on. */
export interface BoundedJob {
  readonly maxOutputBytes: number;
  readonly heapMemoryMaxMb: number;
  readonly captureImage?: boolean;
  /** The run's worker encodes its heap and sends the blobs (RunRequest.encodeHeap). */
  readonly encodeHeap?: unknown;
  /** The run mounts a snapshot (RunRequest.mount): its result carries the changed files (ResultMessage.fsChanges). */
  readonly mount?: { readonly limits: MountLimits };
}

/** The payload size of a delegated op's arguments: its byte arrays and strings (what dominates). */
function payloadBytes(args: unknown): number {
  if (typeof args !== 'object' || args === null) return typeof args === 'string' ? args.length * 2 : 0;
  let n = 0;
  for (const v of Object.values(args)) {
    if (v instanceof Uint8Array) n += v.byteLength;
    else if (typeof v === 'string') n += v.length * 2;
  }
  return n;
}

export class SupervisorBounds {
  /** The largest message a worker may send while it runs nothing (ready, stray messages). */
  static readonly IDLE_MESSAGE_BYTES = 64 * KiB;

  readonly #job: BoundedJob;
  #outputBytes = 0;
  #outputCut = false;
  #delegatedInFlight = 0;
  #delegatedBytes = 0;

  constructor(job: BoundedJob) {
    this.#job = job;
  }

  get #heapBytes(): number {
    return Math.max(8, this.#job.heapMemoryMaxMb) * MiB;
  }

  /**
   * The largest message body accepted while this run is active: a delegated artifact payload, an
   * output chunk (UTF-16 at worst: 2 bytes per UTF-8 byte of the cap), a result, or — for runs
   * that capture their heap — the image.
   */
  get maxMessageBytes(): number {
    const artifact = MAX_ARTIFACT_BYTES + ENVELOPE_BYTES;
    const output = 2 * (this.#job.maxOutputBytes + OUTPUT_NOTICE_BYTES) + ENVELOPE_BYTES;
    // The decision log rides on the result message (its JSON cap, at 2 bytes a character, plus field names).
    const result = 2 * (MAX_RESULT_BYTES + MAX_ERROR_CHARS) + 4 * MAX_DECISION_LOG_BYTES + ENVELOPE_BYTES;
    // An encoded heap's payload is usually a few KB, but an incompressible image stays its size.
    const image = this.#job.captureImage || this.#job.encodeHeap !== undefined ? this.#heapBytes + IMAGE_SLACK_BYTES : 0;
    // Changed files are whole: at most the mounted content plus what the run wrote, and a path per entry.
    const limits = this.#job.mount?.limits;
    const fsChanges = limits === undefined ? 0 : MAX_MOUNT_BYTES + limits.maxWriteBytes + limits.maxEntries * (MAX_PATH_BYTES + 64);
    return Math.max(artifact, output, result + fsChanges, image + fsChanges);
  }

  /** The output to record: `data`, or '' once the run's output passed its cap (one notice marks the cut). */
  admitOutput(data: string): string {
    if (this.#outputCut) return '';
    const bytes = Buffer.byteLength(data, 'utf8');
    if (this.#outputBytes + bytes <= this.#job.maxOutputBytes + OUTPUT_NOTICE_BYTES) {
      this.#outputBytes += bytes;
      return data;
    }
    this.#outputCut = true;
    return OUTPUT_CUT_NOTICE;
  }

  /** Why a heap image of `bytes` is refused, or undefined when it is within bounds. */
  checkImage(bytes: number): string | undefined {
    if (!this.#job.captureImage) return EXECUTION_ERRORS.RUNJS_INTERNAL('the worker sent a heap image this execution did not ask for');
    if (bytes > this.#heapBytes + IMAGE_SLACK_BYTES) return EXECUTION_ERRORS.RUNJS_INTERNAL(`the worker sent a heap image of ${bytes} bytes, more than the execution's heap cap allows`);
    return undefined;
  }

  /**
   * The encoded heap a worker sent (and its base heap, when it sent one), checked
   * (shared/heap-encode.ts checkHeapBlobs), or why it is refused.
   */
  checkHeap(heap: EncodedHeapResult): { heap: CheckedHeap; base: CheckedHeap | undefined } | string {
    if (this.#job.encodeHeap === undefined) return EXECUTION_ERRORS.RUNJS_INTERNAL('the worker sent a heap this execution did not ask for');
    const checked = checkHeapBlobs(heap, this.#heapBytes + IMAGE_SLACK_BYTES);
    if (typeof checked === 'string') return EXECUTION_ERRORS.RUNJS_INTERNAL(`the worker sent a malformed heap: ${checked}`);
    if (heap.base === undefined) return { heap: checked, base: undefined };
    const base = checkHeapBlobs(heap.base, IMAGE_SLACK_BYTES);
    if (typeof base === 'string') return EXECUTION_ERRORS.RUNJS_INTERNAL(`the worker sent a malformed base heap: ${base}`);
    return { heap: checked, base };
  }

  /**
   * Admits a delegated op, or says why it is refused (too many or too many bytes in flight). Its
   * bytes are its arguments' payload plus the largest answer its route may send back
   * (`answerBytes`, OpRoute.maxAnswerBytes): 16 concurrent artifact.get of 16 MiB would otherwise
   * make the supervisor hold 256 MiB for one run.
   */
  admitDelegated(args: unknown, answerBytes = 0): string | undefined {
    const bytes = payloadBytes(args) + answerBytes;
    if (this.#delegatedInFlight >= MAX_DELEGATED_IN_FLIGHT) {
      return `runjs: more than ${MAX_DELEGATED_IN_FLIGHT} host operations are waiting for the server at once; await earlier ones first`;
    }
    if (this.#delegatedBytes + bytes > MAX_DELEGATED_BYTES) {
      return `runjs: more than ${MAX_DELEGATED_BYTES} bytes of host operations are waiting for the server at once; await earlier ones first`;
    }
    this.#delegatedInFlight++;
    this.#delegatedBytes += bytes;
    return undefined;
  }

  releaseDelegated(args: unknown, answerBytes = 0): void {
    this.#delegatedInFlight--;
    this.#delegatedBytes -= payloadBytes(args) + answerBytes;
  }
}
