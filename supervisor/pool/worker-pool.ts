// The pool of worker processes: at most `size` executions run at once, one per worker; the rest
// wait in a bounded FIFO queue. Timeouts and cancellations first ask the worker to interrupt
// its isolate; a worker that has not answered within the grace period is killed outright and
// replaced. A worker that dies fails only the execution it was running.
import type { MountChange, MountImage } from '../../shared/fs-mount.ts';
import { packMountImage } from '../../shared/fs-mount-wire.ts';
import { randomUUID } from 'node:crypto';
import type { EngineName, GuestErrorShape, HeapEncodeRequest, Outcome, WorkerMessage } from '../../shared/protocol.ts';
import type { HeapImage } from '../../shared/heap-image.ts';
import type { CheckedHeap } from '../../shared/heap-encode.ts';
import { EXECUTION_ERRORS, RunjsError } from '../../shared/errors.ts';
import { redactHostPaths } from '../../shared/host-paths.ts';
import { ByteLru, WORKER_IMAGE_CACHE_BYTES, WORKER_IMAGE_CACHE_ENTRIES } from '../../shared/image-lru.ts';
import { DEFAULT_HOST_OP_LIMITS, DEFAULT_NETWORK_SETTINGS, type HostOpLimits, type NetworkSettings, type WorkerSettings } from '../../shared/worker-settings.ts';
import { WorkerProcess, WORKER_ENTRY, QUICKJS_CACHE_DIR } from './worker-process.ts';
import type { OpRouter } from './op-router.ts';
import { capWorkerOutcome } from '../../shared/outcome-limits.ts';
import { SupervisorBounds } from './supervisor-bounds.ts';
import type { PolicySettings } from '../../shared/policy-settings.ts';
import type { WasmModuleSetting } from '../../shared/wasm-settings.ts';
import type { HeaderRules } from '../../shared/header-rules.ts';
import { capDecisionLog, type DecisionLog } from '../../shared/decision-log.ts';

export interface PoolOptions {
  readonly size: number;
  readonly maxQueued: number;
  /** How long a worker may take to stop after an interrupt before it is killed. */
  readonly graceMs?: number;
  /** Engines each worker boots before it is ready (others boot on first use). Default: both. */
  readonly warmEngines?: readonly EngineName[];
  readonly log?: (line: string) => void;
  /**
   * Serves ops a worker delegates to the supervisor (artifacts, ...). The value goes back as the
   * op's result (Uint8Array values cross as bytes); a failure becomes the guest's exception.
   * Absent: every such op fails.
   */
  readonly ops?: OpRouter | undefined;
  /** Host-op limits every worker is configured with (WorkerSettings.limits). */
  readonly hostOpLimits?: HostOpLimits;
  /** The policy configuration every worker is given (WorkerSettings.policies). Default: none. */
  readonly policies?: PolicySettings;
  /** The network as the operator configured it (WorkerSettings.network). */
  readonly network?: NetworkSettings;
  /** Header-injection rules every worker applies to its scripts' requests (WorkerSettings.headerRules). Default: none. */
  readonly headerRules?: HeaderRules;
  /** WebAssembly modules every V8 run gets (WorkerSettings.wasm). Default: none. */
  readonly wasm?: readonly WasmModuleSetting[];
  /** --allow-external-modules (WorkerSettings.externalModules); the `modules.*` routes must be in `ops`. Default: off. */
  readonly externalModules?: boolean;
  /** --fs-passthrough (WorkerSettings.fsPassthrough). Default: off. */
  readonly fsPassthrough?: boolean;
  /** The worker's entry script (tests substitute one that fails at boot). Default: worker/main.ts. */
  readonly workerEntry?: string;
  /**
   * The upstream MCP catalogue's JSON as it is now (RunRequest.mcpCatalog), read as each run is
   * sent; absent or undefined when no upstream server is configured.
   */
  readonly mcpCatalog?: (() => string | undefined) | undefined;
}

