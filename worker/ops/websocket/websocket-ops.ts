// websocket: the guest's `WebSocket` (worker/guest/platform/parts/websocket.js) driven on the host
// by undici's WebSocket, the client Node's own global is. `websocket.open` starts a socket (header
// injection, then the policy decision, then the handshake: all in the background) and answers its
// id at once; the guest keeps one `websocket.next` pending per socket, which answers its next event
// (open, a message, error, close) and keeps the run alive while the socket is open, as an open
// socket keeps a Node process alive. `websocket.send`, `websocket.close` and
// `websocket.buffered` are synchronous. Each socket has its own undici Agent (so its one TCP
// connection is known: it is paused while the guest is behind, and destroyed shortly after the run
// ends, once the closing handshake has been started).
import type { Socket as NetSocket } from 'node:net';
import type { Agent } from 'undici';
import { undici } from '../../network/undici.ts';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError, type OpContext, type OpTable } from '../op-types.ts';
import type { WorkerSettings } from '../../../shared/worker-settings.ts';
import { undoInjection, type HeaderInjector } from '../../network/header-injection.ts';
import { TokenAcquisitionError } from '../../network/oauth-token-cache.ts';
import { TRAFFIC, countReceived } from '../../network/run-traffic.ts';
import { checkConnect, type ConnectRequest } from './websocket-request.ts';
import { websocketGate, websocketInput } from './websocket-policy.ts';
import { Socket } from './socket.ts';
import { trustedCa } from '../../network/trusted-ca.ts';

/** How long the closing handshakes of a run that ended get before its TCP sockets are destroyed. */
const CLOSE_GRACE_MS = 1_000;

interface RunSockets {
  /** Every TCP connection the run's sockets opened and that is not closed yet. */
  readonly tcp: Set<NetSocket>;
  /** Every socket's dispatcher that has not been destroyed yet. */
  readonly agents: Set<Agent>;
  readonly open: Map<number, Socket>;
  next: number;
}

const SOCKETS = resourceKey<RunSockets>('websockets', () => ({ tcp: new Set(), agents: new Set(), open: new Map(), next: 1 }), (r) => {
  for (const s of r.open.values()) s.terminate();
  r.open.clear();
  if (r.agents.size === 0 && r.tcp.size === 0) return;
  const tcp = [...r.tcp];
  const agents = [...r.agents];
  setTimeout(() => {
    for (const socket of tcp) socket.destroy();
    for (const agent of agents) void agent.destroy().catch(() => {});
  }, CLOSE_GRACE_MS).unref();
});

function record(args: unknown, op: string): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new OpError(`${op} expects an object`, 'TypeError');
  return args as Record<string, unknown>;
}

