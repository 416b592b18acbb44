// http2: the guest's `node:http2` client (worker/guest/platform/parts/http2.js) driven on the host
// by Node's own node:http2. `http2.connect` starts a session (policy, then the connection: in the
// background) and answers its id at once; `http2.request` starts a stream on it the same way. The
// guest keeps one `http2.session_next` pending per session and one `http2.stream_next` per stream,
// which answer their next event and keep the run alive while they are open. Everything a run
// opened is destroyed when it ends. Per run: `maxSessions` sessions and `maxStreams` streams open
// at once; response bytes count against fetch's per-run receive budget.
import { constants as h2constants } from 'node:http2';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError, type OpContext, type OpTable } from '../op-types.ts';
import type { WorkerSettings } from '../../../shared/worker-settings.ts';
import type { HeaderInjector } from '../../network/header-injection.ts';
import { TokenAcquisitionError } from '../../network/oauth-token-cache.ts';
import { TRAFFIC, countReceived } from '../../network/run-traffic.ts';
import { guestError } from '../guest-errors.ts';
import { checkHeaders, checkOrigin } from './http2-request.ts';
import { decideConnect, decideRequest } from './http2-policy.ts';
import { H2Session, H2Stream } from './h2-client.ts';
import { trustedCa } from '../../network/trusted-ca.ts';

interface RunH2 {
  readonly sessions: Map<number, H2Session>;
  readonly streams: Map<number, H2Stream>;
  next: number;
}

const H2 = resourceKey<RunH2>('http2', () => ({ sessions: new Map(), streams: new Map(), next: 1 }), (r) => {
  for (const s of r.streams.values()) s.terminate();
  for (const s of r.sessions.values()) s.terminate();
  r.streams.clear();
  r.sessions.clear();
});

function record(args: unknown, op: string): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new OpError(`${op} expects an object`, 'TypeError');
  return args as Record<string, unknown>;
}

function idOf(args: unknown, op: string, key = 'id'): number {
  const id = record(args, op)[key];
  if (typeof id !== 'number') throw guestError('HTTP2_LOST');
  return id;
}

function live<T extends { live: boolean }>(m: Map<number, T>): number {
  let n = 0;
  for (const x of m.values()) if (x.live) n++;
  return n;
}

