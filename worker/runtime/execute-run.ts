// Runs one execution in a realm: the engine-neutral event loop. The guest reaches the host only
// through `hostCall`; async ops settle back through realm.complete(), one at a time. The run
// ends when the main module has settled and nothing is pending — or at the first failure,
// interrupt (cancel/timeout) or out-of-memory.
import type { SourceMap } from 'node:module';
import type { GuestRealm, HostCall, InterruptPoll, InterruptReason } from '../engine.ts';
import { EngineError, UnhandledRejectionError } from '../engine.ts';
import { OpError, WithBytes, type OpContext, type OpTable, type RunSupervisor } from '../ops/op-types.ts';
import { RunResources } from './run-resources.ts';
import { TimerQueue } from './timer-queue.ts';
import { HOST_WORK, type HostWork } from './host-work.ts';
import type { Outcome } from '../../shared/protocol.ts';
import type { DecisionLog } from '../../shared/decision-log.ts';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import { Transpiler, TranspileError, TranspileAbortedError } from '../source/transpile.ts';
import { originalPosition, parseSourceMap, remapPositions, type WrapShifts } from '../source/positions.ts';
import { wrapMain, ModuleSpecifierError } from '../source/wrap-main.ts';
import { resolveImport, ImportError, type BuiltinModules } from '../source/resolve-import.ts';
import { loadExternalModules } from '../source/external-modules.ts';
import { capOutcome } from '../../shared/outcome-limits.ts';
import { PolicyEngine, type RunPolicy } from '../policy/policy-engine.ts';
import { redactHostPaths } from '../../shared/host-paths.ts';
import type { MountFs } from '../ops/fs/mount-fs.ts';

/** The heap cap a run is held to when its spec names none (the spec's minimum). */
const DEFAULT_HEAP_MB = 8;

/**
 * How an uncaught V8 array-buffer allocation failure (the isolate's allocator cap) reaches settle,
 * and the engine's text for one that ends a guest task: an unhandled rejection with it, or a host
 * answer (`artifact.get`'s bytes) larger than what the isolate may still allocate.
 */
const ARRAY_BUFFER_OOM = 'Uncaught RangeError: Array buffer allocation failed';

export type StopReason = 'cancel' | 'timeout' | 'out-of-memory';

export interface RunSpec {
  readonly runId: string;
  readonly code: string;
  readonly timeoutMs: number;
  /** The engine heap cap (MB) the run's realm was made with; host-side work for the run is held to it too. */
  readonly heapMemoryMaxMb?: number;
  /** Top-level declarations become globals (heap-mode runs, whose heap later runs resume). */
  readonly persistTopLevel?: boolean;
  /** The upstream MCP catalogue's JSON (RunRequest.mcpCatalog); absent when no server is configured. */
  readonly mcpCatalog?: string;
  /** `npm:`, `jsr:` and URL imports are loaded through the supervisor (--allow-external-modules). */
  readonly externalModules?: boolean;
  /** The run's filesystem with its mounted snapshot (RunRequest.mount); absent: an empty, discarded /work. */
  readonly mount?: MountFs;
}

/** The run's way to the supervisor; without one (engine tests, benchmarks) delegated ops fail. */
const NO_SUPERVISOR: RunSupervisor = {
  request: (op) => Promise.reject(new OpError(`runjs: '${op}' needs the supervisor, which this worker cannot reach`)),
};

export interface RunHooks {
  /** Console text, in order, as it is written. */
  output(text: string): void;
  /** The most bytes one console write can take (absent: no cap). */
  outputLineCap?(): number;
  /** A console write of at least `minBytes` that was never built (absent: nothing to record). */
  overflowOutput?(minBytes: number): void;
  /**
   * A stop request that arrived while the worker's thread was blocked in guest code (the
   * worker's cancel side channel); polled by engines that run guest code synchronously.
   */
  pollStop?(): InterruptReason | undefined;
}

interface Completion {
  readonly id: number;
  readonly ok: boolean;
  readonly value: unknown;
}

