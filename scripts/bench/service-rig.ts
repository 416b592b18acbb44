// The real runjs server as a child process for the service benchmarks (service-bench.ts): start
// `node supervisor/main.ts --http-port <free port> --bind-host 127.0.0.1 ...` with a private
// --session-db-path, wait for its "listening" line, talk to it over keep-alive HTTP, read the
// resident memory of its process tree from /proc, and stop it (SIGTERM, SIGKILL after a grace).
// Not a `*-bench.ts` file: run.ts does not load it as a module of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'supervisor/main.ts');
/** A loaded 2-core machine can take a while to boot the supervisor and its workers. */
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;

/**
 * The servers running now. A bench process ended by a signal (a harness's timeout) stops them
 * before it exits: otherwise they would outlive it, orphaned, with their workers.
 */
const running = new Set<() => Promise<void>>();
let signalsHandled = false;

function stopAllOnSignal(): void {
  if (signalsHandled) return;
  signalsHandled = true;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void Promise.allSettled([...running].map((stop) => stop())).then(() => process.exit(signal === 'SIGTERM' ? 143 : 130));
    });
  }
}

/** A port nobody listens on right now (the server's config does not accept port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr !== null ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface BenchServer {
  readonly pid: number;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  /** The last few KB the server wrote to stderr (for error messages). */
  stderrTail(): string;
  /** SIGTERM (SIGKILL after a grace), kills any worker left behind, removes the temp database. */
  stop(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 with `--max-concurrent-executions <workers>` (the pool size) plus
 * `extraArgs`. The environment is only PATH, so no RUNJS_* variable of the caller leaks in. Its
 * database directory is `<tmp>/runjs-<module>-bench-*`, so a check for leftover servers of one
 * bench module is not confused by another module's servers running at the same time.
 */
export async function startServer(workers: number, extraArgs: readonly string[] = [], module = 'service'): Promise<BenchServer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startOn(await freePort(), workers, extraArgs, module);
    } catch (e) {
      // Another process took the port between freePort() and listen(): try another once.
      if (attempt === 0 && String(e).includes('EADDRINUSE')) continue;
      throw e;
    }
  }
}

async function startOn(port: number, workers: number, extraArgs: readonly string[], module: string): Promise<BenchServer> {
  const dbDir = mkdtempSync(join(tmpdir(), `runjs-${module}-bench-`));
  const args = [MAIN, '--http-port', String(port), '--bind-host', '127.0.0.1', '--max-concurrent-executions', String(workers),
    '--session-db-path', dbDir, ...extraArgs];
  const proc: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } });
  let stderr = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-8192); });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const cleanup = async (): Promise<void> => {
    running.delete(stop);
    const children = proc.pid === undefined ? [] : descendants(proc.pid);
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), STOP_GRACE_MS); });
      if (await Promise.race([exited, late]) === 'late') { proc.kill('SIGKILL'); await exited; }
      clearTimeout(timer);
    }
    // Workers the supervisor started and did not reap (it was killed): end them by pid.
    for (const pid of children) { try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ } }
    rmSync(dbDir, { recursive: true, force: true });
  };
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= cleanup());
  running.add(stop);
  stopAllOnSignal();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start within ${START_TIMEOUT_MS / 1000} s:\n${stderr}`)), START_TIMEOUT_MS);
      proc.stderr?.on('data', () => { if (stderr.includes('runjs: listening:')) { clearTimeout(timer); resolve(); } });
      void exited.then(() => { clearTimeout(timer); reject(new Error(`server exited with ${proc.exitCode ?? proc.signalCode} before listening:\n${stderr}`)); });
    });
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    pid: proc.pid!,
    port,
    base: `http://127.0.0.1:${port}`,
    stderrTail: () => stderr,
    stop,
  };
}

// --- HTTP ---

export interface JsonResponse {
  readonly status: number;
  readonly json: unknown;
}

/** A keep-alive HTTP/1.1 client for one server: at most `connections` sockets, reused. */
export class HttpClient {
  readonly #agent: Agent;
  readonly #port: number;

  constructor(port: number, connections: number) {
    this.#port = port;
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  /** One request with an optional JSON body; resolves with the status and the parsed JSON body. */
  request(method: 'GET' | 'POST', path: string, body?: unknown, retried = false): Promise<JsonResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request({
        host: '127.0.0.1', port: this.#port, method, path, agent: this.#agent,
        headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => { text += c; });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: text === '' ? null : JSON.parse(text) });
          } catch (e) {
            reject(new Error(`${method} ${path}: ${res.statusCode} with a body that is not JSON: ${text.slice(0, 200)} (${String(e)})`));
          }
        });
        res.on('error', reject);
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        // The server closed an idle keep-alive socket just as this request went out on it (its
        // keep-alive timeout passed while the socket sat in the pool, e.g. between fan-out
        // rounds on a loaded machine): the request never arrived, so sending it again on a new
        // socket is safe (the pattern Node's http docs give for `reusedSocket`).
        if (!retried && req.reusedSocket && e.code === 'ECONNRESET') this.request(method, path, body, true).then(resolve, reject);
        else reject(e);
      });
      req.end(payload);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

// --- /proc ---

/** Parent pid of `pid` from /proc/<pid>/stat (the command name in parentheses may hold spaces). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every descendant of `root` (children, their children, ...), found through /proc/<pid>/stat ppid. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const walk = (p: number): void => { for (const c of children.get(p) ?? []) { out.push(c); walk(c); } };
  walk(root);
  return out;
}

export interface ProcessMemory {
  readonly pid: number;
  /** The command line's script (e.g. `supervisor/main.ts`), for the log. */
  readonly what: string;
  /** VmRSS, kB. */
  readonly rssKb: number;
  /** RssAnon (private heap, stacks, ...), kB. */
  readonly anonKb: number;
  /** RssFile (mapped files: mostly the node binary's pages, which processes share), kB. */
  readonly fileKb: number;
  /** Proportional set size (shared pages split among the processes mapping them), kB; NaN if unreadable. */
  readonly pssKb: number;
}

function statusField(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) : Number.NaN;
}

/** Memory of one process from /proc/<pid>/status and /proc/<pid>/smaps_rollup; undefined if it is gone. */
export function processMemory(pid: number): ProcessMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    let pssKb = Number.NaN;
    try { pssKb = statusField(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss'); } catch { /* older kernel */ }
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((s) => s !== '');
    const script = cmdline.find((a) => a.endsWith('.ts') || a.endsWith('.js')) ?? cmdline[0] ?? '?';
    return {
      pid,
      what: script.startsWith(ROOT) ? script.slice(ROOT.length) : script,
      rssKb: statusField(status, 'VmRSS'),
      anonKb: statusField(status, 'RssAnon'),
      fileKb: statusField(status, 'RssFile'),
      pssKb,
    };
  } catch {
    return undefined;
  }
}

/** The server process and all its descendants (the worker processes), each with its memory. */
export function treeMemory(root: number): ProcessMemory[] {
  return [root, ...descendants(root)].map(processMemory).filter((m): m is ProcessMemory => m !== undefined);
}

/** CPU time (user + system) `pid` has used so far, ms; NaN if it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of stat) in clock ticks; Linux's USER_HZ is 100.
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Direct children of `pid` (the supervisor's workers; their own helpers, such as esbuild, are grandchildren). */
export function childrenOf(pid: number): number[] {
  return descendants(pid).filter((c) => parentOf(c) === pid);
}
