// fetch: the guest's `fetch()` (worker/guest/platform/parts/fetch/fetch.js) driven on the host by
// undici, the library Node's own fetch is built on (its `dispatcher.request`, http-hop.ts). One exchange per call, held in the run's
// resources under an id the guest chose: `fetch.open` starts it (policy first, then the request;
// redirects are followed here, hop by hop, so every hop is decided again), `fetch.write`/`fetch.end`
// stream a request body, `fetch.response` answers the status line and headers, `fetch.read`
// streams the response body, `fetch.abort` stops it. A request whose body is not a stream (nearly
// all) is started and answered by one op, `fetch.request` (open + response): each op is a round
// trip between the isolate's thread and this one. No cookies are kept.
//
// One undici Agent per worker, shared by its runs: a run's fetch reuses a keep-alive connection an
// earlier run left (a new connection per run cost a few ms of every run's first fetch). A
// connection carries no credentials or decisions: every hop is decided and injected per request,
// limits and egress are counted per run, and the TLS options are the worker's. When a run ends,
// its unfinished exchanges are aborted, and undici destroys the socket of an aborted request (it
// never goes back to the pool half read); only sockets whose response was complete are kept
// (docs/network.md, "Connections").
import type { Agent } from 'undici';
import { undici } from '../../network/undici.ts';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError, WithBytes, type OpContext, type OpTable } from '../op-types.ts';
import type { WorkerSettings } from '../../../shared/worker-settings.ts';
import type { FetchLimits } from '../../../shared/worker-settings.ts';
import { checkRequest, type FetchRequest } from './fetch-request.ts';
import { Exchange, type ResponseHead } from './exchange.ts';
import { fetchGate } from './fetch-policy.ts';
import { applyOutput, fetchOutput } from './fetch-post.ts';
import type { HeaderInjector } from '../../network/header-injection.ts';
import { TokenAcquisitionError } from '../../network/oauth-token-cache.ts';
import { TRAFFIC, countReceived } from '../../network/run-traffic.ts';
import { trustedCa } from '../../network/trusted-ca.ts';

interface RunFetches {
  readonly open: Map<number, Exchange>;
}

const FETCHES = resourceKey<RunFetches>('fetches', () => ({ open: new Map() }), (r) => {
  // Aborting destroys the socket of every request still in flight: none is left to a later run.
  for (const ex of r.open.values()) ex.abort(new OpError('runjs: the run has ended', 'AbortError'));
  r.open.clear();
});

function record(args: unknown, op: string): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new OpError(`${op} expects an object`, 'TypeError');
  return args as Record<string, unknown>;
}

