// One worker child process: spawn, the typed message channel, stderr tail (to explain a death),
// kill. The worker is treated as possibly compromised: its channel is our own framed pipe
// (shared/frame-channel.ts) so an oversized message is refused from its header, every message is
// narrowed by the protocol's guards, and a worker that sends faster than MESSAGES_PER_SECOND is
// read more slowly (its pipe fills and it blocks), so it cannot keep the supervisor busy.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWorkerMessage, type SupervisorMessage, type WorkerMessage } from '../../shared/protocol.ts';
import { FrameDecoder, FrameViolation, writeFrame } from '../../shared/frame-channel.ts';
import type { WorkerSettings } from '../../shared/worker-settings.ts';
import { compileCacheDir } from '../compile-cache.ts';

/**
 * worker/main, in the same form as this module: `.ts` in a checkout, `.js` in the package's
 * compiled dist/ (scripts/build-package.ts).
 */
export const WORKER_ENTRY = fileURLToPath(new URL(`../../worker/main${extname(import.meta.url)}`, import.meta.url));
const STDERR_TAIL_BYTES = 8192;
/**
 * The cancel side channel (worker/runtime/cancel-channel.ts): QuickJS blocks the worker's thread
 * while guest code runs, so cancels also go down this pipe, read by a thread in the worker.
 */
const CANCEL_FD = 4;
/** The message channel's descriptor in the worker (worker/main.ts opens it). */
export const CHANNEL_FD = 3;
/**
 * The object pipe (worker/runtime/object-channel.ts): a run's mounted file contents, asked for by
 * content id while QuickJS or a sync node:fs call blocks the worker's thread. One request is
 * served at a time (the worker waits for each), so a worker cannot queue store reads.
 */
const OBJECT_FD = 5;
/** Longest request line: "<seq> <runId> <64 hex>". */
const MAX_OBJECT_REQUEST_BYTES = 512;
const OBJECT_REQUEST = /^(\d{1,10}) (\S{1,200}) ([0-9a-f]{64})$/;
/**
 * Messages a worker may send per second, sustained (bursts up to the same number). A worker
 * coalesces console output per event-loop turn and waits for each delegated op's answer, so an
 * honest one stays far below; beyond it the supervisor stops reading until the budget refills.
 */
export const MESSAGES_PER_SECOND = 5000;
/**
 * Where QuickJS workers keep their base image between restarts (a rebuildable cache; see
 * worker/engines/quickjs/base-image-cache.ts). Computed here because a worker's environment is
 * scrubbed: the supervisor's temp directory (TMPDIR honoured) is the one the operator chose.
 */
export const QUICKJS_CACHE_DIR = join(tmpdir(), `runjs-quickjs-${process.getuid?.() ?? 'user'}`);

export interface WorkerEvents {
  message(msg: WorkerMessage): void;
  /**
   * The worker broke the protocol (an oversized or undecodable frame, a message of no known
   * shape): it is killed, and `exit` follows.
   */
  violation(why: string): void;
  /** The largest message body the supervisor accepts from this worker now (bytes). */
  maxMessageBytes(): number;
  exit(detail: { code: number | null; signal: NodeJS.Signals | null; stderrTail: string }): void;
  /** A file of `runId`'s mounted snapshot by content id; rejects (with a message for the run) when that run may not read it. */
  readObject?(runId: string, id: string): Promise<Uint8Array>;
}

function nodeFlags(entry: string): string[] {
  // QuickJS recursion runs on the worker's main-thread native stack (8 MiB on Linux); V8 may use
  // all but ~0.6 MiB of it, so QuickJS's own stack check fires first (maxStackBytes in quickjs-engine.ts).
  const flags = ['--disable-warning=ExperimentalWarning', '--stack-size=7600'];
  // Node < 23.6 strips types only when asked (the compiled package's workers are JavaScript).
  if (entry.endsWith('.ts') && !(process.features as { typescript?: unknown }).typescript) flags.push('--experimental-strip-types');
  return flags;
}

/** Workers load their modules through Node's compile cache (supervisor/compile-cache.ts): a faster boot. */
function compileCacheEnv(): Record<string, string> {
  const dir = compileCacheDir();
  return dir === undefined ? {} : { NODE_COMPILE_CACHE: dir };
}

export class WorkerProcess {
  readonly #child: ChildProcess;
  readonly #channel: Socket;
  #stderrTail = '';
  #exited = false;
  /** Token bucket for MESSAGES_PER_SECOND. */
  #tokens = MESSAGES_PER_SECOND;
  #refilledAt = performance.now();
  #throttle: NodeJS.Timeout | undefined;

