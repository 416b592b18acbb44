// One worker child process: spawn, typed IPC, stderr tail (to explain a death), kill.
import { fork, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWorkerMessage, type SupervisorMessage, type WorkerMessage } from '../../shared/protocol.ts';
import { compileCacheDir } from '../compile-cache.ts';

export const WORKER_ENTRY = fileURLToPath(new URL('../../worker/main.ts', import.meta.url));
const STDERR_TAIL_BYTES = 8192;
/**
 * The cancel side channel (worker/runtime/cancel-channel.ts): QuickJS blocks the worker's thread
 * while guest code runs, so cancels also go down this pipe, read by a thread in the worker.
 */
const CANCEL_FD = 4;
/**
 * Where QuickJS workers keep their base image between restarts (a rebuildable cache; see
 * worker/engines/quickjs/base-image-cache.ts). Computed here because a worker's environment is
 * scrubbed: the supervisor's temp directory (TMPDIR honoured) is the one the operator chose.
 */
const QUICKJS_CACHE_DIR = join(tmpdir(), `runjs-quickjs-${process.getuid?.() ?? 'user'}`);

export interface WorkerEvents {
  message(msg: WorkerMessage): void;
  exit(detail: { code: number | null; signal: NodeJS.Signals | null; stderrTail: string }): void;
}

function nodeFlags(): string[] {
  // QuickJS recursion runs on the worker's main-thread native stack (8 MiB on Linux); V8 may use
  // all but ~0.6 MiB of it, so QuickJS's own stack check fires first (maxStackBytes in quickjs-engine.ts).
  const flags = ['--disable-warning=ExperimentalWarning', '--stack-size=7600'];
  // Node < 23.6 strips types only when asked.
  if (!(process.features as { typescript?: unknown }).typescript) flags.push('--experimental-strip-types');
  return flags;
}

/** Workers load their modules through Node's compile cache (supervisor/compile-cache.ts): a faster boot. */
function compileCacheEnv(): Record<string, string> {
  const dir = compileCacheDir();
  return dir === undefined ? {} : { NODE_COMPILE_CACHE: dir };
}

export class WorkerProcess {
  readonly #child: ChildProcess;
  #stderrTail = '';
  #exited = false;

  constructor(events: WorkerEvents, logStderr: (line: string) => void, warmEngines: readonly string[] = ['v8', 'quickjs'], entry: string = WORKER_ENTRY) {
    // Settings travel as arguments; the worker reads no environment variables.
    const args = [`--warm=${warmEngines.join(',')}`, `--cancel-fd=${CANCEL_FD}`, `--quickjs-cache-dir=${QUICKJS_CACHE_DIR}`];
    this.#child = fork(entry, args, {
      execArgv: nodeFlags(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc', 'pipe'],
      env: { NODE_ENV: 'production', ...compileCacheEnv() },
    });
    this.#child.stdio[CANCEL_FD]?.on('error', () => { /* the worker died; 'exit' reports it */ });
    this.#child.stderr?.setEncoding('utf8');
    this.#child.stderr?.on('data', (chunk: string) => {
      this.#stderrTail = (this.#stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
      for (const line of chunk.split('\n')) if (line.trim() !== '') logStderr(line);
    });
    this.#child.on('message', (raw: unknown) => {
      if (isWorkerMessage(raw)) events.message(raw);
    });
    this.#child.on('exit', (code, signal) => {
      this.#exited = true;
      // Let the last stderr bytes arrive before explaining the death.
      setImmediate(() => events.exit({ code, signal, stderrTail: this.#stderrTail }));
    });
    this.#child.on('error', () => { /* 'exit' follows and reports */ });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get exited(): boolean {
    return this.#exited;
  }

  send(msg: SupervisorMessage): void {
    if (this.#exited || !this.#child.connected) return;
    // The tail explains a death during the run being started: what earlier runs left there
    // (e.g. a memory warning) must not decide how this one is reported.
    if (msg.type === 'run') this.#stderrTail = '';
    if (msg.type === 'cancel') {
      const pipe = this.#child.stdio[CANCEL_FD];
      if (pipe && 'write' in pipe) pipe.write(`${msg.reason} ${msg.runId}\n`);
    }
    this.#child.send(msg, (err) => { if (err) this.kill(); });
  }

  kill(): void {
    if (!this.#exited) this.#child.kill('SIGKILL');
  }
}
