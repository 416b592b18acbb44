// One worker process's state and its runs: the engines, the realm booted ahead of the next run,
// recent heap images, the supervisor client and the op table built from the worker's settings.
// Runs one execution at a time for the supervisor's pool and streams console output back.
// Everything lives on this object (made once by worker/main.ts from the `init` message): no
// module-level state, so a capability's per-worker state travels in its factory's closure and
// per-run state on the run's OpContext.
import type { EncodedHeapResult, HeapEncodeRequest, RunRequest, WorkerMessage } from '../../shared/protocol.ts';
import type { WorkerSettings } from '../../shared/worker-settings.ts';
import { EngineError, type Engine, type GuestRealm, type HostCall } from '../engine.ts';
import { V8Engine } from '../engines/v8/v8-engine.ts';
import { HeapImageError, type HeapImage } from '../../shared/heap-image.ts';
import { DeltaBuffer } from '../../shared/heap-delta.ts';
import { encodeHeap, INLINE_ZSTD_BYTES, type DeltaParent, type EncodedHeap } from '../../shared/heap-encode.ts';
import { ImageBuffers } from './image-buffers.ts';
import { ByteLru, WORKER_IMAGE_CACHE_BYTES, WORKER_IMAGE_CACHE_ENTRIES } from '../../shared/image-lru.ts';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import { createOps } from '../ops/capabilities.ts';
import type { OpFactory, OpTable } from '../ops/op-types.ts';
import { PolicyEngine } from '../policy/policy-engine.ts';
import type { DecisionLog } from '../../shared/decision-log.ts';
import { BUILTIN_MODULES } from '../guest/builtin-modules.ts';
import { internalError, RunLoop } from './execute-run.ts';
import { MountFs } from '../ops/fs/mount-fs.ts';
import { unpackMountImage } from '../../shared/fs-mount-wire.ts';
import type { ObjectChannel } from './object-channel.ts';
import { Transpiler } from '../source/transpile.ts';
import { OutputBuffer } from './output-buffer.ts';
import { SupervisorClient } from './supervisor-client.ts';
import type { CancelChannel } from './cancel-channel.ts';
import { startMemoryWatchdog, type MemoryWatchdog } from './memory-watchdog.ts';
import { injectedHeaderNames } from '../network/header-injection.ts';
import { readPartSource } from '../ops/platform/platform-ops.ts';

const DEFAULT_HEAP_MB = 8;
/** Console output written while QuickJS blocks the thread is sent at least this often. */
const OUTPUT_WHILE_BLOCKED_MS = 10;
/**
 * How long an interrupted realm, or threadpool work the run started (a digest in flight when the
 * run failed), may take to finish before the worker asks to be replaced. An interrupt that takes
 * returns within a few ms (engine.cancel_latency_ms ≈ 4 ms, IPC included); this wait is on the
 * path of every cancel that ends in a kill (engine.cancel_kill_latency_ms).
 */
const STOP_GRACE_MS = 50;

