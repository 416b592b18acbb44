// A JavaScript hook (`file://…js`): the module's default export, run in an isolate of its own
// (isolated-vm), never in the worker's realm and never in a run's guest realm. The isolate holds
// plain ECMAScript plus `console` (lines go to the worker's stderr, i.e. the server log) and the
// capabilities the hook lists: `fetch`, an outbound fetch for the hook itself, and `fs`, read-only
// access to the files of the hook's own directory as the supervisor read them at startup
// (hook-files.ts in supervisor/config; served here from memory, never from the disk). No
// `process`, `require`, timers or host objects exist there. Each call is held to `timeout_ms`
// (synchronous loops and promises that never settle alike); a hook that times out or exhausts its
// memory loses its isolate, which is rebuilt on the next call. The module is compiled once per
// worker, on first use; its module state lasts as long as the isolate (do not rely on it).
import { posix } from 'node:path';
import ivm from 'isolated-vm';
import type { HookFiles, JsHookSource } from '../../shared/policy-settings.ts';
import { SourceError } from './policy-errors.ts';

/** Heap of a hook's isolate (MB). */
export const HOOK_MEMORY_MB = 32;
/** The largest response body a hook's fetch reads. */
export const HOOK_FETCH_MAX_BYTES = 1024 * 1024;
/** Longest console line a hook may write to the server log. */
const HOOK_LOG_CHARS = 2000;

/** Built inside the hook's isolate before the module runs; `$0` logs, `$1` fetches, `$2` reads files (each only with its capability). */
const hookPrelude = (withFetch: boolean, withFs: boolean): string => `
const log = $0, hostFetch = ${withFetch ? '$1' : 'undefined'}, hostFs = ${withFs ? '$2' : 'undefined'};
if (hostFs !== undefined) {
  const call = (op, path, encoding) => hostFs.applySync(undefined, [op, String(path), encoding === undefined || encoding === null ? null : String(typeof encoding === 'object' ? encoding.encoding ?? '' : encoding)], { result: { copy: true } });
  const fs = {
    readFileSync: (path, encoding) => call('readFile', path, encoding),
    readdirSync: (path) => call('readdir', path),
    existsSync: (path) => call('exists', path),
  };
  fs.promises = Object.freeze({
    readFile: async (path, encoding) => fs.readFileSync(path, encoding),
    readdir: async (path) => fs.readdirSync(path),
  });
  globalThis.fs = Object.freeze(fs);
}
const show = (v) => { try { return typeof v === 'string' ? v : JSON.stringify(v) ?? String(v); } catch { return String(v); } };
const line = (level) => (...args) => { log.applySync(undefined, [level, args.map(show).join(' ')]); };
globalThis.console = Object.freeze({ log: line('log'), info: line('info'), warn: line('warn'), error: line('error'), debug: line('debug') });
if (hostFetch !== undefined) {
  globalThis.fetch = async function fetch(url, init = {}) {
    const request = { url: String(url), method: init.method === undefined ? 'GET' : String(init.method),
      headers: init.headers === undefined ? {} : Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [String(k), String(v)])),
      body: init.body === undefined || init.body === null ? null : String(init.body) };
    const r = await hostFetch.apply(undefined, [JSON.stringify(request)], { result: { promise: true, copy: true } });
    if (r.error !== undefined) throw new TypeError(r.error);
    const headers = Object.freeze({ get: (n) => r.headers[String(n).toLowerCase()] ?? null, entries: () => Object.entries(r.headers) });
    return Object.freeze({ ok: r.status >= 200 && r.status < 300, status: r.status, statusText: r.statusText, url: r.url, headers,
      text: async () => r.body, json: async () => JSON.parse(r.body) });
  };
}
`;

interface Loaded {
  readonly isolate: ivm.Isolate;
  readonly fn: ivm.Reference<(...args: unknown[]) => unknown>;
}

export class JsHook {
  readonly #source: JsHookSource;
  readonly #log: (line: string) => void;
  #loaded: Loaded | undefined;

  constructor(source: JsHookSource, log: (line: string) => void) {
    this.#source = source;
    this.#log = log;
  }

  get url(): string {
    return this.#source.url;
  }

