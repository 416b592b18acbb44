// subprocess: the guest's `node:child_process` and `Deno.Command` (worker/guest/platform/parts/
// child-process.js) driven on the host by Node's spawn. `subprocess.spawn` starts a child (the
// policy decision, then the spawn: in the background) and answers its id at once; the guest keeps
// one `subprocess.next` pending per child, which answers its next event and keeps the run alive
// while the child runs, as a child keeps a Node process alive. `subprocess.write`, `.end` and
// `.kill` are synchronous.
//
// Confinement: a child runs as the worker does (inside whatever OS sandbox the operator gave the
// workers), with only the environment the script passed, in the run's own temporary directory
// unless the policy allowed the cwd the script asked for, in a process group of its own that is
// killed when the run ends (completed, failed, timed out or cancelled). Per run: at most
// `maxRunning` children at once and `maxOutputBytesPerRun` bytes of their output.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError, type OpContext, type OpTable } from '../op-types.ts';
import type { WorkerSettings } from '../../../shared/worker-settings.ts';
import { guestError } from '../guest-errors.ts';
import { checkSpawn, isSignal, type SpawnRequest } from './subprocess-request.ts';
import { decideSpawn } from './subprocess-policy.ts';
import { Child } from './child.ts';

interface RunChildren {
  readonly open: Map<number, Child>;
  next: number;
  /** Output bytes the run's children have written. */
  outputBytes: number;
  /** The run's working directory for children (made on first use, removed at the run's end). */
  dir: string | undefined;
}

const CHILDREN = resourceKey<RunChildren>('subprocesses', () => ({ open: new Map(), next: 1, outputBytes: 0, dir: undefined }), (r) => {
  for (const c of r.open.values()) c.terminate();
  r.open.clear();
  if (r.dir !== undefined) rmSync(r.dir, { recursive: true, force: true, maxRetries: 2 });
});

function record(args: unknown, op: string): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new OpError(`${op} expects an object`, 'TypeError');
  return args as Record<string, unknown>;
}

function runDir(runs: RunChildren): string {
  runs.dir ??= mkdtempSync(join(tmpdir(), 'runjs-proc-'));
  return runs.dir;
}

/** Where a child runs: the run's directory, a path inside it (a relative cwd), or the absolute cwd the policy allowed. */
function cwdFor(runs: RunChildren, req: SpawnRequest): string {
  const dir = runDir(runs);
  if (req.cwd === undefined || req.cwd === '') return dir;
  if (isAbsolute(req.cwd)) return req.cwd;
  const target = resolve(dir, req.cwd);
  const rel = relative(dir, target);
  if (rel.startsWith('..') || isAbsolute(rel)) throw guestError('SUBPROCESS_CWD', req.cwd);
  return target;
}

export function createSubprocessOps(settings: WorkerSettings): OpTable {
  const limits = settings.limits.subprocess;

  function childOf(ctx: OpContext, args: unknown, op: string): Child {
    const id = record(args, op)['id'];
    const c = typeof id === 'number' ? ctx.resources.get(CHILDREN).open.get(id) : undefined;
    if (c === undefined) throw guestError('SUBPROCESS_LOST');
    return c;
  }

  return {
    /** {operation, command, args, cwd?, env?, timeoutMs?, killSignal?, stdin?} → child id; decided and spawned in the background. */
    'subprocess.spawn': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const req = checkSpawn(record(args, 'subprocess.spawn'));
        const runs = ctx.resources.get(CHILDREN);
        let live = 0;
        for (const c of runs.open.values()) if (c.live) live++;
        const refused = live >= limits.maxRunning ? guestError('SUBPROCESS_TOO_MANY', limits.maxRunning) : undefined;
        const id = runs.next++;
        runs.open.set(id, new Child(req, {
          decide: (r, signal) => decideSpawn(r, ctx, signal),
          cwdFor: (r) => cwdFor(runs, r),
          countOutput: (n) => {
            runs.outputBytes += n;
            return runs.outputBytes > limits.maxOutputBytesPerRun ? guestError('SUBPROCESS_OUTPUT_LIMIT', limits.maxOutputBytesPerRun) : undefined;
          },
        }, refused));
        return id;
      },
    },
    /** → the child's next event: output as bytes (first byte: the fd), else {type: spawn|exit|error|close, …}. */
    'subprocess.next': {
      kind: 'async',
      async run(args, _bytes, ctx, signal) {
        const c = childOf(ctx, args, 'subprocess.next');
        const event = await c.next(signal);
        if (c.drained) ctx.resources.get(CHILDREN).open.delete((args as { id: number }).id);
        return event;
      },
    },
    /** {name}: a sync form (execSync, spawnSync, Deno's outputSync): always throws. */
    'subprocess.unsupported': {
      kind: 'sync',
      run(args) {
        const name = record(args, 'subprocess.unsupported')['name'];
        throw guestError('SUBPROCESS_SYNC', typeof name === 'string' ? name.slice(0, 64) : 'this function');
      },
    },
    /** {id} with bytes for the child's stdin. */
    'subprocess.write': {
      kind: 'sync',
      run(args, bytes, ctx) {
        childOf(ctx, args, 'subprocess.write').write(bytes ?? new Uint8Array(0));
      },
    },
    /** {id}: ends the child's stdin. */
    'subprocess.end': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        childOf(ctx, args, 'subprocess.end').endInput();
      },
    },
    /** {id, signal} → whether the signal was sent (to the child's process group). */
    'subprocess.kill': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const a = record(args, 'subprocess.kill');
        const sig = a['signal'];
        if (!isSignal(sig) && !(typeof sig === 'number' && Number.isInteger(sig) && sig >= 0 && sig < 65)) {
          throw new OpError(`Unknown signal: ${String(sig)}`, 'TypeError', 'ERR_UNKNOWN_SIGNAL');
        }
        const id = a['id'];
        const c = typeof id === 'number' ? ctx.resources.get(CHILDREN).open.get(id) : undefined;
        return c?.kill(sig) ?? false;
      },
    },
  };
}
