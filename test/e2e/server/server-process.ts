// The real server as a child process (`node supervisor/main.ts ...`), for the e2e suites: start it
// on 127.0.0.1 with a free port and a private --session-db-path, wait for its "listening" line on
// stderr, and stop it with SIGTERM. Also one-shot runs (startup errors, --print-openapi).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MAIN = join(ROOT, 'supervisor/main.ts');
export const NODE = process.execPath;
const START_TIMEOUT_MS = 90_000;

/** A port nobody listens on right now (the config does not accept port 0). */
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

export interface ServerProcess {
  readonly proc: ChildProcess;
  readonly port: number;
  /** The --session-db-path (removed by stop()). */
  readonly dbDir: string;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  /** `http` (default) passes --http-port, `sse` --sse-port. */
  readonly transport?: 'http' | 'sse';
  readonly env?: NodeJS.ProcessEnv;
  /** Pass no port flag: the server must find its port elsewhere (env.PORT). */
  readonly noPortFlag?: boolean;
  /** --bind-host (default 127.0.0.1). */
  readonly bindHost?: string;
  /** --session-db-path to use (and keep on stop) instead of a fresh temp dir, e.g. to restart on one database. */
  readonly dbDir?: string;
}

/** Starts the server with `args` plus a port, 127.0.0.1, one worker and a temp database. */
export async function startServer(args: readonly string[] = [], opts: StartOptions = {}): Promise<ServerProcess> {
  for (let attempt = 0; ; attempt++) {
    const port = opts.noPortFlag === true ? Number(opts.env?.['PORT']) : await freePort();
    try {
      return await startOn(port, args, opts);
    } catch (e) {
      // Another process took the port between freePort() and listen(): try another once.
      if (attempt === 0 && String(e).includes('EADDRINUSE')) continue;
      throw e;
    }
  }
}

/**
 * Starts two servers at once. If one fails to start, the other is stopped before the error is
 * thrown: a server left running would keep the test file's process alive after the failure.
 */
export async function startServerPair(
  a: readonly [readonly string[], StartOptions?],
  b: readonly [readonly string[], StartOptions?],
): Promise<[ServerProcess, ServerProcess]> {
  const [ra, rb] = await Promise.allSettled([startServer(a[0], a[1] ?? {}), startServer(b[0], b[1] ?? {})]);
  if (ra.status === 'fulfilled' && rb.status === 'fulfilled') return [ra.value, rb.value];
  await Promise.all([ra, rb].map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
  throw (ra.status === 'rejected' ? ra : rb as PromiseRejectedResult).reason;
}

async function startOn(port: number, args: readonly string[], opts: StartOptions): Promise<ServerProcess> {
  const dbDir = opts.dbDir ?? mkdtempSync(join(tmpdir(), 'runjs-e2e-'));
  const portFlag = opts.transport === 'sse' ? '--sse-port' : '--http-port';
  const portArgs = opts.noPortFlag === true ? [] : [portFlag, String(port)];
  // One worker unless the test asks for more (a server's workers are its heaviest part).
  const poolArgs = args.some((a) => a.startsWith('--max-concurrent-executions')) ? [] : ['--max-concurrent-executions', '1'];
  const proc = spawn(NODE, [MAIN, ...portArgs, '--bind-host', opts.bindHost ?? '127.0.0.1', '--session-db-path', dbDir,
    ...poolArgs, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? { PATH: process.env['PATH'] ?? '' } });
  let stderr = '';
  proc.stderr?.setEncoding('utf8');
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    // A server that is too slow is killed, not left running: its open handle would keep the test
    // file's process alive after the failure is reported (and hang `npm test`).
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`server did not start within ${START_TIMEOUT_MS} ms:\n${stderr}`)); }, START_TIMEOUT_MS);
    proc.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('runjs: listening:')) { clearTimeout(timer); resolve(); }
    });
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`server exited with ${code} before listening:\n${stderr}`)); });
  });
  return {
    proc, port, dbDir,
    base: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      const code = await exited;
      if (opts.dbDir === undefined) rmSync(dbDir, { recursive: true, force: true });
      return code;
    },
  };
}

export interface OneShot {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the entry point to completion (for flags that exit, and for startup failures). */
export function runOnce(args: readonly string[], env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '' }, timeoutMs = 30_000): Promise<OneShot> {
  // A fresh database unless the test names one (or a config file that may): a one-shot that gets
  // as far as opening it must not meet what other processes left at the default path.
  const own = args.some((a) => a.startsWith('--session-db-path') || a.startsWith('--config')) || env['RUNJS_SESSION_DB_PATH'] !== undefined;
  const dbArgs = own ? [] : ['--session-db-path', mkdtempSync(join(tmpdir(), 'runjs-once-'))];
  return new Promise((resolve, reject) => {
    const proc = spawn(NODE, [MAIN, ...args, ...dbArgs], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    proc.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`did not exit within ${timeoutMs} ms: ${stderr}`)); }, timeoutMs);
    proc.once('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}
