// The worker child process's service loop (worker/main.ts is its entry). Opens the message channel (a framed pipe, shared/frame-channel.ts),
// waits for the supervisor's `init` message (the worker's settings: it reads no environment and
// no configuration of its own), builds the WorkerHost from it, and routes the supervisor's
// messages to it. It never trusts its messages' shapes: everything from the channel is narrowed
// by shared/protocol.ts.
import { flushCompileCache } from 'node:module';
import { Socket } from 'node:net';
import { isSupervisorMessage, type WorkerMessage } from '../shared/protocol.ts';
import { FrameDecoder, MAX_FRAME_FORMAT_BYTES, writeFrame } from '../shared/frame-channel.ts';
import { CancelChannel } from './runtime/cancel-channel.ts';
import { ObjectChannel } from './runtime/object-channel.ts';
import { WorkerHost } from './runtime/worker-host.ts';
import type { OpFactory } from './ops/op-types.ts';

/** A `--name=value` argument from supervisor/pool/worker-process.ts. */
const argValue = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/**
 * Workers end by SIGKILL or on disconnect, often before Node would write the module compile
 * cache (NODE_COMPILE_CACHE, set by supervisor/pool/worker-process.ts) at exit: write what this
 * process compiled once it is idle, so the next worker boots from the cache. Files already cached
 * are not rewritten.
 */
function persistCompileCache(): void {
  setTimeout(() => { try { flushCompileCache?.(); } catch { /* an optimisation only */ } }, 0).unref();
}

/**
 * Serves the supervisor on the descriptors named by this process's arguments. `overrides` replace
 * ops by name: only test workers (test/fixtures/workers/) pass any.
 */
export function serveWorker(overrides: readonly OpFactory[] = []): void {
  const channelFd = Number(argValue('channel-fd'));
  // Cancels that arrive while QuickJS blocks this thread.
  const cancelChannel = CancelChannel.open(argValue('cancel-fd'));
  // Mounted snapshots' file contents, fetched while a run waits (runtime/object-channel.ts).
  const objects = ObjectChannel.open(argValue('object-fd'));
  const channel = new Socket({ fd: channelFd, readable: true, writable: true });
  const send = (msg: WorkerMessage): void => { writeFrame(channel, msg); };
  let host: WorkerHost | undefined;
  // The supervisor is trusted; its frames are bounded by the format only.
  const decoder = new FrameDecoder((raw) => onMessage(raw), () => MAX_FRAME_FORMAT_BYTES);
  channel.on('data', (chunk: Buffer) => decoder.push(chunk));
  // The supervisor owns this process: when the channel closes, there is nobody to serve.
  channel.on('close', () => process.exit(0));
  channel.on('error', () => process.exit(0));
  const onMessage = (raw: unknown): void => {
    if (!isSupervisorMessage(raw)) return;
    if (raw.type === 'init') {
      if (host !== undefined) return; // configured once, at spawn
      const h = new WorkerHost(raw.settings, send, cancelChannel, persistCompileCache, overrides, objects);
      host = h;
      void h.warmUp().then(() => {
        send({ type: 'ready' });
        persistCompileCache();
      });
      return;
    }
    if (host === undefined) return; // nothing but `init` before `init`
    switch (raw.type) {
      case 'run': host.onRun(raw); break;
      case 'cancel': host.onCancel(raw.runId, raw.reason); break;
      case 'op-response': host.supervisor.deliver(raw); break;
    }
  };
}