  /**
   * Spawns a worker and sends it `settings` as its first message (the typed protocol's `init`);
   * the worker reads no environment variables. The one argument is the cancel pipe's descriptor,
   * which the worker needs before any message can be read.
   */
  constructor(events: WorkerEvents, logStderr: (line: string) => void, settings: WorkerSettings, entry: string = WORKER_ENTRY) {
    const args = [`--cancel-fd=${CANCEL_FD}`, `--channel-fd=${CHANNEL_FD}`, `--object-fd=${OBJECT_FD}`];
    this.#child = spawn(process.execPath, [...nodeFlags(entry), entry, ...args], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
      env: { NODE_ENV: 'production', ...compileCacheEnv() },
    });
    this.#child.stdio[CANCEL_FD]?.on('error', () => { /* the worker died; 'exit' reports it */ });
    this.#child.stderr?.setEncoding('utf8');
    this.#child.stderr?.on('data', (chunk: string) => {
      this.#stderrTail = (this.#stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
      for (const line of chunk.split('\n')) if (line.trim() !== '') logStderr(line);
    });
    this.#channel = this.#child.stdio[CHANNEL_FD] as Socket;
    const decoder = new FrameDecoder((raw) => this.#receive(events, raw), () => events.maxMessageBytes());
    this.#channel.on('data', (chunk: Buffer) => {
      try {
        decoder.push(chunk);
      } catch (e) {
        if (!(e instanceof FrameViolation)) throw e;
        this.#violate(events, e.message);
      }
    });
    this.#channel.on('error', () => { /* the worker died; 'exit' reports it */ });
    this.#child.on('exit', (code, signal) => {
      this.#exited = true;
      clearTimeout(this.#throttle);
      // Let the last stderr bytes arrive before explaining the death.
      setImmediate(() => events.exit({ code, signal, stderrTail: this.#stderrTail }));
    });
    this.#child.on('error', () => { /* 'exit' follows and reports */ });
    this.#serveObjects(events, (this.#child.stdio as readonly unknown[])[OBJECT_FD] as Socket | null);
    this.send({ type: 'init', settings });
  }

  /** Answers the object pipe's requests in order, one at a time; a malformed request is a violation. */
  #serveObjects(events: WorkerEvents, pipe: Socket | null): void {
    if (pipe === null) return;
    pipe.on('error', () => { /* the worker died; 'exit' reports it */ });
    let pending = '';
    let busy = false;
    const answer = (seq: number, ok: boolean, payload: Uint8Array): void => {
      const head = Buffer.alloc(9);
      head.writeUInt32BE(seq >>> 0, 0);
      head[4] = ok ? 1 : 0;
      head.writeUInt32BE(payload.byteLength, 5);
      if (!pipe.destroyed) pipe.write(Buffer.concat([head, payload]));
    };
    const next = (): void => {
      if (busy || this.#exited) return;
      const nl = pending.indexOf('\n');
      if (nl < 0) {
        if (pending.length > MAX_OBJECT_REQUEST_BYTES) this.#violate(events, 'an oversized object request');
        return;
      }
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      const m = OBJECT_REQUEST.exec(line);
      if (m === null) { this.#violate(events, 'a malformed object request'); return; }
      const seq = Number(m[1]);
      busy = true;
      pipe.pause();
      const read = events.readObject?.(m[2]!, m[3]!) ?? Promise.reject(new Error('runjs: this server mounts no filesystem snapshots'));
      read.then((bytes) => answer(seq, true, bytes), (e: unknown) => answer(seq, false, Buffer.from(e instanceof Error ? e.message : String(e))))
        .finally(() => { busy = false; pipe.resume(); next(); });
    };
    pipe.setEncoding('latin1');
    pipe.on('data', (chunk: string) => { pending += chunk; next(); });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get exited(): boolean {
    return this.#exited;
  }

  send(msg: SupervisorMessage): void {
    if (this.#exited || this.#channel.destroyed) return;
    // The tail explains a death during the run being started: what earlier runs left there
    // (e.g. a memory warning) must not decide how this one is reported.
    if (msg.type === 'run') this.#stderrTail = '';
    if (msg.type === 'cancel') {
      const pipe = this.#child.stdio[CANCEL_FD];
      if (pipe && 'write' in pipe) pipe.write(`${msg.reason} ${msg.runId}\n`);
    }
    writeFrame(this.#channel, msg, (err) => { if (err) this.kill(); });
  }

  #receive(events: WorkerEvents, raw: unknown): void {
    if (this.#exited) return;
    if (!isWorkerMessage(raw)) {
      this.#violate(events, 'a message of no known shape');
      return;
    }
    events.message(raw);
    this.#spendToken();
  }

  /** Counts one message against the rate budget; an empty budget pauses reading until it refills. */
  #spendToken(): void {
    const now = performance.now();
    this.#tokens = Math.min(MESSAGES_PER_SECOND, this.#tokens + ((now - this.#refilledAt) / 1000) * MESSAGES_PER_SECOND);
    this.#refilledAt = now;
    this.#tokens -= 1;
    if (this.#tokens >= 0 || this.#throttle !== undefined) return;
    this.#channel.pause();
    const waitMs = Math.ceil((-this.#tokens / MESSAGES_PER_SECOND) * 1000) + 1;
    this.#throttle = setTimeout(() => {
      this.#throttle = undefined;
      if (!this.#exited) this.#channel.resume();
    }, waitMs);
  }

  #violate(events: WorkerEvents, why: string): void {
    if (this.#exited) return;
    this.#channel.pause();
    events.violation(why);
    this.kill();
  }

  kill(): void {
    if (!this.#exited) this.#child.kill('SIGKILL');
  }
}
