// The execution service: the registry of executions and their output (SQLite, written as runs
// progress), submission to the worker pool, cancel, paging, and waiting. Transports (REST, MCP)
// are thin layers over this; nothing here knows about HTTP or MCP.
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Outcome } from '../../shared/protocol.ts';
import type { CheckedHeap } from '../../shared/heap-encode.ts';
import { checkHeapKey, checkSession, checkTags, publicHeapStoreError, type EncodeOffer, type HeapService, type HeapStore, type Tags } from '../heaps/index.ts';
import { errorMessage, EXECUTION_ERRORS, RunjsError } from '../../shared/errors.ts';
import { resolveExecutionLimits, type ExecutionLimits } from '../../shared/execution-contract.ts';
import type { Job, JobHandle } from '../pool/worker-pool.ts';
import { ExecutionStore, type ExecutionRow } from './execution-store.ts';
import { OutputLog, type PageRequest } from './output-log.ts';
import type { ArtifactMeta, CancelResult, ExecRequest, ExecutionDecisions, ExecutionInfo, ExecutionOutput, ExecutionSummary } from './execution-types.ts';
import { concatDecisionLogs, type DecisionLog } from '../../shared/decision-log.ts';
import { DEFAULT_MOUNT_LIMITS, type MountChange, type MountLimits } from '../../shared/fs-mount.ts';
import type { FsService, FsStore } from '../fs/index.ts';
import { commitMount, loadMount, MountTooLargeError, resolveMount, type LoadedMount } from '../fs/mount-image.ts';

/** The part of the worker pool the service uses. */
export interface JobRunner {
  submit(job: Job): JobHandle;
}

export interface ExecutionServiceOptions {
  readonly db: DatabaseSync;
  readonly pool: JobRunner;
  /** Defaults and the heap ceiling (shared/execution-contract.ts). */
  readonly limits: ExecutionLimits;
  readonly maxOutputBytes: number;
  /** Finished executions kept in the registry (older ones are pruned with their output). */
  readonly retention: number;
  readonly heapEnabled: boolean;
  readonly fsEnabled: boolean;
  /** Filesystem snapshots: a run's `fs` (or its session's last `output_fs`) is mounted at /work. Required with fsEnabled. */
  readonly fs?: FsService | undefined;
  /** Per-run caps of the mount (default shared/fs-mount.ts's DEFAULT_MOUNT_LIMITS). */
  readonly mountLimits?: MountLimits;
  /** Heap persistence, tags and the session log; runs go to QuickJS with images when its store is set. */
  readonly heaps?: HeapService | undefined;
  /** What each execution emitted with `artifact()` (ExecutionInfo.artifacts); none when absent. */
  readonly artifacts?: { forExecution(executionId: string): ArtifactMeta[]; forgetExecution(executionId: string): void } | undefined;
  readonly now?: () => Date;
  /** Warnings: heap store failures in full, with the store's location (callers see less). Absent: stderr. */
  readonly warn?: ((line: string) => void) | undefined;
}

/** Output written to the database in chunks: at most every FLUSH_MS, or sooner when large. */
const FLUSH_MS = 50;
const FLUSH_BYTES = 256 * 1024;
/** Finished outputs kept in memory for paging (bytes in total). */
const OUTPUT_CACHE_BYTES = 64 * 1024 * 1024;

interface Live {
  readonly handle: JobHandle;
  readonly log: OutputLog;
  pending: Buffer[];
  pendingBytes: number;
  nextChunk: number;
  flushTimer: NodeJS.Timeout | undefined;
  readonly waiters: (() => void)[];
  /** The run's decision log, written with its outcome. */
  decisions: DecisionLog | undefined;
  /** Decisions made before the run (run_js `file`): kept in front of the worker's log. */
  readonly sourceDecisions: DecisionLog | undefined;
}

/** What a run that mounts a filesystem snapshot carries from submission to its outcome. */
interface FsRun {
  readonly store: FsStore;
  /** The snapshot mounted (undefined: an empty tree). */
  readonly base: string | undefined;
  /** The run's session: its output_fs is appended to the session log. */
  readonly session: string | null;
  readonly code: string;
  /** The run named its snapshot (`fs`): the fs_snapshot policy decides `pull` on it (the label, or null for an id). */
  readonly pull: { readonly label: string | null } | undefined;
  /** What the completed run changed (from its worker). */
  changes: readonly MountChange[] | undefined;
  /** The tree as mounted: what the worker may fetch, and what a change by content id resolves against. */
  mounted?: LoadedMount;
}