export interface Job {
  /** The execution id; the pool makes one up when absent. */
  readonly runId?: string;
  readonly code: string;
  readonly engine: EngineName;
  readonly heapMemoryMaxMb: number;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  /** Console output as the worker streams it. */
  readonly onOutput: (data: string) => void;
  /** The run left the queue and started on a worker (the timeout clock starts here). */
  readonly onStart?: () => void;
  /** QuickJS only: restore this heap image instead of starting from the base image. */
  readonly image?: HeapImage;
  /**
   * QuickJS only, instead of `image`: the image to restore, fetched only when the run goes to a
   * worker that does not hold `imageKey` (the execution service rebuilds it from the heap store).
   * A rejection fails the run with the error's message, which must be fit for the caller.
   */
  readonly loadImage?: () => Promise<HeapImage>;
  /**
   * The heap key `image` is stored under. With it, a worker that already holds the image (it
   * produced or restored it recently) restores its own copy and the image does not cross IPC;
   * idle workers holding it are preferred.
   */
  readonly imageKey?: string;
  /** QuickJS only: the worker encodes the heap of a completed run (RunRequest.encodeHeap) and onHeap receives it, checked, before the outcome resolves. */
  readonly encodeHeap?: HeapEncodeRequest;
  readonly onHeap?: (heap: CheckedHeap, base: CheckedHeap | undefined) => void;
  /** QuickJS only: capture the heap after a completed run and pass it to onImage (before the outcome resolves). */
  readonly captureImage?: boolean;
  readonly onImage?: (image: HeapImage) => void;
  /** The run's policy decision log (capped again here), when it made any decision; before the outcome resolves. */
  readonly onDecisions?: (log: DecisionLog) => void;
  /** The filesystem snapshot mounted at /work (RunRequest.mount). */
  readonly mount?: MountImage;
  /** With `mount`: what a completed run changed under /work, before the outcome resolves. */
  readonly onFsChanges?: (changes: readonly MountChange[]) => void;
  /** With `mount`: a file's bytes by content id, for the worker's object pipe (only ids of the mounted tree). */
  readonly readObject?: (id: string) => Promise<Uint8Array>;
}

export interface JobHandle {
  readonly runId: string;
  readonly outcome: Promise<Outcome>;
  /** Cancels the job: the outcome becomes `cancelled` at once; the worker is freed or killed. */
  cancel(): void;
}

interface Slot {
  proc: WorkerProcess;
  ready: boolean;
  job: ActiveJob | undefined;
  /** Set when the worker must be replaced once it exits (killed or stuck). */
  retiring: boolean;
  /** Mirror of the worker's image cache (names only); a drift costs one resend (imageMiss). */
  images: ByteLru<true>;
  /**
   * When the worker last went idle (performance.now()). Dispatch picks the idle worker idle
   * longest: the one that just finished is still refilling its warm realm (a synchronous
   * isolate creation), so sequential runs alternate between workers instead of waiting for it.
   */
  idleSince?: number;
}

interface ActiveJob {
  readonly runId: string;
  readonly job: Job;
  /** What the supervisor lets this run's worker make it hold (output, delegated payloads). */
  readonly bounds: SupervisorBounds;
  /** Aborted when the run settles: delegated ops still at work for it (an upstream MCP call) may stop. */
  readonly ended: AbortController;
  resolve(o: Outcome): void;
  settled: boolean;
  timer?: NodeJS.Timeout;
  killTimer?: NodeJS.Timeout;
  slot?: Slot;
  /** The worker's cache name for the job's input image (see Job.imageKey). */
  imageToken?: string;
  /** The run was resent with its image inline after an imageMiss. */
  resent?: boolean;
  /** The input image, once loadImage delivered it (kept for a resend). */
  image?: HeapImage;
  /** False while the run waits for loadImage: the worker has not been sent it. */
  sent?: boolean;
}

/** Heap keys remembered with the cache name of the run that produced them. */
const MAX_IMAGE_ALIASES = 4096;
/** How far into the queue a freed worker looks for a run whose image it holds (bounds the overtaking). */
const AFFINITY_WINDOW = 8;

/** The slot idle longest (a slot never marked idle counts as idle since forever). */
function longestIdle(free: readonly Slot[]): Slot | undefined {
  let best: Slot | undefined;
  for (const s of free) if (best === undefined || (s.idleSince ?? -Infinity) < (best.idleSince ?? -Infinity)) best = s;
  return best;
}

