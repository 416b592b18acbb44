// One child process of a script, on the host: the policy decision (the `decide` dependency), then
// Node's spawn in a process group of its own, whose events wait in an EventQueue
// (worker/ops/event-queue.ts) until the guest takes them one at a time (`next`). Events:
// `spawn` (its pid), output chunks (bytes whose first byte is the fd, 1 or 2), `exit` (code,
// signal), then `close` once its stdout and stderr have ended — or `error` then `close` when it
// could not be started (a denial, ENOENT) or the host stopped it (the run's output cap).
import { spawn, type ChildProcess } from 'node:child_process';
import { OpError } from '../op-types.ts';
import { guestError } from '../guest-errors.ts';
import { EventQueue } from '../event-queue.ts';
import type { SpawnRequest } from './subprocess-request.ts';

export type ChildEvent =
  | Uint8Array
  | { readonly type: 'spawn'; readonly pid: number }
  | { readonly type: 'error'; readonly message: string; readonly code?: string; readonly errno?: number; readonly syscall?: string }
  | { readonly type: 'exit'; readonly code: number | null; readonly signal: string | null }
  | { readonly type: 'close'; readonly code: number | null; readonly signal: string | null };

export interface ChildDeps {
  /** The policy decision: the request to act on, or a rejection the script sees. */
  decide(req: SpawnRequest, signal: AbortSignal): Promise<SpawnRequest>;
  /** The host directory the child runs in (the run's own, or the allowed cwd). */
  cwdFor(req: SpawnRequest): string;
  /** Counts output bytes against the run's cap; an OpError once it is spent (the child is then killed). */
  countOutput(n: number): OpError | undefined;
}

/** Bytes written to stdin and not yet taken by the child beyond which a write is refused. */
export const MAX_PENDING_STDIN_BYTES = 16 * 1024 * 1024;

function errorEvent(e: unknown): ChildEvent {
  if (e instanceof OpError) return { type: 'error', message: e.message, ...(e.code !== undefined ? { code: e.code } : {}) };
  const err = e as NodeJS.ErrnoException;
  return {
    type: 'error', message: err instanceof Error ? err.message : String(e),
    ...(typeof err.code === 'string' ? { code: err.code } : {}),
    ...(typeof err.errno === 'number' ? { errno: err.errno } : {}),
    ...(typeof err.syscall === 'string' ? { syscall: err.syscall } : {}),
  };
}

export class Child {
  readonly #deps: ChildDeps;
  /** Events for the guest's pending `subprocess.next`; output past the high-water mark pauses the pipes. */
  readonly #events = new EventQueue<ChildEvent>({
    pause: (paused) => {
      for (const stream of [this.#proc?.stdout, this.#proc?.stderr]) {
        if (paused) stream?.pause();
        else stream?.resume();
      }
    },
  });
  #proc: ChildProcess | undefined;
  #exited = false;
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(req: SpawnRequest, deps: ChildDeps, refused?: OpError) {
    this.#deps = deps;
    if (refused !== undefined) {
      this.#fail(refused);
      return;
    }
    void this.#start(req);
  }

  /** Whether the child is running or may still start: it counts against the per-run cap. */
  get live(): boolean {
    return !this.#events.ended;
  }

  /** Whether the guest has taken the close event: the child can be forgotten. */
  get drained(): boolean {
    return this.#events.drained;
  }

  async #start(req: SpawnRequest): Promise<void> {
    let decided: SpawnRequest;
    let cwd: string;
    try {
      decided = await this.#deps.decide(req, this.#controller.signal);
      cwd = this.#deps.cwdFor(decided);
    } catch (e) {
      this.#fail(e);
      return;
    }
    if (this.#events.ended) return;
    let proc: ChildProcess;
    try {
      proc = spawn(decided.command, [...decided.args], {
        cwd,
        // The script's environment only: nothing of the worker's (which holds nothing of the server's either).
        env: { ...(decided.env ?? {}) },
        // A process group of its own, so the run's end kills whatever the child started too.
        detached: true,
        stdio: [decided.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.#proc = proc;
    proc.once('spawn', () => {
      if (proc.pid !== undefined) this.#events.push({ type: 'spawn', pid: proc.pid });
      if (decided.timeoutMs > 0) this.#timer = setTimeout(() => this.kill(decided.killSignal), decided.timeoutMs);
    });
    proc.once('error', (e) => {
      // A failed spawn (ENOENT, EACCES): no exit follows; a kill that failed later is ignored.
      if (proc.pid === undefined) this.#fail(e);
    });
    proc.stdin?.on('error', () => { /* EPIPE: the child stopped reading */ });
    for (const [fd, stream] of [[1, proc.stdout], [2, proc.stderr]] as const) {
      stream?.on('data', (chunk: Buffer) => {
        if (this.#events.ended) return;
        const over = this.#deps.countOutput(chunk.byteLength);
        if (over !== undefined) {
          this.#events.push(errorEvent(over));
          this.kill('SIGKILL');
          return;
        }
        const event = new Uint8Array(chunk.byteLength + 1);
        event[0] = fd;
        event.set(chunk, 1);
        this.#events.push(event);
      });
    }
    proc.once('exit', (code, signal) => {
      this.#exited = true;
      clearTimeout(this.#timer);
      this.#events.push({ type: 'exit', code, signal });
    });
    proc.once('close', (code, signal) => {
      if (proc.pid === undefined) return;
      this.#end({ type: 'close', code, signal });
    });
  }

  /** The next event; one caller at a time (the guest's one pending `subprocess.next`). */
  next(signal: AbortSignal): Promise<ChildEvent> {
    return this.#events.next(signal, 'subprocess.next', 'subprocess.next: the child process has closed');
  }

  /** Writes to the child's stdin (ignored once it has exited, as Node's EPIPE is swallowed here). */
  write(data: Uint8Array): void {
    const stdin = this.#proc?.stdin;
    if (stdin == null || stdin.destroyed || this.#exited) return;
    if (stdin.writableLength + data.byteLength > MAX_PENDING_STDIN_BYTES) {
      throw guestError('SUBPROCESS_STDIN_LIMIT', MAX_PENDING_STDIN_BYTES);
    }
    stdin.write(data);
  }

  /** Ends the child's stdin. */
  endInput(): void {
    const stdin = this.#proc?.stdin;
    if (stdin != null && !stdin.destroyed) stdin.end();
  }

  /** Sends `signal` to the child's process group; false when it is not running. */
  kill(signal: NodeJS.Signals | number): boolean {
    const pid = this.#proc?.pid;
    if (pid === undefined || this.#exited) return false;
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      try { return this.#proc!.kill(signal); } catch { return false; }
    }
  }

  /** The run has ended: the child's process group is killed and nothing more is queued. */
  terminate(): void {
    this.#controller.abort();
    clearTimeout(this.#timer);
    const pid = this.#proc?.pid;
    // The group may outlive the child itself (a grandchild): kill it even after the child's exit.
    if (pid !== undefined) {
      try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    this.#proc?.stdout?.destroy();
    this.#proc?.stderr?.destroy();
    this.#proc?.stdin?.destroy();
    this.#events.clear();
  }

  /** It could not start (or was stopped before it did): error then close. */
  #fail(e: unknown): void {
    if (this.#events.ended) return;
    this.#events.push(errorEvent(e));
    const errno = (e as { errno?: unknown }).errno;
    this.#end({ type: 'close', code: typeof errno === 'number' ? errno : null, signal: null });
    this.#controller.abort();
  }

  #end(close: ChildEvent): void {
    clearTimeout(this.#timer);
    this.#events.push(close, true);
  }
}