function errorJson(e: unknown): string {
  if (e instanceof OpError) return JSON.stringify({ name: e.guestName, message: e.message, code: e.code });
  // An op that failed with a host exception it did not map (a bug, or an error passed on from Node).
  const message = redactHostPaths(e instanceof Error ? e.message : String(e));
  return JSON.stringify({ name: 'Error', message });
}

/** The outcome text of a failure of runjs itself: its message, with host directories left out. */
export function internalError(e: unknown): string {
  return `runjs internal error: ${redactHostPaths(e instanceof Error ? e.message : String(e))}`;
}

function encodeValue(v: unknown): string | Uint8Array {
  if (v instanceof Uint8Array) return v;
  return v === undefined ? 'v' : `v${JSON.stringify(v)}`;
}

/** One execution's state and event loop. `stop()` may be called at any time from outside. */
export class RunLoop {
  readonly #spec: RunSpec;
  readonly #ops: OpTable;
  readonly #builtins: BuiltinModules;
  readonly #hooks: RunHooks;
  readonly #pending = new Map<number, AbortController>();
  /** Pending ops that do not keep the run alive (refOp). */
  readonly #unref = new Set<number>();
  readonly #queue: Completion[] = [];
  #nextOpId = 1;
  #realm: GuestRealm | undefined;
  #settled: { ok: boolean; value: string } | undefined;
  #stopReason: StopReason | undefined;
  #mainEvaluated = false;
  /** The main body's turn is running: completions wait for it (see #drain). */
  #mainRunning = false;
  #draining = false;
  readonly #timers = new TimerQueue();
  /** Engine calls (main evaluation, deliveries) that have not returned yet. */
  #inFlight = 0;
  #finish: ((o: Outcome) => void) | undefined;
  #outcome: Outcome | undefined;
  #deadlineAt = Infinity;
  /** The wrapper's column shifts, to map main.js positions in error texts back to the source. */
  #shifts: WrapShifts | undefined;
  /** The async op starting now (hostCall): ctx.runEvent's op, which must not keep the run alive. */
  #startingOp = 0;
  /** Ops waiting for a process event (ctx.runEvent), by event: the op the host settles itself. */
  readonly #eventOps = new Map<'idle' | 'rejection', number>();
  /** Async ops started since 'idle' was last delivered ('beforeExit' listeners may start more work). */
  #opsSinceIdle = 0;
  #idleDelivered = false;
  /** The 'idle' op delivered as the last one (the guest emits 'exit'), once the loop chose it. */
  #exitOp = 0;
  /** 'exit' was emitted: nothing pending or queued keeps the run alive now, as in Node. */
  #exited = false;
  /** The transpiled main module (a plain script as written), for assert's source expressions. */
  #js: string | undefined;
  #jsLines: string[] | undefined;
  /** esbuild's map of #js when one was made (see run()), to read source expressions as submitted. */
  #mapJson: string | null = null;
  #sourceMap: SourceMap | undefined;
  #sourceLines: string[] | undefined;

  readonly #resources = new RunResources();
  /** This run's uncancellable threadpool work: held past the resources' release, which it outlives. */
  readonly #hostWork: HostWork = this.#resources.get(HOST_WORK);
  readonly #transpiler: Transpiler;
  /** Aborted when the run ends: stops a transform of the script still in flight. */
  readonly #ended = new AbortController();

  readonly #policy: RunPolicy;

  /**
   * `policy`: the run's view of the worker's policy engine (default: no policies configured).
   * `transpiler` is the worker's (esbuild's service is one per process); runs made without one
   * (engine tests, benchmarks) share nothing with a worker's.
   */
  constructor(spec: RunSpec, ops: OpTable, builtins: BuiltinModules, hooks: RunHooks, supervisor: RunSupervisor = NO_SUPERVISOR, policy?: RunPolicy, transpiler: Transpiler = new Transpiler()) {
    this.#spec = spec;
    this.#policy = policy ?? new PolicyEngine({}).forRun();
    this.#transpiler = transpiler;
    this.#ctx = this.#makeContext(supervisor);
    this.#ops = ops;
    this.#builtins = builtins;
    this.#hooks = hooks;
  }