/** Polls `done` until it holds or `ms` pass. */
async function settlesWithin(done: () => boolean, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (!done()) {
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}

export class WorkerHost {
  readonly #send: (msg: WorkerMessage) => void;
  readonly #settings: WorkerSettings;
  readonly #ops: OpTable;
  readonly #supervisor: SupervisorClient;
  readonly #cancelChannel: CancelChannel | undefined;
  /** The object pipe: a mounted snapshot's file contents, fetched on demand. */
  readonly #objects: ObjectChannel | undefined;
  readonly #v8: V8Engine;
  /** esbuild's service for this worker's runs (restarted when it dies; see transpile.ts). */
  readonly #transpiler = new Transpiler();
  /**
   * QuickJS is imported on first use (or at start when warmed): its modules take ≈ 80 ms to load
   * and hold memory a V8-only worker never needs, and a replacement worker's boot is on the
   * cancel-kill path.
   */
  #quickjs: Promise<Engine> | undefined;
  /** The current run's host call; realms are created ahead of time and bound through the trampoline. */
  #currentHostCall: HostCall | undefined;
  /** A realm booted ahead of the next run with the default limit (engine-study: ~2 ms saved). */
  #warm: Promise<GuestRealm> | undefined;
  /**
   * Recent heap images by the supervisor's names for them (RunRequest.imageToken): a run resuming
   * one restores it from here, without the image crossing IPC. Restores copy out of these images
   * and snapshots are fresh buffers, so cached images are never modified.
   */
  readonly #imageCache = new ByteLru<HeapImage>(WORKER_IMAGE_CACHE_BYTES, WORKER_IMAGE_CACHE_ENTRIES);
  /** The QuickJS base image encoded as a full heap (its key is every fresh run's delta parent), made on first use. */
  #base: Promise<EncodedHeap & { readonly image: HeapImage }> | undefined;
  /** The buffer each step's delta is built in (shared/heap-delta.ts): no ≈ 1 MB allocation per step. */
  readonly #deltaBuffer = new DeltaBuffer(INLINE_ZSTD_BYTES);
  /** Buffers of captured images no longer referenced, for the next captures (image-buffers.ts). */
  readonly #imageBuffers = new ImageBuffers();
  /** Images this worker captured that may still be referenced (by the cache, or the run in progress). */
  readonly #captured = new Set<HeapImage>();
  /** Page hashes of the images this worker encoded (shared/heap-image-hash.ts): the next step from one hashes only its changed pages. */
  readonly #pageHashes = new WeakMap<HeapImage, Uint8Array>();
  #active: { runId: string; loop: RunLoop } | undefined;
  readonly #onQuickJSLoaded: () => void;

  /** The worker's policy engine: its JavaScript hooks compile once, on first use, and serve every run. */
  readonly #policy: PolicyEngine;

  /** `overrides` replace ops by name (test workers only, see worker/serve.ts). */
  constructor(settings: WorkerSettings, send: (msg: WorkerMessage) => void, cancelChannel: CancelChannel | undefined, onQuickJSLoaded: () => void = () => {}, overrides: readonly OpFactory[] = [], objects?: ObjectChannel) {
    this.#objects = objects;
    this.#settings = settings;
    this.#v8 = new V8Engine({ wasm: settings.wasm ?? [], partSource: readPartSource });
    this.#send = send;
    this.#ops = createOps(settings, overrides);
    // The header names injection rules set are secret in every decision log, whatever the host.
    this.#policy = new PolicyEngine(settings.policies, { redactKeys: injectedHeaderNames(settings.headerRules) });
    this.#supervisor = new SupervisorClient(send);
    this.#cancelChannel = cancelChannel;
    this.#onQuickJSLoaded = onQuickJSLoaded;
  }

  readonly #trampoline: HostCall = (op, argsJson, bytes) => {
    if (this.#currentHostCall === undefined) return `e${JSON.stringify({ name: 'Error', message: 'runjs: no active run' })}`;
    return this.#currentHostCall(op, argsJson, bytes);
  };

  /** Boots the engines the settings ask to warm; resolves when the worker can say ready. */
  async warmUp(): Promise<void> {
    const engines = this.#settings.warmEngines;
    if (engines.includes('v8')) this.#prepareWarm();
    await Promise.allSettled([this.#warm, engines.includes('quickjs') ? this.#loadQuickJS().then((q) => q.warmUp?.()) : undefined]);
  }

  /** Routes one message from the supervisor (already narrowed by the protocol's guard). */
  onRun(req: RunRequest): void {
    if (this.#active) {
      this.#send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: 'runjs internal error: worker is busy' } });
      return;
    }
    void this.#handleRun(req);
  }

  onCancel(runId: string, reason: 'cancel' | 'timeout'): void {
    if (this.#active?.runId === runId) this.#active.loop.stop(reason);
  }

  get supervisor(): SupervisorClient {
    return this.#supervisor;
  }

  #loadQuickJS(): Promise<Engine> {
    this.#quickjs ??= import('../engines/quickjs/quickjs-engine.ts').then((m) => {
      this.#onQuickJSLoaded();
      return new m.QuickJSEngine({ cacheDir: this.#settings.quickjsCacheDir });
    });
    return this.#quickjs;
  }

  #engineFor(name: string): Engine | Promise<Engine> | undefined {
    if (name === 'v8') return this.#v8;
    if (name === 'quickjs') return this.#loadQuickJS();
    return undefined;
  }

  #prepareWarm(): void {
    if (this.#warm !== undefined) return; // still unused (the last run was QuickJS or had another limit)
    this.#warm = this.#v8.createRealm({ memoryLimitMb: DEFAULT_HEAP_MB, hostCall: this.#trampoline });
    this.#warm.catch(() => { this.#warm = undefined; });
  }

  async #takeRealm(req: RunRequest, image: HeapImage | undefined): Promise<GuestRealm> {
    const limit = Math.max(DEFAULT_HEAP_MB, req.heapMemoryMaxMb);
    if (image && req.engine !== 'quickjs') throw new HeapImageError(`Heap images need the QuickJS engine; this execution runs on ${req.engine}`);
    if (this.#warm !== undefined && limit === DEFAULT_HEAP_MB && req.engine === 'v8') {
      const w = this.#warm;
      this.#warm = undefined;
      try {
        return await w;
      } catch { /* fall through to a fresh realm */ }
    }
    const engine = await this.#engineFor(req.engine);
    if (!engine) throw new Error(`engine '${req.engine}' is not available in this worker`);
    return engine.createRealm({ memoryLimitMb: limit, hostCall: this.#trampoline, ...(image ? { image } : {}) });
  }

  /**
   * A completed run's heap as the store keeps it: a sparse delta against the image the run restored
   * (`input`), or — at the depth limit — against the chain's depth-1 heap when this worker holds
   * it, else against the base image (a new chain); the rules HeapStore.put applies, here, so only
   * a few KB cross to the supervisor. The image stays in this worker's cache under its heap key,
   * which is how the pool names it (it hashes the same record).
   */
  async #encodeHeap(image: HeapImage, req: HeapEncodeRequest, input: HeapImage | undefined): Promise<EncodedHeapResult> {
    const { parent, anchor } = req;
    let against: DeltaParent | undefined;
    if (parent !== null && input !== undefined && parent.depth < req.maxDepth) {
      against = { key: parent.key, image: input, depth: parent.depth, pageHashes: this.#pageHashes.get(input) };
    } else if (parent !== null && anchor !== undefined) {
      const held = this.#imageCache.get(anchor);
      if (held) against = { key: anchor, image: held, depth: 1, pageHashes: this.#pageHashes.get(held) };
    }
    const base = against === undefined ? await this.#storedBase() : undefined;
    if (base) against = { key: base.key, image: base.image, depth: 0, pageHashes: base.pageHashes };
    const encoded = await encodeHeap(image, against, this.#deltaBuffer);
    if (encoded.pageHashes) this.#pageHashes.set(image, encoded.pageHashes);
    if (encoded.parentPageHashes && against) this.#pageHashes.set(against.image, encoded.parentPageHashes);
    this.#imageCache.set(encoded.key, image, image.bytes.byteLength);
    const sendBase = base !== undefined && !req.storedBases.includes(base.key);
    return { record: encoded.record, payload: encoded.payload, ...(sendBase ? { base: { record: base.record, payload: base.payload } } : {}) };
  }

  /** The engine's base image encoded as a full heap; undefined when the engine has none. */
  async #storedBase(): Promise<(EncodedHeap & { readonly image: HeapImage }) | undefined> {
    const image = (await this.#loadQuickJS()).baseImage;
    if (image === undefined) return undefined;
    this.#base ??= encodeHeap(image, undefined).then((e) => ({ ...e, image }));
    const base = await this.#base;
    return base.image === image ? base : undefined;
  }

  /**
   * At the end of a run, nothing of it reads its images any more: the captured images the cache
   * no longer holds (evicted, or never kept) give their buffers to the next captures.
   */
  #releaseImages(): void {
    for (const image of this.#captured) {
      if (this.#imageCache.holds(image)) continue;
      this.#captured.delete(image);
      this.#imageBuffers.release(image);
    }
  }

  async #handleRun(req: RunRequest): Promise<void> {
    const send = this.#send;
    const output = new OutputBuffer((data) => send({ type: 'output', runId: req.runId, data }), req.maxOutputBytes);
    const heapMb = Math.max(DEFAULT_HEAP_MB, req.heapMemoryMaxMb);
    let watchdog: MemoryWatchdog | undefined;
    const objects = this.#objects;
    if (req.mount) objects?.start();
    const image = req.mount ? unpackMountImage(req.mount) : undefined;
    if (req.mount && image === undefined) {
      send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: 'runjs internal error: the mounted snapshot is malformed' } });
      return;
    }
    const mount = image ? new MountFs(image, image.limits, objects ? (id) => objects.fetch(req.runId, id) : undefined) : undefined;
    const loop = new RunLoop({ runId: req.runId, code: req.code, timeoutMs: req.timeoutMs, heapMemoryMaxMb: heapMb, persistTopLevel: req.captureImage === true || req.encodeHeap !== undefined, ...(req.mcpCatalog !== undefined ? { mcpCatalog: req.mcpCatalog } : {}), ...(this.#settings.externalModules === true ? { externalModules: true } : {}), ...(mount ? { mount } : {}) }, this.#ops, BUILTIN_MODULES, {
      output: (text) => output.write(text),
      outputLineCap: () => output.lineCap(),
      overflowOutput: (minBytes) => output.overflow(minBytes),
      // Polled from QuickJS's interrupt handler while guest code blocks this thread: stream the
      // console output written meanwhile, and pick up cancels from the side channel.
      pollStop: () => {
        output.flushIfOlderThan(OUTPUT_WHILE_BLOCKED_MS);
        watchdog?.check();
        return this.#cancelChannel?.poll(req.runId);
      },
    }, this.#supervisor.forRun(req.runId), this.#policy.forRun(), this.#transpiler);
    const decisions = (): { decisions?: DecisionLog } => {
      const log = loop.decisions();
      return log.entries.length + log.dropped > 0 || log.egress !== undefined ? { decisions: log } : {};
    };
    this.#active = { runId: req.runId, loop };
    let realm: GuestRealm | undefined;
    /** The size of the image this run captured, for the buffer prepared for the next capture. */
    let capturedBytes: number | undefined;
    try {
      let input = req.image;
      if (req.imageToken !== undefined) {
        if (input) this.#imageCache.set(req.imageToken, input, input.bytes.byteLength);
        else input = this.#imageCache.get(req.imageToken);
        if (!input) {
          send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: 'runjs internal error: the worker does not hold the heap image' }, imageMiss: true });
          return;
        }
      }
      try {
        realm = await this.#takeRealm(req, input);
      } catch (e) {
        // Images are user state: a foreign or oversized one is the run's failure, not ours.
        if (e instanceof HeapImageError) { send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: e.message } }); return; }
        if (e instanceof EngineError && e.kind === 'out-of-memory') { send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY } }); return; }
        throw e;
      }
      this.#currentHostCall = loop.hostCall;
      watchdog = startMemoryWatchdog(heapMb * 1024 * 1024, () => loop.stop('out-of-memory'));
      const outcome = await loop.run(realm);
      // Sent with the result: one message for a run that printed (the run can write no more).
      const tail = output.take();
      // Replaced, not reused, when the realm did not come back (a stuck isolate) or host work the
      // run started is still computing on the threadpool, where it cannot be stopped (host-work.ts).
      const recycle = !(await settlesWithin(() => !loop.busy && loop.hostWorkRunning() === 0, STOP_GRACE_MS));
      let image: HeapImage | undefined;
      if (outcome.status === 'completed' && (req.captureImage || req.encodeHeap) && realm.snapshot) {
        image = realm.snapshot(this.#imageBuffers.take);
        this.#captured.add(image);
        capturedBytes = image.bytes.byteLength;
      }
      if (image && req.captureToken !== undefined) this.#imageCache.set(req.captureToken, image, image.bytes.byteLength);
      const heap = image && req.encodeHeap ? await this.#encodeHeap(image, req.encodeHeap, input) : undefined;
      // Only a completed run's writes are kept (the supervisor commits them into a new snapshot).
      const fsChanges = mount && outcome.status === 'completed' ? mount.changes() : undefined;
      send({ type: 'result', runId: req.runId, outcome, ...(tail !== undefined ? { output: tail } : {}), ...(recycle ? { recycle } : {}), ...(image && req.captureImage ? { image } : {}), ...(heap ? { heap } : {}), ...(fsChanges ? { fsChanges } : {}), ...decisions() });
      if (recycle) return; // the supervisor kills this process: neither may reach another run
    } catch (e) {
      const tail = output.take();
      process.stderr.write(`runjs: run ${req.runId} failed inside the worker: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
      send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: internalError(e) }, ...(tail !== undefined ? { output: tail } : {}), ...decisions() });
    } finally {
      watchdog?.stop();
      this.#currentHostCall = undefined;
      this.#active = undefined;
      realm?.dispose();
      this.#releaseImages();
      if (capturedBytes !== undefined) this.#imageBuffers.prepare(capturedBytes);
      this.#prepareWarm();
    }
  }
}