// `is_heap_oom = 1`: isolated-vm aborts the process when a last-resort GC cannot free enough.
const OOM_PATTERN = /out of memory|heap limit|allocation failed|memory limit|is_heap_oom = 1/i;

/**
 * Workers that die before they are ready are respawned after a growing delay (50 ms, doubling,
 * at most 5 s) instead of in a tight loop; a worker that was ready once is replaced at once.
 */
const RESPAWN_BASE_MS = 50;
const RESPAWN_MAX_MS = 5000;
/**
 * After this many deaths in a row before `ready`, the pool is failing: ready() rejects (the
 * server does not start), queued and newly submitted runs fail with the worker's last stderr.
 * Respawning goes on at the longest delay; the first worker that becomes ready ends the state.
 */
const MAX_BOOT_FAILURES = 5;
const STDERR_IN_ERROR_CHARS = 2000;

/** Thrown by ready() when workers keep dying before they are ready. */
export class WorkerStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerStartError';
  }
}

export class WorkerPool {
  readonly #opts: Required<Omit<PoolOptions, 'ops' | 'mcpCatalog'>> & Pick<PoolOptions, 'ops' | 'mcpCatalog'>;
  /** Deaths before `ready` since a worker was last ready (see MAX_BOOT_FAILURES). */
  #bootFailures = 0;
  /** Set while the pool is failing to start workers: why. */
  #startError: WorkerStartError | undefined;
  readonly #respawnTimers = new Set<NodeJS.Timeout>();
  readonly #slots: Slot[] = [];
  readonly #queue: ActiveJob[] = [];
  #closed = false;
  /** Resolves whenever a worker becomes ready (tests and benchmarks wait on it). */
  #readyWaiters: (() => void)[] = [];
  /** Heap key → the name its image is cached under in a worker (the runId that captured it). */
  readonly #aliases = new Map<string, string>();
  /** What every worker is configured with (sent as its `init` message). */
  readonly #settings: WorkerSettings;

  constructor(opts: PoolOptions) {
    this.#opts = { graceMs: 200, log: (line) => process.stderr.write(`${line}\n`), warmEngines: ['v8', 'quickjs'], workerEntry: WORKER_ENTRY, hostOpLimits: DEFAULT_HOST_OP_LIMITS, policies: {}, network: DEFAULT_NETWORK_SETTINGS, headerRules: [], wasm: [], externalModules: false, fsPassthrough: false, ...opts };
    this.#settings = Object.freeze({ warmEngines: this.#opts.warmEngines, quickjsCacheDir: QUICKJS_CACHE_DIR, limits: this.#opts.hostOpLimits, policies: this.#opts.policies, network: this.#opts.network, headerRules: this.#opts.headerRules, ...(this.#opts.wasm.length > 0 ? { wasm: this.#opts.wasm } : {}), ...(this.#opts.externalModules ? { externalModules: true } : {}), ...(this.#opts.fsPassthrough === true ? { fsPassthrough: true } : {}) });
    for (let i = 0; i < opts.size; i++) this.#slots.push(this.#spawn());
  }