/** `injector`: the worker's one header injector (worker/ops/capabilities.ts), shared with fetch and WebSocket. */
export function createHttp2Ops(settings: WorkerSettings, injector: HeaderInjector): OpTable {
  const limits = settings.limits.http2;
  const fetchLimits = settings.limits.fetch;
  const ca = trustedCa(settings.network);

  const sessionOf = (ctx: OpContext, id: number): H2Session => {
    const s = ctx.resources.get(H2).sessions.get(id);
    if (s === undefined) throw guestError('HTTP2_LOST');
    return s;
  };
  const streamOf = (ctx: OpContext, id: number): H2Stream => {
    const s = ctx.resources.get(H2).streams.get(id);
    if (s === undefined) throw guestError('HTTP2_LOST');
    return s;
  };

  return {
    /** {url} (its origin: https: TLS with ALPN h2, http: h2c) → session id; decided and connected in the background. */
    'http2.connect': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const origin = checkOrigin(record(args, 'http2.connect')['url']);
        const runs = ctx.resources.get(H2);
        const refused = live(runs.sessions) >= limits.maxSessions ? guestError('HTTP2_TOO_MANY_SESSIONS', limits.maxSessions) : undefined;
        const id = runs.next++;
        runs.sessions.set(id, new H2Session(origin, {
          decide: (o, signal) => decideConnect(o, ctx, signal),
          ca, connectTimeoutMs: fetchLimits.connectTimeoutMs,
        }, refused));
        return id;
      },
    },
    /** → the session's next event: {type: connect|error|goaway|close, …}. */
    'http2.session_next': {
      kind: 'async',
      async run(args, _bytes, ctx, signal) {
        const id = idOf(args, 'http2.session_next');
        const s = sessionOf(ctx, id);
        const event = await s.events.next(signal, 'http2.session_next');
        if (s.events.drained) ctx.resources.get(H2).sessions.delete(id);
        return event;
      },
    },
    /** {id, destroy?, code?}: close (streams finish first) or destroy the session. */
    'http2.session_close': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const a = record(args, 'http2.session_close');
        const s = ctx.resources.get(H2).sessions.get(idOf(a, 'http2.session_close'));
        s?.close(a['destroy'] === true, typeof a['code'] === 'number' ? a['code'] : undefined);
      },
    },
    /** {session, headers, endStream} → stream id; injected, decided and sent in the background. */
    'http2.request': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const a = record(args, 'http2.request');
        const session = sessionOf(ctx, idOf(a, 'http2.request', 'session'));
        const req = checkHeaders(a['headers']);
        const runs = ctx.resources.get(H2);
        const refused = live(runs.streams) >= limits.maxStreams ? guestError('HTTP2_TOO_MANY_STREAMS', limits.maxStreams) : undefined;
        const traffic = ctx.resources.get(TRAFFIC);
        const id = runs.next++;
        runs.streams.set(id, new H2Stream(session, req, a['endStream'] === true, {
          inject: async (url, method, headers, signal) => {
            try {
              await injector.apply(url, method, headers, ctx.policy.redactor, signal);
            } catch (e) {
              if (e instanceof TokenAcquisitionError) throw new OpError(e.message, 'TypeError', 'ERR_RUNJS_CREDENTIAL_INJECTION');
              throw e;
            }
          },
          decide: (input, signal) => decideRequest(input, ctx, signal),
          countRequest: () => ctx.policy.countEgress('http2', { requests: 1 }),
          countSent: (n) => {
            traffic.sentBytes += n;
            ctx.policy.countEgress('http2', { sent_bytes: n });
          },
          countReceived: (n) => {
            ctx.policy.countEgress('http2', { received_bytes: n });
            return countReceived(traffic, n, fetchLimits.maxResponseBytesPerRun) ? undefined : guestError('HTTP2_RECEIVE_LIMIT', fetchLimits.maxResponseBytesPerRun);
          },
        }, refused));
        return id;
      },
    },
    /** → the stream's next event: body bytes, else {type: response|headers|trailers|end|error|close, …}. */
    'http2.stream_next': {
      kind: 'async',
      async run(args, _bytes, ctx, signal) {
        const id = idOf(args, 'http2.stream_next');
        const s = streamOf(ctx, id);
        const event = await s.events.next(signal, 'http2.stream_next');
        if (s.events.drained) ctx.resources.get(H2).streams.delete(id);
        return event;
      },
    },
    /** {id} with request body bytes; settles when the session has taken them. */
    'http2.stream_write': {
      kind: 'async',
      async run(args, bytes, ctx) {
        await streamOf(ctx, idOf(args, 'http2.stream_write')).write(bytes === undefined ? new Uint8Array(0) : Buffer.from(bytes));
      },
    },
    /** {id}: ends the request body. */
    'http2.stream_end': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        ctx.resources.get(H2).streams.get(idOf(args, 'http2.stream_end'))?.end();
      },
    },
    /** {id, code}: RST_STREAM with `code` (NGHTTP2_CANCEL when the script destroys the stream). */
    'http2.stream_close': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const a = record(args, 'http2.stream_close');
        const code = a['code'];
        ctx.resources.get(H2).streams.get(idOf(a, 'http2.stream_close'))?.close(typeof code === 'number' && Number.isInteger(code) && code >= 0 && code <= 0xffffffff ? code : h2constants.NGHTTP2_CANCEL);
      },
    },
    /** → node:http2's constants. */
    'http2.constants': {
      kind: 'sync',
      run() {
        return { ...h2constants };
      },
    },
    /** {name}: a server API: always throws. */
    'http2.unsupported': {
      kind: 'sync',
      run(args) {
        const name = record(args, 'http2.unsupported')['name'];
        throw guestError('HTTP2_SERVER_UNSUPPORTED', typeof name === 'string' ? name.slice(0, 64) : 'this function');
      },
    },
    /** {name}: node:net / node:tls / node:http APIs scripts cannot have (worker/guest/platform/parts/net.js): always throws. */
    'net.unsupported': {
      kind: 'sync',
      run(args) {
        const name = record(args, 'net.unsupported')['name'];
        throw guestError('NET_UNSUPPORTED', typeof name === 'string' ? name.slice(0, 64) : 'this function');
      },
    },
  };
}