/** What a heap-mode run carries from submission to its outcome. */
interface HeapRun {
  readonly store: HeapStore;
  readonly heaps: HeapService;
  readonly code: string;
  readonly inputHeap: string | null;
  readonly session: string | null;
  readonly tags: Tags | null;
  /** What the worker was offered to encode against (set when the run is submitted). */
  offer: EncodeOffer;
  /** The heap the worker encoded (and its base heap, when it sent one). */
  encoded: { heap: CheckedHeap; base: CheckedHeap | undefined } | undefined;
}

export class ExecutionService {
  readonly #opts: ExecutionServiceOptions;
  readonly #store: ExecutionStore;
  readonly #live = new Map<string, Live>();
  /** Finished outputs, least recently used first (Map iteration order). */
  readonly #outputCache = new Map<string, OutputLog>();
  #outputCacheBytes = 0;
  #closed = false;

  constructor(opts: ExecutionServiceOptions) {
    this.#opts = opts;
    this.#store = new ExecutionStore(opts.db);
    // Nothing runs before this process started: never leave a record `running` forever.
    this.#store.failRunning(EXECUTION_ERRORS.SERVER_RESTARTED, this.#now());
  }

  #warn(line: string): void {
    if (this.#opts.warn) this.#opts.warn(line);
    else process.stderr.write(`runjs: warn: ${line}\n`);
  }

  #now(): string {
    return (this.#opts.now?.() ?? new Date()).toISOString();
  }