  /** Calls the hook with copies of `args`; resolves to a copy of what it returned (or its promise settled to). */
  async call(args: readonly unknown[]): Promise<unknown> {
    const loaded = this.#load();
    const ms = this.#source.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new SourceError(`timed out after ${ms} ms`)), ms);
    });
    try {
      const call = loaded.fn.apply(undefined, args.map((a) => new ivm.ExternalCopy(a).copyInto({ release: true })), {
        result: { promise: true, copy: true }, timeout: ms,
      });
      return await Promise.race([call, timedOut]);
    } catch (e) {
      if (e instanceof SourceError) { this.#drop(loaded); throw e; }
      const message = e instanceof Error ? e.message : String(e);
      if (/timed out/i.test(message)) { this.#drop(loaded); throw new SourceError(`timed out after ${ms} ms`); }
      if (loaded.isolate.isDisposed || /memory limit|disposed/i.test(message)) {
        this.#drop(loaded);
        throw new SourceError(`ran out of memory (${HOOK_MEMORY_MB} MB) or was stopped: ${message}`);
      }
      if (/could not be cloned|#<Object> could not be cloned|non-transferable/i.test(message)) throw new SourceError(`returned a value that is not plain data: ${message}`);
      throw new SourceError(`threw: ${message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Disposes the isolate (the worker is exiting, or tests are done). */
  dispose(): void {
    if (this.#loaded) this.#drop(this.#loaded);
  }

  #drop(loaded: Loaded): void {
    if (this.#loaded === loaded) this.#loaded = undefined;
    if (!loaded.isolate.isDisposed) loaded.isolate.dispose();
  }

  #load(): Loaded {
    if (this.#loaded && !this.#loaded.isolate.isDisposed) return this.#loaded;
    const isolate = new ivm.Isolate({ memoryLimit: HOOK_MEMORY_MB });
    try {
      const context = isolate.createContextSync();
      const log = new ivm.Reference((level: unknown, text: unknown) => {
        this.#log(`policy hook ${this.#source.url}: ${String(level)}: ${String(text).slice(0, HOOK_LOG_CHARS)}`);
      });
      const withFetch = this.#source.capabilities.includes('fetch');
      const withFs = this.#source.capabilities.includes('fs');
      const args = [log, withFetch ? new ivm.Reference(hookFetch(this.#source.timeoutMs)) : undefined,
        withFs ? new ivm.Reference(hookFs(this.#source.files ?? { root: '/', files: {} })) : undefined];
      context.evalClosureSync(hookPrelude(withFetch, withFs), args, { timeout: 1000 });
      const module = isolate.compileModuleSync(this.#source.code, { filename: this.#source.url });
      module.instantiateSync(context, () => { throw new Error('a hook cannot import modules'); });
      module.evaluateSync({ timeout: this.#source.timeoutMs });
      const fn = module.namespace.getSync('default', { reference: true }) as ivm.Reference<(...args: unknown[]) => unknown>;
      if (fn.typeof !== 'function') throw new Error(`its default export is ${fn.typeof}, not a function`);
      this.#loaded = { isolate, fn };
      return this.#loaded;
    } catch (e) {
      if (!isolate.isDisposed) isolate.dispose();
      throw new SourceError(`could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

interface HookFetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * The host side of a hook's `fetch`: the hook is operator code, so it may reach any URL, but only
 * within its own timeout and with a capped, text-only response. Failures come back as `{error}`
 * (the hook sees a TypeError), never as a host exception crossing into the isolate.
 */
function hookFetch(timeoutMs: number) {
  return async (requestJson: string): Promise<unknown> => {
    let req: HookFetchRequest;
    try {
      req = JSON.parse(requestJson) as HookFetchRequest;
      const res = await fetch(req.url, {
        method: req.method, headers: req.headers, body: req.body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs),
      });
      const reader = res.body?.getReader();
      const chunks: Uint8Array[] = [];
      let n = 0;
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        n += value.byteLength;
        if (n > HOOK_FETCH_MAX_BYTES) {
          await reader.cancel().catch(() => {});
          return { error: `fetch: the response is larger than ${HOOK_FETCH_MAX_BYTES} bytes` };
        }
        chunks.push(value);
      }
      return {
        status: res.status, statusText: res.statusText, url: res.url,
        headers: Object.fromEntries(res.headers), body: Buffer.concat(chunks).toString('utf8'),
      };
    } catch (e) {
      const cause = (e as { cause?: { message?: string } }).cause?.message;
      return { error: `fetch failed: ${cause ?? (e instanceof Error ? e.message : String(e))}` };
    }
  };
}

/**
 * The host side of a hook's `fs`: paths are relative to the hook's directory (absolute ones must
 * lie inside it); `..` cannot leave it. Errors are Node-like texts (`ENOENT: no such file or
 * directory, open '<path>'`), thrown into the hook as Errors.
 */
function hookFs(dir: HookFiles) {
  const files = new Map(Object.entries(dir.files).map(([p, b64]) => [p, Buffer.from(b64, 'base64')] as const));
  const dirs = new Set<string>(['']);
  for (const p of files.keys()) for (let d = posix.dirname(p); d !== '.'; d = posix.dirname(d)) dirs.add(d);
  const root = dir.root.endsWith('/') ? dir.root.slice(0, -1) : dir.root;
  /** The path inside the directory ('' for the directory itself), or undefined when it lies outside. */
  const inside = (path: string): string | undefined => {
    const abs = posix.isAbsolute(path) ? posix.normalize(path) : posix.join(root === '' ? '/' : root, path);
    if (abs === root || abs === `${root}/`) return '';
    return abs.startsWith(`${root}/`) ? abs.slice(root.length + 1).replace(/\/+$/, '') : undefined;
  };
  return (op: string, path: string, encoding: string | null): unknown => {
    const rel = inside(path);
    if (op === 'exists') return rel !== undefined && (files.has(rel) || dirs.has(rel));
    if (op === 'readdir') {
      if (rel === undefined || !dirs.has(rel)) throw new Error(`ENOENT: no such file or directory, scandir '${path}'`);
      const prefix = rel === '' ? '' : `${rel}/`;
      const names = new Set<string>();
      for (const p of [...files.keys(), ...dirs]) if (p !== rel && p.startsWith(prefix)) names.add(p.slice(prefix.length).split('/')[0]!);
      return [...names].sort();
    }
    if (op === 'readFile') {
      const bytes = rel === undefined ? undefined : files.get(rel);
      if (bytes === undefined) {
        throw new Error(rel !== undefined && dirs.has(rel) ? `EISDIR: illegal operation on a directory, read '${path}'` : `ENOENT: no such file or directory, open '${path}'`);
      }
      if (encoding === null || encoding === '' || encoding === 'buffer') return new Uint8Array(bytes);
      if (encoding !== 'utf8' && encoding !== 'utf-8') throw new Error(`fs.readFileSync: unsupported encoding '${encoding}' (use 'utf8' or none)`);
      return bytes.toString('utf8');
    }
    throw new Error(`fs: unknown operation ${op}`);
  };
}