  /** The host-call primitive bound to this run (installed into the realm via a trampoline). */
  readonly hostCall: HostCall = (op, argsJson, bytes) => {
    const def = this.#ops[op];
    if (def === undefined) return `e${JSON.stringify({ name: 'Error', message: `runjs: unknown op '${op}'` })}`;
    if (this.#outcome !== undefined) return `e${JSON.stringify({ name: 'Error', message: 'runjs: the run has ended' })}`;
    let args: unknown;
    try {
      args = JSON.parse(argsJson);
    } catch {
      return `e${JSON.stringify({ name: 'TypeError', message: `runjs: op '${op}' received malformed arguments` })}`;
    }
    if (def.kind === 'sync') {
      try {
        return encodeValue(def.run(args, bytes, this.#ctx));
      } catch (e) {
        return `e${errorJson(e)}`;
      }
    }
    const id = this.#nextOpId++;
    const controller = new AbortController();
    this.#pending.set(id, controller);
    this.#startingOp = id;
    if (op !== 'run.idle' && op !== 'run.rejection') this.#opsSinceIdle++;
    let started: Promise<unknown>;
    try {
      started = def.run(args, bytes, this.#ctx, controller.signal);
    } catch (e) {
      started = Promise.reject(e);
    }
    this.#timers.bind(controller.signal, id);
    started.then(
      (value) => this.#enqueue({ id, ok: true, value }),
      (error: unknown) => this.#enqueue({ id, ok: false, value: error }),
    );
    return `a${id}`;
  };

  readonly #ctx: OpContext;

  #makeContext(supervisor: RunSupervisor): OpContext {
    return {
      runId: this.#spec.runId,
      limits: { heapBytes: (this.#spec.heapMemoryMaxMb ?? DEFAULT_HEAP_MB) * 1024 * 1024, timeoutMs: this.#spec.timeoutMs },
      supervisor,
      resources: this.#resources,
      policy: this.#policy,
      mcpCatalog: this.#spec.mcpCatalog,
      mount: this.#spec.mount,
      timers: this.#timers,
      writeOutput: (text) => this.#hooks.output(text),
      outputLineCap: () => this.#hooks.outputLineCap?.() ?? Number.MAX_SAFE_INTEGER,
      overflowOutput: (minBytes) => this.#hooks.overflowOutput?.(minBytes),
      mainSourceLine: (line, column) => {
        const js = this.#js;
        const shifts = this.#shifts;
        if (js === undefined || shifts === undefined) return undefined;
        const col = shifts.toTranspiled(line, column - 1);
        // A transformed script is read as submitted, as Node reads its file: esbuild reformats
        // lines (`undefined` → `void 0`, quotes, folded constants, renamed bindings).
        this.#jsLines ??= js.split('\n');
        if (this.#mapJson !== null) {
          this.#sourceMap ??= parseSourceMap(this.#mapJson);
          const at = this.#sourceMap === undefined ? undefined : originalPosition(this.#sourceMap, line, col, this.#jsLines[line - 1]);
          this.#sourceLines ??= this.#spec.code.split('\n');
          const text = at === undefined ? undefined : this.#sourceLines[at.line - 1];
          if (at !== undefined && text !== undefined) return { text, column: at.column };
        }
        const text = this.#jsLines[line - 1];
        return text === undefined ? undefined : { text, column: col };
      },
      settle: (ok, value) => {
        if (!ok) {
          // V8 reports an exhausted array-buffer allocator (our heap cap) as a catchable RangeError;
          // left uncaught it is the memory limit, with the spec's out-of-memory text.
          if (value.startsWith(ARRAY_BUFFER_OOM)) { this.#end(this.#stopOutcome('out-of-memory')); return; }
          this.#end({ status: 'failed', error: value });
          return;
        }
        if (this.#settled === undefined) this.#settled = { ok, value };
        this.#check();
      },
      cancelOp: (id) => {
        const c = this.#pending.get(id);
        if (c === undefined) return;
        this.#pending.delete(id);
        this.#unref.delete(id);
        c.abort();
        // Checked after the current guest turn returns (see #drain / runMain), not from inside it.
      },
      refOp: (id, ref) => {
        if (!this.#pending.has(id)) return;
        if (ref) this.#unref.delete(id);
        else this.#unref.add(id);
      },
      runEvent: (event) => {
        // Settled by the loop itself (#check, #forwardRejection), never by this promise.
        const id = this.#startingOp;
        this.#unref.add(id);
        this.#eventOps.set(event, id);
        return new Promise(() => {});
      },
    };
  }

  /** Runs the script in `realm` (already booted with the prelude) to its outcome. */
  async run(realm: GuestRealm): Promise<Outcome> {
    this.#realm = realm;
    const done = new Promise<Outcome>((resolve) => { this.#finish = resolve; });
    if (this.#outcome !== undefined) return this.#outcome; // stopped before it started
    const deadline = setTimeout(() => this.stop('timeout'), this.#spec.timeoutMs);
    this.#deadlineAt = performance.now() + this.#spec.timeoutMs;
    realm.setInterruptPoll?.(this.#poll);
    try {
      let wrapped;
      let external = new Map<string, string>();
      try {
        // No source map here (it costs ~0.2 ms a run, and only failed runs need one, see #end),
        // except for a script that may use assert: a falsy assert.ok() quotes its call as written
        // (mainSourceLine), which a transformed script only has through the map.
        const withMap = this.#spec.code.includes('assert');
        const { code: js, map } = await this.#transpiler.transpileModule(this.#spec.code, 'main.ts', withMap, this.#ended.signal);
        this.#mapJson = withMap && map !== null && map !== '' ? map : null;
        wrapped = wrapMain(js, { persistTopLevel: this.#spec.persistTopLevel === true, externalImports: this.#spec.externalModules === true, prologueLine: realm.lineOffsets === true });
        this.#shifts = wrapped.shifts;
        this.#js = js;
        if (this.#spec.externalModules === true) {
          external = await loadExternalModules(wrapped.imports, wrapped.importNames, this.#ctx.supervisor, this.#policy, this.#ended.signal);
        }
        for (const specifier of wrapped.imports) if (!external.has(specifier)) resolveImport(specifier, this.#builtins);
      } catch (e) {
        if (e instanceof TranspileAbortedError && this.#outcome !== undefined) return await done;
        if (e instanceof TranspileError || e instanceof ModuleSpecifierError || e instanceof ImportError) {
          this.#end({ status: 'failed', error: e.message });
          return await done;
        }
        if (e instanceof OpError) {
          // An external import that could not be resolved, loaded or was denied by the `modules` policy.
          if (this.#outcome === undefined) this.#end({ status: 'failed', error: e.message });
          return await done;
        }
        throw e;
      }
      if (this.#outcome === undefined) {
        // Not awaited: an interrupted isolate may never return (engine-study Q7), and the
        // outcome must not wait for it. `busy` tells the worker whether the realm came back.
        this.#inFlight++;
        this.#mainRunning = true;
        this.#timers.turn(performance.now(), true);
        realm.runMain(wrapped.source, 'file:///main.js', (s) => external.get(s) ?? resolveImport(s, this.#builtins), wrapped.lineOffset).then(
          () => { this.#inFlight--; this.#mainRunning = false; this.#mainEvaluated = true; void this.#drain(); },
          (e: unknown) => {
            this.#inFlight--;
            this.#mainRunning = false;
            if (!this.#forwardRejection(e)) { this.#fromEngineError(e); return; }
            this.#mainEvaluated = true;
            void this.#drain();
          },
        );
      }
      return await done;
    } finally {
      clearTimeout(deadline);
      for (const c of this.#pending.values()) c.abort();
      this.#pending.clear();
      // Decisions still in flight when the run ends are not recorded: the log is what the run did.
      this.#policy.close();
      this.#resources.release((line) => process.stderr.write(`${line}\n`));
    }
  }

  /** The deadline and side-channel cancels, for engines that block this thread (see InterruptPoll). */
  readonly #poll: InterruptPoll = () => {
    if (this.#stopReason === 'cancel' || this.#stopReason === 'timeout') return this.#stopReason;
    if (performance.now() >= this.#deadlineAt) return 'timeout';
    return this.#hooks.pollStop?.();
  };

  /** Threadpool work the run started that is still computing (see host-work.ts). */
  hostWorkRunning(): number {
    return this.#hostWork.running;
  }

  /** The run's policy decisions (complete once run() has returned). */
  decisions(): DecisionLog {
    return this.#policy.log();
  }

  /** True while guest code may still be running in the realm (an interrupt did not take yet). */
  get busy(): boolean {
    return this.#inFlight > 0;
  }

  /** Ends the run from outside: cancellation, timeout or the memory watchdog. */
  stop(reason: StopReason): void {
    if (this.#outcome !== undefined) return;
    this.#stopReason = reason;
    this.#realm?.interrupt();
    this.#end(this.#stopOutcome(reason));
  }

  #stopOutcome(reason: StopReason): Outcome {
    switch (reason) {
      case 'cancel': return { status: 'cancelled', error: EXECUTION_ERRORS.CANCELLED };
      case 'timeout': return { status: 'timed_out', error: EXECUTION_ERRORS.TIMED_OUT };
      case 'out-of-memory': return { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY };
    }
  }

  #fromEngineError(e: unknown): void {
    if (this.#outcome !== undefined) return;
    if (e instanceof EngineError) {
      if (e.kind === 'out-of-memory' || (e.kind === 'internal' && e.message.startsWith(ARRAY_BUFFER_OOM))) {
        this.#end(this.#stopOutcome('out-of-memory'));
        return;
      }
      const reason = this.#stopReason ?? e.reason;
      if (e.kind === 'interrupted' && reason) { this.#stopReason = reason; this.#end(this.#stopOutcome(reason)); return; }
      this.#end({ status: 'failed', error: e.message });
      return;
    }
    this.#end({ status: 'failed', error: internalError(e) });
  }

  /**
   * An unhandled rejection goes to the guest's process listeners when it waits for one (V8 only:
   * the task had ended, so the run can go on); it is delivered before anything else queued, as
   * Node processes rejections right after the microtasks. False: the run fails with it as before.
   */
  #forwardRejection(e: unknown): boolean {
    if (!(e instanceof UnhandledRejectionError) || this.#outcome !== undefined) return false;
    const id = this.#eventOps.get('rejection');
    if (id === undefined || !this.#pending.has(id)) return false;
    this.#eventOps.delete('rejection');
    this.#queue.unshift({ id, ok: true, value: { text: e.message, reason: JSON.parse(e.reasonJson) as unknown } });
    return true;
  }

  #enqueue(c: Completion): void {
    if (this.#outcome !== undefined || !this.#pending.has(c.id)) return;
    this.#queue.push(c);
    void this.#drain();
  }

  /**
   * Delivers queued completions one guest turn at a time, in arrival order — except that a timer
   * gives way to an earlier-due timer that has expired too (timer-queue.ts). Nothing is delivered
   * while the main body runs: the engine would queue the delivery behind it anyway, and the turn's
   * start, which orders the immediates it sets, is only known once it begins.
   */
  async #drain(): Promise<void> {
    if (this.#draining || this.#mainRunning) return;
    this.#draining = true;
    try {
      while (this.#queue.length > 0 && this.#outcome === undefined && !this.#exited) {
        if (!this.#referencedWork()) {
          // Only unreferenced work is left: deliver what is not held back (see #heldBack) first.
          const next = this.#queue.findIndex((q) => !this.#heldBack(q));
          if (next < 0) break;
          if (next > 0) this.#queue.unshift(...this.#queue.splice(next, 1));
        }
        let c = this.#queue.shift()!;
        let early: AbortController | undefined;
        const earlier = this.#pending.has(c.id) ? this.#timers.earlierThan(c.id) : undefined;
        if (earlier !== undefined && (early = this.#pending.get(earlier)) !== undefined) {
          this.#queue.unshift(c);
          c = { id: earlier, ok: true, value: undefined };
        }
        if (!this.#pending.delete(c.id)) continue; // cancelled meanwhile
        this.#unref.delete(c.id);
        this.#timers.done(c.id);
        early?.abort(); // its host timeout has not fired: it never will
        const realm = this.#realm!;
        this.#timers.turn(performance.now());
        this.#inFlight++;
        try {
          if (c.ok) {
            const v = c.value;
            if (v instanceof Uint8Array) await realm.complete(c.id, true, null, v);
            else if (v instanceof WithBytes) await realm.complete(c.id, true, JSON.stringify(v.value), v.bytes);
            else await realm.complete(c.id, true, v === undefined ? null : JSON.stringify(v), undefined);
          } else {
            await realm.complete(c.id, false, errorJson(c.value), undefined);
          }
        } catch (e) {
          if (this.#forwardRejection(e)) continue;
          this.#fromEngineError(e);
          return;
        } finally {
          this.#inFlight--;
        }
        if (c.id === this.#exitOp) this.#exited = true;
      }
    } finally {
      this.#draining = false;
    }
    this.#check();
  }

  /**
   * An unreferenced timer or immediate (node:timers' `unref()`) whose completion came: it runs only
   * while something else keeps the run alive, as in Node, where an unref'd handle does not keep the
   * loop running — so it is not delivered while nothing referenced is pending or queued.
   */
  #heldBack(c: Completion): boolean {
    return this.#unref.has(c.id) && this.#timers.has(c.id);
  }

  /**
   * Whether a referenced op is pending, its completion queued or not: an op stays in #pending
   * until its completion is delivered, and #unref only ever holds pending ops (both are cleared
   * together), so counting them answers it.
   */
  #referencedWork(): boolean {
    return this.#pending.size > this.#unref.size;
  }

  /** Ends the run when it is complete, or fails it when it can never complete. */
  #check(): void {
    if (this.#outcome !== undefined || !this.#mainEvaluated || this.#draining) return;
    if (!this.#exited && this.#referencedWork()) return; // unreferenced ops do not keep the run alive
    if (!this.#exited && this.#queue.some((c) => this.#pending.has(c.id) && !this.#heldBack(c))) return;
    const idle = this.#eventOps.get('idle');
    if (this.#settled !== undefined && this.#exitOp === 0 && idle !== undefined && this.#pending.has(idle)) {
      // The guest listens for 'beforeExit'/'exit': tell it, once more after each time
      // 'beforeExit' listeners started new work, and the last time so that it emits 'exit'.
      this.#eventOps.delete('idle');
      const exit = this.#idleDelivered && this.#opsSinceIdle === 0;
      this.#idleDelivered = true;
      this.#opsSinceIdle = 0;
      if (exit) this.#exitOp = idle;
      this.#enqueue({ id: idle, ok: true, value: { exit } });
      return;
    }
    if (this.#settled !== undefined) this.#end({ status: 'completed', result: this.#settled.value });
    else this.#end({ status: 'failed', error: EXECUTION_ERRORS.DEADLOCK });
  }

  #end(uncapped: Outcome): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = uncapped; // the run is over from here on; the text may still be remapped
    this.#ended.abort();
    const shifts = this.#shifts;
    if (shifts === undefined || uncapped.status !== 'failed' || !uncapped.error.includes('file:///main.js:')) {
      this.#deliver(uncapped);
      return;
    }
    // Positions are mapped through esbuild's source map, made now by transpiling again (the
    // output is the same; esbuild is deterministic) rather than on every run. A script that ran as
    // written (plain-module.ts) comes back with a null map: the same check, the same answer.
    this.#transpiler.transpileModule(this.#spec.code, 'main.ts', true).then(
      ({ map }) => this.#deliver({ status: 'failed', error: remapPositions(uncapped.error, shifts, map) }),
      () => this.#deliver(uncapped),
    );
  }

  #deliver(outcome: Outcome): void {
    const capped = capOutcome(outcome);
    this.#outcome = capped;
    this.#finish?.(capped);
  }
}