/** `injector`: the worker's one header injector (worker/ops/capabilities.ts), shared with fetch. */
export function createWebSocketOps(settings: WorkerSettings, injector: HeaderInjector): OpTable {
  const limits = settings.limits.websocket;
  const fetchLimits = settings.limits.fetch;
  const decide = websocketGate(settings);
  const ca = trustedCa(settings.network);

  /**
   * One socket's connection: a dispatcher of its own, made on first use, so its one TCP connection
   * is that socket's (it can stop reading it, and it is destroyed with the socket or the run).
   */
  function connection(runs: RunSockets): { dispatcher(): Agent; pause(paused: boolean): void; release(): void } {
    const tcp = new Set<NetSocket>();
    let agent: Agent | undefined;
    return {
      dispatcher() {
        if (agent !== undefined) return agent;
        const connector = undici().buildConnector({ timeout: fetchLimits.connectTimeoutMs, ...(ca !== undefined ? { ca } : {}) });
        agent = new (undici().Agent)({
          connect: (opts, callback) => connector(opts, (err, socket) => {
            // A failed connect (a TLS error among them) passes no socket — undefined, not null, in
            // undici's TLS path: anything thrown here would end the worker process.
            if (err === null && socket != null) {
              tcp.add(socket);
              runs.tcp.add(socket);
              socket.once('close', () => { tcp.delete(socket); runs.tcp.delete(socket); });
            }
            // The connector's callback type is a tuple union: hand each shape back as it came.
            if (err !== null) callback(err, null);
            else callback(null, socket!);
          }),
          webSocket: { maxPayloadSize: limits.maxMessageBytes },
        });
        runs.agents.add(agent);
        return agent;
      },
      pause(paused) {
        for (const socket of tcp) {
          if (paused) socket.pause();
          else socket.resume();
        }
      },
      // Closed (or failed): whatever of its connection a server keeps open goes after the grace.
      release() {
        const a = agent;
        if (a === undefined) return;
        runs.agents.delete(a);
        setTimeout(() => {
          for (const socket of tcp) socket.destroy();
          void a.destroy().catch(() => {});
        }, CLOSE_GRACE_MS).unref();
      },
    };
  }

  /**
   * The script's headers, then header injection (method GET, the handshake's), then the policy on
   * the handshake as it will be sent.
   */
  async function connect(req: ConnectRequest, ctx: OpContext, signal: AbortSignal): Promise<{ url: URL; headers: Readonly<Record<string, string>> }> {
    const inject = async (url: URL, headers: Map<string, string>): Promise<ReadonlyMap<string, string | undefined>> => {
      try {
        return await injector.apply(url, 'GET', headers, ctx.policy.redactor, signal);
      } catch (e) {
        if (e instanceof TokenAcquisitionError) throw new OpError(e.message, 'TypeError', 'ERR_RUNJS_CREDENTIAL_INJECTION');
        throw e;
      }
    };
    const headers = new Map<string, string>(req.headers);
    const injected = await inject(req.url, headers);
    const hop = await decide(websocketInput(req.url, req.protocols, Object.fromEntries(headers)), ctx, signal);
    if (hop.url.hostname === req.url.hostname) return hop;
    // A pre hook sent the handshake elsewhere: the rules of the host it now goes to apply, not the first one's.
    const rewritten = new Map(Object.entries(hop.headers).map(([k, v]) => [k.toLowerCase(), v]));
    undoInjection(rewritten, injected);
    await inject(hop.url, rewritten);
    return { url: hop.url, headers: Object.fromEntries(rewritten) };
  }

  function socketOf(ctx: OpContext, args: unknown, op: string): Socket {
    const id = record(args, op)['id'];
    const s = typeof id === 'number' ? ctx.resources.get(SOCKETS).open.get(id) : undefined;
    if (s === undefined) throw new OpError('runjs: this WebSocket belongs to an earlier run or has closed', 'TypeError', 'ERR_RUNJS_WEBSOCKET_LOST');
    return s;
  }

  return {
    /** {url: a ws(s) URL, protocols: string[], headers?: [name, value][]} → socket id; the connection is made in the background. */
    'websocket.open': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const req = checkConnect(record(args, 'websocket.open'));
        const runs = ctx.resources.get(SOCKETS);
        const traffic = ctx.resources.get(TRAFFIC);
        let live = 0;
        for (const s of runs.open.values()) if (s.live) live++;
        const refused = live >= limits.maxOpen
          ? new OpError(`WebSocket failed: more than ${limits.maxOpen} WebSockets of this execution are open at once; close earlier ones first`, 'Error', 'ERR_RUNJS_WEBSOCKET_LIMIT')
          : undefined;
        const id = runs.next++;
        const conn = connection(runs);
        runs.open.set(id, new Socket(req, {
          dispatcher: conn.dispatcher,
          pause: conn.pause,
          onEnd: conn.release,
          limits,
          connect: async (r, signal) => {
            const target = await connect(r, ctx, signal);
            // Allowed: a connection is attempted (the decision log's egress counts it as a request).
            ctx.policy.countEgress('websocket', { requests: 1 });
            return target;
          },
          countSent: (n) => {
            traffic.sentBytes += n;
            ctx.policy.countEgress('websocket', { sent_bytes: n });
          },
          countReceived: (n) => (ctx.policy.countEgress('websocket', { received_bytes: n }), countReceived(traffic, n, fetchLimits.maxResponseBytesPerRun)
            ? undefined
            : new OpError(`WebSocket failed: the execution received more than ${fetchLimits.maxResponseBytesPerRun} bytes from the network (the per-execution limit, shared with fetch response bodies)`, 'Error', 'ERR_RUNJS_WEBSOCKET_LIMIT')),
        }, refused));
        return id;
      },
    },
    /** → the socket's next event: a binary message as bytes, else {type: open|text|error|close, …}. */
    'websocket.next': {
      kind: 'async',
      async run(args, _bytes, ctx, signal) {
        const s = socketOf(ctx, args, 'websocket.next');
        const event = await s.next(signal);
        if (s.drained) ctx.resources.get(SOCKETS).open.delete((args as { id: number }).id);
        return event;
      },
    },
    /** {id, text: true} with the message's UTF-8 bytes, or {id} with a binary message's bytes. */
    'websocket.send': {
      kind: 'sync',
      run(args, bytes, ctx) {
        const a = record(args, 'websocket.send');
        const s = socketOf(ctx, a, 'websocket.send');
        const data = bytes === undefined ? Buffer.alloc(0) : Buffer.from(bytes);
        s.send(a['text'] === true ? data.toString('utf8') : data);
      },
    },
    /**
     * {id, code?, reason?, connecting?}: the guest checked code and reason as the standard says;
     * `connecting` when the script closed before it saw `open` (the connection then fails).
     */
    'websocket.close': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const a = record(args, 'websocket.close');
        const code = a['code'];
        const reason = a['reason'];
        socketOf(ctx, a, 'websocket.close').close(typeof code === 'number' ? code : undefined, typeof reason === 'string' ? reason : '', a['connecting'] === true);
      },
    },
    /** → bytes queued by send() and not yet handed to the network. */
    'websocket.buffered': {
      kind: 'sync',
      run(args, _bytes, ctx) {
        const a = record(args, 'websocket.buffered');
        const id = a['id'];
        const s = typeof id === 'number' ? ctx.resources.get(SOCKETS).open.get(id) : undefined;
        return s?.bufferedAmount ?? 0;
      },
    },
  };
}
