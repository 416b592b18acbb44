// run_js `file`: the code of a run read from a file on the server, when the operator allows it —
// `--allow-run-js-file` (any readable path) or a `run_js_file` policy deciding
// `{operation: "read", path: <canonical absolute path>, mcp_headers?}` per call. Read here, at
// submission, by the supervisor (the file is the operator's, not the script's: the worker never
// sees the path). Texts are the reference's (shared/errors.ts RUN_JS_FILE_*).
//
// Order: a server with neither switch answers "disabled" before touching the path, so callers
// cannot probe which files exist; then the path is canonicalised (a missing file fails with the
// OS's reason), then the policy decides on the canonical path, then the file is read (bounded).
import { open, realpath } from 'node:fs/promises';
import { constants } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { RunjsError } from '../../shared/errors.ts';
import type { DecisionLog } from '../../shared/decision-log.ts';
import type { PolicySettings } from '../../shared/policy-settings.ts';
import { PolicyEngine } from '../../worker/policy/policy-engine.ts';
import { PolicyDeniedError, PolicyFailedError } from '../../worker/policy/policy-errors.ts';

export interface RunJsFileOptions {
  /** --allow-run-js-file: every readable path, no policy asked. */
  readonly allowAll: boolean;
  /** The server's policies: a `run_js_file` category enables the feature under it. */
  readonly policies: PolicySettings;
  /** The largest file accepted as code (the REST body limit for code). */
  readonly maxBytes: number;
  /** Relative paths resolve against this directory (the server's working directory). */
  readonly cwd: string;
}

export interface FileSource {
  readonly code: string;
  /** The run_js_file decisions made for it (recorded in front of the run's own). */
  readonly decisions: DecisionLog | undefined;
}

// The OS's text for the usual errno values, as the reference prints them (`… (os error 2)`).
const OS_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'No such file or directory', EACCES: 'Permission denied', EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory', ENOTDIR: 'Not a directory', ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long', EINVAL: 'Invalid argument',
};

function osError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const errno = (constants.errno as Record<string, number>)[code];
  const text = OS_TEXT[code] ?? ((e as Error).message || code);
  return errno === undefined ? text : `${text} (os error ${errno})`;
}

export class RunJsFileReader {
  readonly #opts: RunJsFileOptions;
  readonly #engine: PolicyEngine | undefined;

  constructor(opts: RunJsFileOptions) {
    this.#opts = opts;
    this.#engine = !opts.allowAll && opts.policies.run_js_file !== undefined
      ? new PolicyEngine({ run_js_file: opts.policies.run_js_file }, { log: (line) => process.stderr.write(`runjs: run_js_file hook: ${line}\n`) })
      : undefined;
  }

  /** Whether run_js `file` can be used at all on this server. */
  get enabled(): boolean {
    return this.#opts.allowAll || this.#engine !== undefined;
  }

  async read(path: string, mcpHeaders?: Readonly<Record<string, string>>): Promise<FileSource> {
    if (!this.enabled) throw new RunjsError('RUN_JS_FILE_DISABLED');
    if (path.includes('\0')) throw new RunjsError('RUN_JS_FILE_UNREADABLE', path.replaceAll('\0', '\\0'), 'Invalid argument (os error 22)');
    let canonical: string;
    try {
      canonical = await realpath(isAbsolute(path) ? path : resolve(this.#opts.cwd, path));
    } catch (e) {
      throw new RunjsError('RUN_JS_FILE_UNREADABLE', path, osError(e));
    }
    const decisions = this.#engine === undefined ? undefined : await this.#decide(canonical, mcpHeaders);
    return { code: await this.#readBounded(canonical), decisions };
  }

  async #decide(canonical: string, mcpHeaders: Readonly<Record<string, string>> | undefined): Promise<DecisionLog> {
    const run = this.#engine!.forRun();
    const input = { operation: 'read', path: canonical, ...(mcpHeaders !== undefined && Object.keys(mcpHeaders).length > 0 ? { mcp_headers: mcpHeaders } : {}) };
    try {
      await run.enforce('run_js_file', input, { defaultReason: 'not allowed' });
      return run.log();
    } catch (e) {
      if (e instanceof PolicyDeniedError) throw new RunjsError('RUN_JS_FILE_DENIED', canonical, e.reason);
      if (e instanceof PolicyFailedError) throw new RunjsError('RUN_JS_FILE_POLICY_FAILED', e.message);
      throw e;
    } finally {
      run.close();
    }
  }

  async #readBounded(canonical: string): Promise<string> {
    const max = this.#opts.maxBytes;
    try {
      const fh = await open(canonical, 'r');
      try {
        const st = await fh.stat();
        if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: st.isDirectory() ? 'EISDIR' : 'EINVAL' });
        // One byte more than allowed tells "too large" from "exactly the limit" without trusting stat's size.
        const buf = Buffer.alloc(Math.min(max + 1, Math.max(st.size + 1, 1)));
        let n = 0;
        for (;;) {
          const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
          if (bytesRead === 0 || (n += bytesRead) === buf.length) break;
        }
        if (n > max) throw new RunjsError('RUN_JS_FILE_UNREADABLE', canonical, `larger than ${max} bytes (the limit for code)`);
        if (n === buf.length) throw new RunjsError('RUN_JS_FILE_UNREADABLE', canonical, 'the file changed while it was read');
        const text = new TextDecoder('utf-8', { fatal: false }).decode(buf.subarray(0, n));
        return text.startsWith('\uFEFF') ? text.slice(1) : text;
      } finally {
        await fh.close();
      }
    } catch (e) {
      if (e instanceof RunjsError) throw e;
      throw new RunjsError('RUN_JS_FILE_UNREADABLE', canonical, osError(e));
    }
  }

  dispose(): void {
    this.#engine?.dispose();
  }
}