  get size(): number {
    return this.#slots.length;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Resolves once every worker has booted (its first warm realm is ready). Rejects with
   * WorkerStartError when workers keep dying before they are ready.
   */
  async ready(): Promise<void> {
    while (this.#slots.some((s) => !s.ready)) {
      if (this.#startError) throw this.#startError;
      if (this.#closed) return;
      await new Promise<void>((r) => this.#readyWaiters.push(r));
    }
  }

  /** Worker process ids (for tests that kill workers from outside). */
  pids(): (number | undefined)[] {
    return this.#slots.map((s) => s.proc.pid);
  }

  submit(job: Job): JobHandle {
    if (this.#closed) throw new Error('worker pool is closed');
    if (this.#startError && !this.#slots.some((s) => s.ready)) {
      const runId = job.runId ?? randomUUID();
      return { runId, outcome: Promise.resolve({ status: 'failed', error: EXECUTION_ERRORS.WORKER_DIED(redactHostPaths(this.#startError.message)) }), cancel: () => {} };
    }
    const token = this.#tokenFor(job);
    const free = this.#slots.filter((s) => s.ready && s.job === undefined && !s.retiring);
    // Affinity: an idle worker that holds the input image restores it without IPC; otherwise
    // the worker idle longest (see Slot.idleSince).
    const idle = (token !== undefined ? free.find((s) => s.images.has(token)) : undefined) ?? longestIdle(free);
    if (!idle && this.#queue.length >= this.#opts.maxQueued) throw new RunjsError('QUEUE_FULL', this.#opts.maxQueued);
    let resolve!: (o: Outcome) => void;
    const outcome = new Promise<Outcome>((r) => { resolve = r; });
    const active: ActiveJob = {
      runId: job.runId ?? randomUUID(), job, bounds: new SupervisorBounds(job), ended: new AbortController(), resolve, settled: false, ...(token !== undefined ? { imageToken: token } : {}),
    };
    if (idle) this.#start(idle, active);
    else this.#queue.push(active);
    return { runId: active.runId, outcome, cancel: () => this.#cancel(active) };
  }

  /**
   * Records that the image captured by run `runId` is stored under heap key `key`, so a later job
   * restoring `key` can use the copy the capturing worker kept.
   */
  aliasImage(runId: string, key: string): void {
    this.#aliases.delete(key);
    this.#aliases.set(key, runId);
    if (this.#aliases.size > MAX_IMAGE_ALIASES) this.#aliases.delete(this.#aliases.keys().next().value!);
  }

  #tokenFor(job: Job): string | undefined {
    if ((!job.image && !job.loadImage) || job.imageKey === undefined) return undefined;
    return this.#aliases.get(job.imageKey) ?? job.imageKey;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const t of this.#respawnTimers) clearTimeout(t);
    this.#respawnTimers.clear();
    for (const w of this.#readyWaiters.splice(0)) w();
    for (const a of this.#queue.splice(0)) this.#settle(a, { status: 'cancelled', error: EXECUTION_ERRORS.CANCELLED });
    const exits = this.#slots.map((s) => new Promise<void>((r) => {
      if (s.proc.exited) { r(); return; }
      const check = setInterval(() => { if (s.proc.exited) { clearInterval(check); r(); } }, 5);
    }));
    for (const s of this.#slots) {
      if (s.job) this.#settle(s.job, { status: 'cancelled', error: EXECUTION_ERRORS.CANCELLED });
      s.proc.kill();
    }
    await Promise.all(exits);
  }

  #spawn(): Slot {
    const slot: Slot = {
      proc: undefined as unknown as WorkerProcess, ready: false, job: undefined, retiring: false,
      images: new ByteLru<true>(WORKER_IMAGE_CACHE_BYTES, WORKER_IMAGE_CACHE_ENTRIES),
    };
    slot.proc = new WorkerProcess({
      message: (msg) => this.#onMessage(slot, msg),
      violation: (why) => this.#onViolation(slot, why),
      maxMessageBytes: () => slot.job?.bounds.maxMessageBytes ?? SupervisorBounds.IDLE_MESSAGE_BYTES,
      exit: (detail) => this.#onExit(slot, detail),
      // Only the run the slot is executing may read, and only its own mount's objects.
      readObject: (runId, id) => {
        const active = slot.job;
        const read = active?.runId === runId && !active.settled ? active.job.readObject : undefined;
        return read === undefined ? Promise.reject(new Error('runjs: the run has ended or mounts no filesystem snapshot')) : read(id);
      },
    }, (line) => this.#opts.log(`[worker ${slot.proc.pid ?? '?'}] ${line}`), this.#settings, this.#opts.workerEntry);
    return slot;
  }

  #start(slot: Slot, active: ActiveJob): void {
    slot.job = active;
    active.slot = slot;
    const { job } = active;
    job.onStart?.();
    this.#sendRun(slot, active, false);
    // Backstop: the worker enforces the timeout itself; if it cannot, interrupt, then kill.
    active.timer = setTimeout(() => {
      this.#settle(active, { status: 'timed_out', error: EXECUTION_ERRORS.TIMED_OUT });
      this.#interrupt(slot, active, 'timeout');
    }, job.timeoutMs + this.#opts.graceMs);
  }

  /**
   * Sends the run, naming the input image only when the worker holds it (unless `inline`); an
   * image the job must load first is loaded while the worker stays reserved for the run.
   */
  #sendRun(slot: Slot, active: ActiveJob, inline: boolean): void {
    const { job, imageToken } = active;
    const held = !inline && imageToken !== undefined && slot.images.get(imageToken) !== undefined;
    const image = held ? undefined : job.image ?? active.image;
    if (!held && image === undefined && job.loadImage !== undefined) {
      this.#loadThenSend(slot, active, job.loadImage);
      return;
    }
    if (imageToken !== undefined && image !== undefined) slot.images.set(imageToken, true, image.bytes.byteLength);
    active.sent = true;
    const mcpCatalog = this.#opts.mcpCatalog?.();
    slot.proc.send({
      type: 'run', runId: active.runId, code: job.code, engine: job.engine, heapMemoryMaxMb: job.heapMemoryMaxMb, timeoutMs: job.timeoutMs, maxOutputBytes: job.maxOutputBytes,
      ...(image ? { image } : {}), ...(imageToken !== undefined ? { imageToken } : {}),
      ...(job.captureImage ? { captureImage: true, captureToken: active.runId } : {}),
      ...(mcpCatalog !== undefined ? { mcpCatalog } : {}),
      ...(job.encodeHeap ? { encodeHeap: job.encodeHeap } : {}),
      ...(job.mount ? { mount: packMountImage(job.mount) } : {}),
    });
  }

  /** Loads the job's input image, then sends the run, unless it ended (cancel, timeout, a dead worker) meanwhile. */
  #loadThenSend(slot: Slot, active: ActiveJob, load: () => Promise<HeapImage>): void {
    active.sent = false;
    load().then((image) => {
      active.image = image;
      if (slot.job === active && !active.settled) this.#sendRun(slot, active, true);
    }, (e: unknown) => {
      if (slot.job !== active) return;
      this.#settle(active, { status: 'failed', error: e instanceof Error ? e.message : String(e) });
      this.#release(slot, active);
      this.#dispatch(slot);
    });
  }

  #cancel(active: ActiveJob): void {
    if (active.settled) return;
    this.#settle(active, { status: 'cancelled', error: EXECUTION_ERRORS.CANCELLED });
    const i = this.#queue.indexOf(active);
    if (i >= 0) { this.#queue.splice(i, 1); return; }
    if (active.slot) this.#interrupt(active.slot, active, 'cancel');
  }

  /** Asks the worker to stop `active`; kills the worker if it has not answered within the grace period. */
  #interrupt(slot: Slot, active: ActiveJob, reason: 'cancel' | 'timeout'): void {
    if (slot.job !== active || active.killTimer) return;
    if (active.sent === false) {
      // Still loading its image: the worker has nothing to stop.
      this.#release(slot, active);
      this.#dispatch(slot);
      return;
    }
    slot.proc.send({ type: 'cancel', runId: active.runId, reason });
    active.killTimer = setTimeout(() => {
      if (slot.job !== active) return;
      this.#opts.log(`runjs: worker ${slot.proc.pid} did not stop within ${this.#opts.graceMs} ms; killing it`);
      slot.retiring = true;
      slot.proc.kill();
    }, this.#opts.graceMs);
  }

  #settle(active: ActiveJob, outcome: Outcome): void {
    if (active.settled) return;
    active.settled = true;
    active.resolve(outcome);
    active.ended.abort(new Error('the run has ended'));
  }

  #onMessage(slot: Slot, msg: WorkerMessage): void {
    switch (msg.type) {
      case 'ready':
        slot.ready = true;
        this.#bootFailures = 0;
        this.#startError = undefined;
        for (const w of this.#readyWaiters.splice(0)) w();
        this.#dispatch(slot);
        return;
      case 'output': {
        const active = slot.job;
        if (active?.runId !== msg.runId || active.settled) return;
        // The worker caps output itself; one that does not is cut here at the same bound.
        const data = active.bounds.admitOutput(msg.data);
        if (data !== '') active.job.onOutput(data);
        return;
      }
      case 'result': {
        const active = slot.job;
        if (!active || active.runId !== msg.runId) return;
        if (msg.imageMiss && !active.settled && !active.resent && (active.job.image || active.job.loadImage)) {
          // The mirror drifted from the worker's cache: nothing ran, so send the image itself.
          active.resent = true;
          if (active.imageToken !== undefined) slot.images.delete(active.imageToken);
          this.#sendRun(slot, active, true);
          return;
        }
        this.#release(slot, active);
        // The run's last output, sent with its result: delivered before the outcome, as an `output` message would be.
        if (msg.output !== undefined && !active.settled) {
          const data = active.bounds.admitOutput(msg.output);
          if (data !== '') active.job.onOutput(data);
        }
        // A cancelled run's decisions still describe what it did: recorded whenever its worker reports them.
        if (msg.decisions !== undefined && (msg.decisions.entries.length + msg.decisions.dropped > 0 || msg.decisions.egress !== undefined)) active.job.onDecisions?.(capDecisionLog(msg.decisions));
        // Checked again here: the worker's own caps on the result, the error text and the image are not trusted.
        let outcome = capWorkerOutcome(msg.outcome);
        const imageError = msg.image ? active.bounds.checkImage(msg.image.bytes.byteLength) : undefined;
        if (imageError !== undefined) outcome = { status: 'failed', error: imageError };
        else if (msg.image && outcome.status === 'completed') {
          slot.images.set(active.runId, true, msg.image.bytes.byteLength);
          if (!active.settled) active.job.onImage?.(msg.image);
        }
        if (msg.heap && outcome.status === 'completed') {
          const checked = active.bounds.checkHeap(msg.heap);
          if (typeof checked === 'string') outcome = { status: 'failed', error: checked };
          else {
            // The worker keeps the image under its heap key, the record's hash.
            slot.images.set(checked.heap.key, true, checked.heap.imageBytes);
            if (!active.settled) active.job.onHeap?.(checked.heap, checked.base);
          }
        }
        if (msg.fsChanges && outcome.status === 'completed' && !active.settled) active.job.onFsChanges?.(msg.fsChanges);
        this.#settle(active, outcome);
        if (msg.recycle) {
          slot.retiring = true;
          slot.proc.kill();
          return;
        }
        this.#dispatch(slot);
        return;
      }
      case 'op-request':
        this.#serveOp(slot, msg.runId, msg.reqId, msg.op, msg.args);
        return;
    }
  }

  /** Runs a delegated op for the slot's current run; the answer goes to the same worker process. */
  #serveOp(slot: Slot, runId: string, reqId: number, op: string, args: unknown): void {
    const proc = slot.proc;
    const answer = (res: { ok: true; value: unknown } | { ok: false; error: GuestErrorShape }): void => {
      // The worker died or moved on meanwhile: nobody is waiting for this answer. A run that ended
      // stopped waiting for its ops (worker/runtime/supervisor-client.ts drops late answers), so
      // its values are not serialized at all: an artifact read that finishes after its run would
      // otherwise cost 16 MiB of copies queued on the pipe while the next run starts. Refusals are
      // a few bytes and still go out (the stale-run refusal below is one), as before.
      if (proc.exited) return;
      if (res.ok && (slot.job?.runId !== runId || slot.job.settled)) return;
      proc.send(res.ok ? { type: 'op-response', reqId, ok: true, value: res.value } : { type: 'op-response', reqId, ok: false, error: res.error });
    };
    // Only the run the slot is executing may act (a stale message from an ended run may not).
    if (slot.job?.runId !== runId || slot.job.settled) { answer({ ok: false, error: { name: 'Error', message: 'runjs: the run has ended' } }); return; }
    const router = this.#opts.ops;
    if (router === undefined) { answer({ ok: false, error: { name: 'Error', message: `runjs: op '${op}' is not available on this server` } }); return; }
    const bounds = slot.job.bounds;
    const answerBytes = router.maxAnswerBytes(op);
    const refused = bounds.admitDelegated(args, answerBytes);
    if (refused !== undefined) { answer({ ok: false, error: { name: 'RangeError', message: refused } }); return; }
    void router.serve(op, args, { runId, signal: slot.job.ended.signal }).then((res) => {
      bounds.releaseDelegated(args, answerBytes);
      answer(res);
    });
  }

  #release(slot: Slot, active: ActiveJob): void {
    clearTimeout(active.timer);
    clearTimeout(active.killTimer);
    slot.job = undefined;
  }

  #dispatch(slot: Slot): void {
    if (this.#closed || !slot.ready || slot.job || slot.retiring) return;
    // Affinity: among the oldest few queued runs, prefer one whose input image this worker holds.
    let at = 0;
    for (let i = 0; i < Math.min(this.#queue.length, AFFINITY_WINDOW); i++) {
      const token = this.#queue[i]!.imageToken;
      if (token !== undefined && slot.images.has(token)) { at = i; break; }
    }
    const next = this.#queue.splice(at, 1)[0];
    if (next) this.#start(slot, next);
    else slot.idleSince = performance.now();
  }

  /** The worker broke the protocol: its run fails saying so; the process is killed and replaced. */
  #onViolation(slot: Slot, why: string): void {
    this.#opts.log(`runjs: worker ${slot.proc.pid} broke the protocol (${why}); killing it`);
    slot.retiring = true;
    const active = slot.job;
    if (active) this.#settle(active, { status: 'failed', error: EXECUTION_ERRORS.WORKER_PROTOCOL(why) });
  }

  #onExit(slot: Slot, detail: { code: number | null; signal: NodeJS.Signals | null; stderrTail: string }): void {
    const active = slot.job;
    if (active) {
      this.#release(slot, active);
      const why = detail.signal ? `killed by ${detail.signal}` : `exit code ${detail.code}`;
      const error = OOM_PATTERN.test(detail.stderrTail) ? EXECUTION_ERRORS.OUT_OF_MEMORY : EXECUTION_ERRORS.WORKER_DIED(why);
      this.#settle(active, { status: 'failed', error });
    }
    if (this.#closed || !this.#slots.includes(slot)) return;
    if (slot.ready) { this.#replace(slot, 0); return; }
    // Died before it was ever ready: a broken install, a bad flag, a crash at boot.
    this.#bootFailures++;
    const delay = Math.min(RESPAWN_MAX_MS, RESPAWN_BASE_MS * 2 ** (this.#bootFailures - 1));
    const why = detail.signal ? `killed by ${detail.signal}` : `exit code ${detail.code}`;
    if (this.#bootFailures >= MAX_BOOT_FAILURES && !this.#slots.some((s) => s.ready)) {
      const tail = detail.stderrTail.trim().slice(-STDERR_IN_ERROR_CHARS);
      this.#startError = new WorkerStartError(`workers keep failing to start: ${this.#bootFailures} in a row, the last with ${why}${tail ? `; its stderr: ${tail}` : ''}`);
      this.#opts.log(`runjs: ${this.#startError.message}; retrying every ${delay / 1000} s`);
      // Runs quote the worker's stderr without host directories (a module path in a stack); the log has it whole.
      for (const a of this.#queue.splice(0)) this.#settle(a, { status: 'failed', error: EXECUTION_ERRORS.WORKER_DIED(redactHostPaths(this.#startError.message)) });
      for (const w of this.#readyWaiters.splice(0)) w();
    }
    this.#replace(slot, delay);
  }

  /** Puts a new worker in `slot`'s place, after `delayMs`. */
  #replace(slot: Slot, delayMs: number): void {
    const swap = (): void => {
      const i = this.#slots.indexOf(slot);
      if (this.#closed || i < 0) return;
      this.#slots[i] = this.#spawn();
    };
    if (delayMs === 0) { swap(); return; }
    const timer = setTimeout(() => { this.#respawnTimers.delete(timer); swap(); }, delayMs);
    this.#respawnTimers.add(timer);
  }
}
