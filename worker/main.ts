// Worker child-process entry. Hosts one engine, runs one execution at a time for the
// supervisor's pool, and streams console output back over IPC. It never trusts its messages'
// shapes: everything from the channel is narrowed by shared/protocol.ts.
import { isSupervisorMessage, type RunRequest, type WorkerMessage } from '../shared/protocol.ts';
import { EngineError, type Engine, type GuestRealm, type HostCall } from './engine.ts';
import { V8Engine } from './engines/v8/v8-engine.ts';
import { QuickJSEngine } from './engines/quickjs/quickjs-engine.ts';
import { setBaseImageCacheDir } from './engines/quickjs/base-image-cache.ts';
import { CancelChannel } from './runtime/cancel-channel.ts';
import { HeapImageError, type HeapImage } from '../shared/heap-image.ts';
import { ByteLru, WORKER_IMAGE_CACHE_BYTES, WORKER_IMAGE_CACHE_ENTRIES } from '../shared/image-lru.ts';
import { EXECUTION_ERRORS } from '../shared/errors.ts';
import { ALL_OPS } from './ops/all-ops.ts';
import { BUILTIN_MODULES } from './guest/builtin-modules.ts';
import { RunLoop } from './runtime/execute-run.ts';
import { OutputBuffer } from './runtime/output-buffer.ts';
import { deliverSupervisorResponse, setSupervisorSender } from './runtime/supervisor-client.ts';

const DEFAULT_HEAP_MB = 8;
/** How often the memory watchdog samples the process while a run is active. */
const WATCHDOG_INTERVAL_MS = 10;
/**
 * isolated-vm's memoryLimit does not hold against every allocation pattern (engine-study Q7:
 * an Array.fill flood runs past it). The watchdog reads the process RSS — the isolate's own
 * statistics would block on the isolate lock while guest code runs — and stops a run that grew
 * the process by more than this multiple of its limit (at least WATCHDOG_MIN_BYTES).
 */
const WATCHDOG_FACTOR = 4;
const WATCHDOG_MIN_BYTES = 96 * 1024 * 1024;
/** Console output written while QuickJS blocks the thread is sent at least this often. */
const OUTPUT_WHILE_BLOCKED_MS = 10;
/** How long an interrupted realm may take to return before the worker asks to be replaced. */
const STOP_GRACE_MS = 100;

function send(msg: WorkerMessage): void {
  process.send?.(msg);
}

setSupervisorSender(send);

/** A `--name=value` argument from supervisor/pool/worker-process.ts (a worker reads no environment). */
const argValue = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
setBaseImageCacheDir(argValue('quickjs-cache-dir'));

const quickjs = new QuickJSEngine();
const engines: Record<string, Engine> = { v8: new V8Engine(), quickjs };
/** Cancels that arrive while QuickJS blocks this thread (supervisor/pool/worker-process.ts). */
const cancelChannel = CancelChannel.open(argValue('cancel-fd'));

/** The current run's host call; realms are created ahead of time and bound through this. */
let currentHostCall: HostCall | undefined;
const trampoline: HostCall = (op, argsJson, bytes) => {
  if (currentHostCall === undefined) return `e${JSON.stringify({ name: 'Error', message: 'runjs: no active run' })}`;
  return currentHostCall(op, argsJson, bytes);
};

/** A realm booted ahead of the next run with the default limit (engine-study: ~2 ms saved). */
let warm: Promise<GuestRealm> | undefined;
function prepareWarm(): void {
  if (warm !== undefined) return; // still unused (the last run was QuickJS or had another limit)
  const engine = engines['v8']!;
  warm = engine.createRealm({ memoryLimitMb: DEFAULT_HEAP_MB, hostCall: trampoline });
  warm.catch(() => { warm = undefined; });
}

/**
 * Recent heap images by the supervisor's names for them (RunRequest.imageToken): a run resuming
 * one restores it from here, without the image crossing IPC. Restores copy out of these images
 * and snapshots are fresh buffers, so cached images are never modified.
 */
const imageCache = new ByteLru<HeapImage>(WORKER_IMAGE_CACHE_BYTES, WORKER_IMAGE_CACHE_ENTRIES);

async function takeRealm(req: RunRequest, image: HeapImage | undefined): Promise<GuestRealm> {
  const limit = Math.max(DEFAULT_HEAP_MB, req.heapMemoryMaxMb);
  if (image && req.engine !== 'quickjs') throw new HeapImageError(`Heap images need the QuickJS engine; this execution runs on ${req.engine}`);
  if (warm !== undefined && limit === DEFAULT_HEAP_MB && req.engine === 'v8') {
    const w = warm;
    warm = undefined;
    try {
      return await w;
    } catch { /* fall through to a fresh realm */ }
  }
  const engine = engines[req.engine];
  if (!engine) throw new Error(`engine '${req.engine}' is not available in this worker`);
  return engine.createRealm({ memoryLimitMb: limit, hostCall: trampoline, ...(image ? { image } : {}) });
}