  /** Validates and registers an execution, hands it to the pool, and returns its id at once. */
  submit(req: ExecRequest): string {
    if (this.#closed) throw new Error('the execution service is closed');
    const { timeoutSecs, heapMb } = resolveExecutionLimits(req, this.#opts.limits);
    if (!this.#opts.heapEnabled && ((req.heap ?? '') !== '' || (req.tags != null && Object.keys(req.tags).length > 0))) throw new RunjsError('HEAP_NOT_ENABLED');
    if (!this.#opts.fsEnabled && (req.fs ?? '') !== '') throw new RunjsError('FS_NOT_ENABLED');
    const heapRun = this.#heapRun(req);
    const fsRun = this.#fsRun(req);

    const id = randomUUID();
    this.#store.insert(id, req.session ?? null, this.#now());
    const log = new OutputLog();
    let live: Live | undefined;
    let handle: JobHandle;
    try {
      const job: Job = {
        runId: id,
        code: req.code,
        engine: heapRun ? 'quickjs' : 'v8',
        heapMemoryMaxMb: heapMb,
        timeoutMs: timeoutSecs * 1000,
        maxOutputBytes: this.#opts.maxOutputBytes,
        onOutput: (data) => { if (live) this.#onOutput(id, live, data); },
        onDecisions: (log) => this.#onDecisions(id, log),
        ...(heapRun ? { onHeap: (heap: CheckedHeap, base: CheckedHeap | undefined) => { heapRun.encoded = { heap, base }; } } : {}),
        ...(fsRun ? { onFsChanges: (changes: readonly MountChange[]) => { fsRun.changes = changes; } } : {}),
      };
      const submitJob = (j: Job): JobHandle => !heapRun ? this.#opts.pool.submit(j)
        : heapRun.inputHeap ? this.#restoreThenSubmit(j, heapRun, heapRun.inputHeap)
        : this.#opts.pool.submit({ ...j, encodeHeap: { parent: null, maxDepth: heapRun.store.maxDepth, storedBases: heapRun.store.storedBases } });
      handle = fsRun ? this.#mountThenSubmit(job, fsRun, submitJob) : submitJob(job);
    } catch (e) {
      this.#store.remove(id);
      throw e;
    }
    live = { handle, log, pending: [], pendingBytes: 0, nextChunk: 0, flushTimer: undefined, waiters: [], decisions: req.sourceDecisions, sourceDecisions: req.sourceDecisions };
    this.#live.set(id, live);
    const l = live;
    void handle.outcome
      .then(async (outcome) => {
        const fsId = fsRun ? await this.#flushFs(id, fsRun, outcome) : undefined;
        if (fsId !== undefined && typeof fsId !== 'string') outcome = fsId;
        const fs = typeof fsId === 'string' ? fsId : null;
        if (heapRun) await this.#storeHeap(id, l, outcome, heapRun, fs);
        else {
          // Without a heap store, a session's log records its filesystem snapshots alone.
          const log = this.#opts.heaps?.log;
          const session = fsRun?.session ?? null;
          this.#onOutcome(id, l, outcome, null, fs, fs === null || session === null || !log ? undefined
            : () => { log.append(session, { code: req.code, input_heap: null, output_heap: null, output_fs: fs, timestamp: this.#now() }); });
        }
      })
      // Recording the outcome threw (the database, most likely): an unhandled rejection would end
      // the supervisor and every other run with it. Say so, and try to close the record as failed.
      .catch((e: unknown) => {
        const why = e instanceof Error ? e.message : String(e);
        process.stderr.write(`runjs: execution ${id}: recording its outcome failed: ${why}\n`);
        try {
          this.#onOutcome(id, l, { status: 'failed', error: EXECUTION_ERRORS.RUNJS_INTERNAL(`recording the outcome failed: ${why}`) });
        } catch { /* the record stays as it is; a restart marks it failed */ }
      });
    return id;
  }

  /** The filesystem side of a request: the snapshot to mount (its label resolved now), or undefined without one. */
  #fsRun(req: ExecRequest): FsRun | undefined {
    const fs = this.#opts.fs;
    if (!this.#opts.fsEnabled || !fs?.enabled) return undefined;
    const spec = req.fs ?? '';
    const session = req.session == null || req.session === '' ? null : checkSession(req.session);
    if (spec === '' && session === null) return undefined;
    // A session continues from its latest snapshot unless the request names one.
    const base = spec !== '' ? resolveMount(fs, spec).base : this.#opts.heaps?.log.latestFs(session!);
    const pull = spec === '' ? undefined : { label: /^[0-9a-fA-F]{64}$/.test(spec) ? null : spec };
    return { store: fs.store, base, session, code: req.code, pull, changes: undefined };
  }

  /** Reads the snapshot for the worker, then submits; a snapshot that cannot be mounted fails the execution. */
  #mountThenSubmit(job: Job, run: FsRun, submit: (job: Job) => JobHandle): JobHandle {
    let inner: JobHandle | undefined;
    let cancelled = false;
    const outcome = (async (): Promise<Outcome> => {
      let mount: LoadedMount;
      try {
        if (run.pull !== undefined) await this.#opts.fs!.authorize('pull', run.pull.label, run.base ?? null);
        // In use from now on: a collection during the run keeps it (the commit re-uses its subtrees,
        // and the worker fetches its files on demand).
        run.store.pin(run.base);
        mount = await loadMount(run.store, run.base, this.#opts.mountLimits ?? DEFAULT_MOUNT_LIMITS);
        run.mounted = mount;
      } catch (e) {
        if (!(e instanceof MountTooLargeError) && !(e instanceof RunjsError)) this.#warn(`execution ${job.runId}: cannot read snapshot ${run.base}: ${e instanceof Error ? e.message : String(e)}`);
        const why = e instanceof MountTooLargeError ? `snapshot ${run.base} is too large to mount: ${e.message}`
          : e instanceof RunjsError ? e.message : 'filesystem snapshot store unavailable (the server log has the details)';
        return { status: 'failed', error: EXECUTION_ERRORS.FS_MOUNT_FAILED(why) };
      }
      if (cancelled) return { status: 'cancelled', error: EXECUTION_ERRORS.CANCELLED };
      try {
        inner = submit({ ...job, mount: mount.image, readObject: (id) => mount.read(id) });
      } catch (e) {
        return { status: 'failed', error: e instanceof Error ? e.message : String(e) };
      }
      return inner.outcome;
    })();
    return { runId: job.runId!, outcome, cancel: () => { cancelled = true; inner?.cancel(); } };
  }

  /** A completed run's new snapshot id (its base when it wrote nothing), or the failed outcome when it cannot be stored; nothing for other runs. */
  async #flushFs(id: string, run: FsRun, outcome: Outcome): Promise<string | Outcome | undefined> {
    if (outcome.status !== 'completed' || this.#closed) return undefined;
    try {
      return await commitMount(run.store, run.base, run.changes ?? [], run.mounted);
    } catch (e) {
      if (!(e instanceof RunjsError)) this.#warn(`execution ${id}: committing its filesystem changes failed: ${e instanceof Error ? e.message : String(e)}`);
      return { status: 'failed', error: EXECUTION_ERRORS.FS_FLUSH_FAILED(e instanceof RunjsError ? e.message : 'filesystem snapshot store unavailable (the server log has the details)') };
    }
  }

  /** The heap side of a request, checked (a malformed key, tags or session is a 400 here); undefined without a heap store. */
  #heapRun(req: ExecRequest): HeapRun | undefined {
    const heaps = this.#opts.heaps;
    const store = heaps?.store;
    if (!heaps || !store) return undefined;
    const session = req.session == null ? null : checkSession(req.session);
    // Only `heap` picks the starting point; a session only tags and logs the run (spec ExecRequest:
    // "empty or omitted starts a fresh isolate"). Resuming a session's latest heap implicitly would
    // leave no way to start fresh under a session and would silently drop one branch of two
    // concurrent runs; a client that wants to continue passes the previous run's `heap`.
    const inputHeap = (req.heap ?? '') === '' ? null : checkHeapKey(req.heap);
    const tags = req.tags == null || Object.keys(req.tags).length === 0 ? null : checkTags(req.tags);
    return { store, heaps, code: req.code, inputHeap, session, tags, offer: { parent: null }, encoded: undefined };
  }

  /**
   * Reads the input heap's record (a small read, usually cached), then submits: the image itself
   * is rebuilt from the store only when the run goes to a worker that does not hold it (the pool
   * calls loadImage). The execution is registered (and cancellable) meanwhile; a heap that cannot
   * be restored fails the execution with the store's error, naming the key but not where the
   * store is (the log line has that).
   */
  #restoreThenSubmit(job: Job, run: HeapRun, key: string): JobHandle {
    const { store } = run;
    let inner: JobHandle | undefined;
    let cancelled = false;
    const restoreFailed = (e: unknown): Error => {
      this.#warn(`execution ${job.runId}: cannot restore heap ${key} from ${store.location}: ${e instanceof Error ? e.message : String(e)}`);
      return new Error(EXECUTION_ERRORS.HEAP_RESTORE_FAILED(publicHeapStoreError(e)));
    };
    const outcome = (async (): Promise<Outcome> => {
      let depth: number;
      let anchor: string | undefined;
      try {
        depth = (await store.record(key)).depth;
        anchor = depth >= store.maxDepth ? await store.chainAnchorKey(key) : undefined;
      } catch (e) {
        return { status: 'failed', error: restoreFailed(e).message };
      }
      if (cancelled) return { status: 'cancelled', error: EXECUTION_ERRORS.CANCELLED };
      run.offer = { parent: { key, depth }, anchor };
      try {
        inner = this.#opts.pool.submit({
          ...job,
          imageKey: key,
          loadImage: () => store.get(key).then((heap) => heap.image, (e: unknown) => { throw restoreFailed(e); }),
          encodeHeap: { parent: { key, depth }, ...(anchor !== undefined ? { anchor } : {}), maxDepth: store.maxDepth, storedBases: store.storedBases },
        });
      } catch (e) {
        return { status: 'failed', error: e instanceof Error ? e.message : String(e) };
      }
      return inner.outcome;
    })();
    return { runId: job.runId!, outcome, cancel: () => { cancelled = true; inner?.cancel(); } };
  }

  /**
   * A completed heap-mode run stores its heap (the blobs its worker encoded) before the execution
   * completes, so `heap` is readable the moment the status is `completed`. A store failure fails
   * the execution (the input heap is untouched: heaps are immutable).
   */
  async #storeHeap(id: string, live: Live, outcome: Outcome, run: HeapRun, fs: string | null): Promise<void> {
    let key: string | null = null;
    if (outcome.status === 'completed' && !run.encoded) {
      outcome = { status: 'failed', error: EXECUTION_ERRORS.HEAP_NOT_STORED('the worker returned no heap image') };
    } else if (outcome.status === 'completed') {
      try {
        key = (await run.store.putEncoded(run.encoded!.heap, run.offer, run.encoded!.base)).key;
      } catch (e) {
        this.#warn(`execution ${id}: storing its heap in ${run.store.location} failed: ${e instanceof Error ? e.message : String(e)}`);
        outcome = { status: 'failed', error: EXECUTION_ERRORS.HEAP_NOT_STORED(publicHeapStoreError(e)) };
      }
    }
    run.encoded = undefined;
    // Shut down while storing: close() has already failed the record (and the database may be gone).
    if (this.#closed) return;
    this.#onOutcome(id, live, outcome, key, key === null ? null : fs, () => {
      if (key === null) return;
      if (run.tags) run.heaps.tagStore.set(key, run.tags);
      if (run.session !== null) {
        run.heaps.log.append(run.session, { code: run.code, input_heap: run.inputHeap, output_heap: key, output_fs: fs, timestamp: this.#now() });
      }
    });
  }

  /** Kept until the outcome is written (same transaction); a cancelled run's log arrives later and is written at once. */
  #onDecisions(id: string, log: DecisionLog): void {
    if (this.#closed) return;
    const live = this.#live.get(id);
    if (live) live.decisions = live.sourceDecisions === undefined ? log : concatDecisionLogs(live.sourceDecisions, log);
    else this.#store.putDecisions(id, log);
  }

  #onOutput(id: string, live: Live, data: string): void {
    const chunk = Buffer.from(data, 'utf8');
    live.log.append(chunk);
    live.pending.push(chunk);
    live.pendingBytes += chunk.length;
    if (live.pendingBytes >= FLUSH_BYTES) this.#flush(id, live);
    else live.flushTimer ??= setTimeout(() => this.#flush(id, live), FLUSH_MS);
  }

  #flush(id: string, live: Live): void {
    clearTimeout(live.flushTimer);
    live.flushTimer = undefined;
    if (live.pending.length === 0) return;
    const data = live.pending.length === 1 ? live.pending[0]! : Buffer.concat(live.pending);
    live.pending = [];
    live.pendingBytes = 0;
    this.#store.appendOutput(id, live.nextChunk++, data);
  }

  /**
   * One transaction (one commit) per outcome: the output's last chunk, the decision log, the
   * terminal state, the session log entry and the pruning of what is now over the retention
   * bound. Waiters wake after the commit, so a response never shows an uncommitted state.
   * `afterFinish` runs in the same transaction, only when this outcome (not a cancel) finished the record.
   */
  #onOutcome(id: string, live: Live, outcome: Outcome, heap: string | null = null, fs: string | null = null, afterFinish?: () => void): void {
    const completedAt = this.#now();
    const pruned = this.#store.transaction(() => {
      this.#flush(id, live);
      if (live.decisions) this.#store.putDecisions(id, live.decisions);
      const finished = this.#store.finish(id, outcome.status === 'completed'
        ? { status: 'completed', result: outcome.result, error: null, heap, fs, completedAt }
        : { status: outcome.status, result: null, error: outcome.error, heap: null, fs: null, completedAt });
      if (finished) afterFinish?.();
      const old = this.#store.prune(this.#opts.retention);
      for (const o of old) this.#opts.artifacts?.forgetExecution(o);
      return old;
    });
    live.log.finish();
    this.#live.delete(id);
    this.#cacheOutput(id, live.log);
    for (const w of live.waiters.splice(0)) w();
    for (const old of pruned) this.#uncacheOutput(old);
  }

  #cacheOutput(id: string, log: OutputLog): void {
    this.#uncacheOutput(id);
    this.#outputCache.set(id, log);
    this.#outputCacheBytes += log.byteLength;
    for (const [oldId, old] of this.#outputCache) {
      if (this.#outputCacheBytes <= OUTPUT_CACHE_BYTES || oldId === id) break;
      this.#outputCache.delete(oldId);
      this.#outputCacheBytes -= old.byteLength;
    }
  }

  #uncacheOutput(id: string): void {
    const old = this.#outputCache.get(id);
    if (old) {
      this.#outputCache.delete(id);
      this.#outputCacheBytes -= old.byteLength;
    }
  }

  #row(id: string): ExecutionRow {
    const row = this.#store.get(id);
    if (!row) throw new RunjsError('EXECUTION_NOT_FOUND', id);
    return row;
  }

  get(id: string): ExecutionInfo {
    const r = this.#row(id);
    return {
      execution_id: r.id,
      status: r.status,
      result: r.result,
      heap: r.heap,
      fs: r.fs,
      error: r.error,
      started_at: r.started_at,
      completed_at: r.completed_at,
      artifacts: this.#opts.artifacts?.forExecution(r.id) ?? [],
    };
  }

  /** The ids of the retained executions submitted under MCP/REST session `session`. */
  sessionExecutionIds(session: string): ReadonlySet<string> {
    return this.#store.idsOfSession(session);
  }

  /** The execution's policy decisions (empty while it runs: its log arrives with its result). */
  decisions(id: string): ExecutionDecisions {
    const r = this.#row(id);
    const log = this.#store.decisions(id);
    return { execution_id: r.id, status: r.status, decisions: log.entries, dropped: log.dropped, egress: log.egress ?? {} };
  }

  /** Running executions and the retained finished ones, newest first. */
  list(): ExecutionSummary[] {
    const rows = [...this.#store.running(), ...this.#store.recentFinished(this.#opts.retention)];
    rows.sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0));
    return rows.map((r) => ({ execution_id: r.id, status: r.status, started_at: r.started_at, completed_at: r.completed_at }));
  }

  /** Cancels a running execution; its status becomes `cancelled` before this returns. */
  cancel(id: string): CancelResult {
    const r = this.#row(id);
    const live = this.#live.get(id);
    if (r.status !== 'running' || !live) {
      return { ok: false, error: errorMessage('EXECUTION_NOT_RUNNING', id, r.status) };
    }
    const completedAt = this.#now();
    this.#store.transaction(() => {
      this.#flush(id, live);
      this.#store.finish(id, { status: 'cancelled', result: null, error: EXECUTION_ERRORS.CANCELLED, heap: null, completedAt });
    });
    live.handle.cancel();
    return { ok: true };
  }

  /** One page of output; `req` offsets are 0-based. */
  output(id: string, req: PageRequest): ExecutionOutput {
    const r = this.#row(id);
    const log = this.#live.get(id)?.log ?? this.#finishedLog(id);
    return { execution_id: id, ...log.page(req), status: r.status };
  }

  #finishedLog(id: string): OutputLog {
    const cached = this.#outputCache.get(id);
    if (cached) {
      this.#outputCache.delete(id);
      this.#outputCache.set(id, cached); // most recently used
      return cached;
    }
    const log = OutputLog.from(this.#store.output(id), true);
    this.#cacheOutput(id, log);
    return log;
  }

  /**
   * Resolves when the execution has reached a terminal status (or at once if it has); rejects
   * with the signal's reason when it aborts first (REST long-polls abort on every timeout and
   * disconnect, so an aborted waiter is removed rather than left until the run ends).
   */
  async wait(id: string, signal?: AbortSignal): Promise<ExecutionInfo> {
    const live = this.#live.get(id);
    // A live run's record exists (it was inserted before the run was registered), so waiting
    // needs no SELECT; any other id is answered (or a 404) by the one read get() makes.
    if (live) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          const i = live.waiters.indexOf(waiter);
          if (i >= 0) live.waiters.splice(i, 1);
          reject(signal!.reason);
        };
        const waiter = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        live.waiters.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    return this.get(id);
  }

  /** Stops accepting work; records still running are failed with the shutdown reason. */
  close(): void {
    this.#closed = true;
    const at = this.#now();
    for (const [id, live] of this.#live) {
      this.#store.transaction(() => {
        this.#flush(id, live);
        this.#store.finish(id, { status: 'failed', result: null, error: EXECUTION_ERRORS.SERVER_SHUT_DOWN, heap: null, completedAt: at });
      });
      live.handle.cancel();
    }
  }
}