/** `injector`: the worker's one header injector (worker/ops/capabilities.ts), shared with WebSocket. */
export function createFetchOps(settings: WorkerSettings, injector: HeaderInjector): OpTable {
  const limits: FetchLimits = settings.limits.fetch;
  const decide = fetchGate(settings);
  const ca = trustedCa(settings.network);

  // The worker's dispatcher (made at the first fetch): its options come from the worker's settings
  // alone, so every run's connections are made alike.
  let agent: Agent | undefined;
  const dispatcher = (): Agent => agent ??= new (undici().Agent)({
    connect: { timeout: limits.connectTimeoutMs, ...(ca !== undefined ? { ca } : {}) },
    headersTimeout: limits.requestTimeoutMs,
    bodyTimeout: limits.requestTimeoutMs,
    // An idle keep-alive socket closes after this (Node's own HTTP server keeps one 5 s).
    keepAliveTimeout: 4_000,
  });

  function exchange(ctx: OpContext, args: unknown, op: string): Exchange {
    const id = record(args, op)['id'];
    const ex = typeof id === 'number' ? ctx.resources.get(FETCHES).open.get(id) : undefined;
    if (ex === undefined) throw new OpError('runjs: this fetch belongs to an earlier run or has ended', 'TypeError', 'ERR_RUNJS_FETCH_LOST');
    return ex;
  }

  /** Starts the exchange `a` describes under the guest's id (a positive integer no open exchange of the run has). */
  function open(a: Record<string, unknown>, bytes: Uint8Array | undefined, ctx: OpContext): Exchange {
    const id = a['id'];
    const runs = ctx.resources.get(FETCHES);
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0 || runs.open.has(id)) throw new OpError('fetch.open: malformed or duplicate exchange id', 'TypeError');
    const req: FetchRequest = checkRequest(a, bytes);
    if (runs.open.size >= limits.maxConcurrent) {
      throw new OpError(`fetch failed: more than ${limits.maxConcurrent} requests of this execution are open at once; read or cancel earlier responses first`, 'TypeError', 'ERR_RUNJS_FETCH_LIMIT');
    }
    const traffic = ctx.resources.get(TRAFFIC);
    const ex = new Exchange(req, {
      dispatcher: dispatcher(),
      limits,
      decide: (input, signal) => decide(input, ctx, signal),
      ...(ctx.policy.hasPost('fetch') ? {
        post: async (head, body, input, signal) => {
          const before = fetchOutput(head, body);
          const after = await ctx.policy.enforcePost('fetch', before, input, { defaultReason: `the response of ${input.method} ${input.url} is not allowed`, signal });
          return applyOutput(head, body, after, before);
        },
      } : {}),
      inject: async (url, method, headers, signal) => {
        try {
          return await injector.apply(url, method, headers, ctx.policy.redactor, signal);
        } catch (e) {
          if (e instanceof TokenAcquisitionError) throw new OpError(e.message, 'TypeError', 'ERR_RUNJS_CREDENTIAL_INJECTION');
          if (signal.aborted) throw new OpError('This operation was aborted', 'AbortError');
          throw e;
        }
      },
      countRequest: () => { ctx.policy.countEgress('fetch', { requests: 1 }); },
      countRequestBytes: (n) => {
        traffic.sentBytes += n;
        ctx.policy.countEgress('fetch', { sent_bytes: n });
      },
      countResponseBytes: (n) => {
        ctx.policy.countEgress('fetch', { received_bytes: n });
        if (!countReceived(traffic, n, limits.maxResponseBytesPerRun)) {
          throw new OpError(`fetch failed: the execution read more than ${limits.maxResponseBytesPerRun} bytes of response bodies (the per-execution limit)`, 'TypeError', 'ERR_RUNJS_FETCH_LIMIT');
        }
      },
      onDone: () => { runs.open.delete(id); },
    });
    runs.open.set(id, ex);
    return ex;
  }

  /** The final response's head, with the body bytes that came with it (and `done` when that was all). */
  async function answer(ex: Exchange, signal: AbortSignal): Promise<ResponseHead | WithBytes> {
    const head = await ex.response(signal);
    const early = await ex.earlyBody();
    return early === undefined ? head : new WithBytes({ ...head, done: early.done }, early.bytes);
  }

  return {
    /** {id, url, method, headers: [name, value][], redirect, body: 'none'|'bytes'|'stream'} (+ bytes): starts exchange `id`. */
    'fetch.open': {
      kind: 'sync',
      run(args, bytes, ctx) {
        open(record(args, 'fetch.open'), bytes, ctx);
      },
    },
    /** fetch.open and fetch.response in one op, for a body that is not streamed (none, or the bytes). */
    'fetch.request': {
      kind: 'async',
      async run(args, bytes, ctx, signal) {
        const a = record(args, 'fetch.request');
        if (a['body'] === 'stream') throw new OpError('fetch.request: a streamed body needs fetch.open', 'TypeError');
        return await answer(open(a, bytes, ctx), signal);
      },
    },
    'fetch.write': {
      kind: 'async',
      async run(args, bytes, ctx) {
        await exchange(ctx, args, 'fetch.write').write(bytes ?? new Uint8Array(0));
      },
    },
    'fetch.end': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        exchange(ctx, args, 'fetch.end').end();
      },
    },
    /**
     * → {status, statusText, headers, url, redirected} once the final response's head arrived;
     * with the body bytes that came with it as `bytes` (and `done` when that was all of it).
     */
    'fetch.response': {
      kind: 'async',
      async run(args, _bytes, ctx, signal) {
        return await answer(exchange(ctx, args, 'fetch.response'), signal);
      },
    },
    /** → the next chunk of the response body, or null at its end. */
    'fetch.read': {
      kind: 'async',
      async run(args, _bytes, ctx) {
        return await exchange(ctx, args, 'fetch.read').read();
      },
    },
    'fetch.abort': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const a = record(args, 'fetch.abort');
        const ex = typeof a['id'] === 'number' ? ctx.resources.get(FETCHES).open.get(a['id']) : undefined;
        ex?.abort(new OpError(typeof a['reason'] === 'string' ? a['reason'] : 'This operation was aborted', 'AbortError'));
      },
    },
  };
}