let active: { runId: string; loop: RunLoop } | undefined;

/** Polls `done` until it holds or `ms` pass. */
async function settlesWithin(done: () => boolean, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (!done()) {
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}

async function handleRun(req: RunRequest): Promise<void> {
  const output = new OutputBuffer((data) => send({ type: 'output', runId: req.runId, data }), req.maxOutputBytes);
  const loop = new RunLoop({ runId: req.runId, code: req.code, timeoutMs: req.timeoutMs, persistTopLevel: req.captureImage === true }, ALL_OPS, BUILTIN_MODULES, {
    output: (text) => output.write(text),
    // Polled from QuickJS's interrupt handler while guest code blocks this thread: stream the
    // console output written meanwhile, and pick up cancels from the side channel.
    pollStop: () => {
      output.flushIfOlderThan(OUTPUT_WHILE_BLOCKED_MS);
      return cancelChannel?.poll(req.runId);
    },
  });
  active = { runId: req.runId, loop };
  let realm: GuestRealm | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  try {
    let input = req.image;
    if (req.imageToken !== undefined) {
      if (input) imageCache.set(req.imageToken, input, input.bytes.byteLength);
      else input = imageCache.get(req.imageToken);
      if (!input) {
        send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: 'runjs internal error: the worker does not hold the heap image' }, imageMiss: true });
        return;
      }
    }
    try {
      realm = await takeRealm(req, input);
    } catch (e) {
      // Images are user state: a foreign or oversized one is the run's failure, not ours.
      if (e instanceof HeapImageError) { send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: e.message } }); return; }
      if (e instanceof EngineError && e.kind === 'out-of-memory') { send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY } }); return; }
      throw e;
    }
    currentHostCall = loop.hostCall;
    if (req.engine === 'v8') {
      // QuickJS needs no watchdog: its memory cap is the wasm Memory's maximum.
      const limitBytes = Math.max(DEFAULT_HEAP_MB, req.heapMemoryMaxMb) * 1024 * 1024;
      const ceiling = process.memoryUsage.rss() + Math.max(limitBytes * WATCHDOG_FACTOR, WATCHDOG_MIN_BYTES);
      watchdog = setInterval(() => {
        if (process.memoryUsage.rss() > ceiling) loop.stop('out-of-memory');
      }, WATCHDOG_INTERVAL_MS);
    }
    const outcome = await loop.run(realm);
    output.flush();
    const recycle = loop.busy && !(await settlesWithin(() => !loop.busy, STOP_GRACE_MS));
    let image: HeapImage | undefined;
    if (outcome.status === 'completed' && req.captureImage && realm.snapshot) image = realm.snapshot();
    if (image && req.captureToken !== undefined) imageCache.set(req.captureToken, image, image.bytes.byteLength);
    send({ type: 'result', runId: req.runId, outcome, ...(recycle ? { recycle } : {}), ...(image ? { image } : {}) });
    if (recycle) return; // the supervisor kills this process; a stuck isolate must not host another run
  } catch (e) {
    output.flush();
    send({ type: 'result', runId: req.runId, outcome: { status: 'failed', error: `runjs internal error: ${e instanceof Error ? e.message : String(e)}` } });
  } finally {
    if (watchdog) clearInterval(watchdog);
    currentHostCall = undefined;
    active = undefined;
    realm?.dispose();
    prepareWarm();
  }
}

process.on('message', (raw: unknown) => {
  if (!isSupervisorMessage(raw)) return;
  switch (raw.type) {
    case 'run':
      if (active) {
        send({ type: 'result', runId: raw.runId, outcome: { status: 'failed', error: 'runjs internal error: worker is busy' } });
        return;
      }
      void handleRun(raw);
      break;
    case 'cancel':
      if (active?.runId === raw.runId) active.loop.stop(raw.reason);
      break;
    case 'op-response':
      deliverSupervisorResponse(raw);
      break;
  }
});

// The supervisor owns this process: when the IPC channel closes, there is nobody to serve.
process.on('disconnect', () => process.exit(0));

/**
 * The engines this worker warms before it says ready (`--warm=v8,quickjs`, from the pool): a V8
 * realm, and QuickJS compiled with its base image built. An engine not warmed still works; it
 * boots on first use. Skipping QuickJS when no heap store is configured saves its memory.
 */
const warmArg = process.argv.find((a) => a.startsWith('--warm='));
const warmEngines = new Set((warmArg ? warmArg.slice('--warm='.length) : 'v8,quickjs').split(','));
if (warmEngines.has('v8')) prepareWarm();
void Promise.allSettled([warm, warmEngines.has('quickjs') ? quickjs.warmUp() : undefined]).then(() => send({ type: 'ready' }));
