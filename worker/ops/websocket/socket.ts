// One `new WebSocket()` of a script, on the host: the policy decision and header injection (the
// `connect` dependency), then undici's WebSocket, whose events are queued here until the guest
// takes them one at a time (`next`). A failure the host decides (a denial, the handshake timeout,
// the run's receive budget, a socket over the per-run cap) ends the socket as the standard ends a
// failed connection: an `error` event (with runjs's message), then `close` with code 1006; undici's
// own events for it are dropped.
import type { WebSocket as UndiciWebSocket, Dispatcher } from 'undici';
import { undici } from '../../network/undici.ts';
import type { WebSocketLimits } from '../../../shared/worker-settings.ts';
import { OpError } from '../op-types.ts';
import { EventQueue } from '../event-queue.ts';
import type { ConnectRequest } from './websocket-request.ts';

/**
 * What the guest receives from `websocket.next`: a binary message as its bytes, everything else
 * as a record.
 */
export type SocketEvent =
  | Uint8Array
  | { readonly type: 'open'; readonly protocol: string; readonly extensions: string }
  | { readonly type: 'text'; readonly data: string }
  | { readonly type: 'error'; readonly message: string; readonly code?: string }
  | { readonly type: 'close'; readonly code: number; readonly reason: string; readonly wasClean: boolean };

export interface SocketDeps {
  /** The socket's own dispatcher (made when the policy has allowed it): its one TCP connection is this socket's. */
  dispatcher(): Dispatcher;
  /** Stops (true) or restarts reading the socket's TCP connection: backpressure while the guest is behind. */
  pause(paused: boolean): void;
  /** The socket has closed: its dispatcher (if it got one) can go. */
  onEnd(): void;
  readonly limits: WebSocketLimits;
  /**
   * Header injection and the policy decision for the handshake: the URL and headers to connect
   * with. Rejects with an OpError (a denial is a PolicyDeniedError) whose message the script sees.
   */
  connect(req: ConnectRequest, signal: AbortSignal): Promise<{ url: URL; headers: Readonly<Record<string, string>> }>;
  countSent(n: number): void;
  /** Counts a received message; an OpError when the run's receive budget is spent. */
  countReceived(n: number): OpError | undefined;
}

type Phase = 'connecting' | 'open' | 'closing' | 'closed';

/** The error event of a failure the host decided. */
function errorEvent(e: unknown): SocketEvent {
  if (e instanceof OpError) return { type: 'error', message: e.message, ...(e.code !== undefined ? { code: e.code } : {}) };
  return { type: 'error', message: e instanceof Error ? e.message : String(e) };
}

const ABNORMAL = { type: 'close', code: 1006, reason: '', wasClean: false } as const;

/** Bytes a queued event holds: a binary message's length, a text message's UTF-16 size. */
function sizeOf(e: SocketEvent): number {
  if (e instanceof Uint8Array) return e.byteLength;
  return e.type === 'text' ? e.data.length * 2 : 0;
}

export class Socket {
  readonly #deps: SocketDeps;
  /**
   * Events for the guest's pending `websocket.next`; ended once the close event is queued. Past
   * the high-water mark the connection is not read (TCP pushes back on the server) until the
   * guest has caught up: what a fast server costs the host is that, the message in flight, and
   * the kernel's buffers.
   */
  readonly #events: EventQueue<SocketEvent>;
  #ws: UndiciWebSocket | undefined;
  #phase: Phase = 'connecting';
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** A socket that starts connecting (or, with `refused`, has already failed with that error). */
  constructor(req: ConnectRequest, deps: SocketDeps, refused?: OpError) {
    this.#deps = deps;
    this.#events = new EventQueue<SocketEvent>({ pause: deps.pause, size: sizeOf });
    if (refused !== undefined) {
      this.#fail(refused);
      return;
    }
    this.#timer = setTimeout(() => {
      this.#fail(new OpError(`WebSocket handshake with ${req.url.href} did not complete within ${deps.limits.handshakeTimeoutMs} ms`, 'Error', 'ERR_RUNJS_WEBSOCKET_TIMEOUT'));
    }, deps.limits.handshakeTimeoutMs);
    void this.#connect(req);
  }

  /** Whether the socket still holds (or may still open) a connection: it counts against the per-run cap. */
  get live(): boolean {
    return !this.#events.ended;
  }

  /** Whether the guest has taken the close event: the socket can be forgotten. */
  get drained(): boolean {
    return this.#events.drained;
  }

  get bufferedAmount(): number {
    return this.#ws?.bufferedAmount ?? 0;
  }

  async #connect(req: ConnectRequest): Promise<void> {
    let target: { url: URL; headers: Readonly<Record<string, string>> };
    try {
      target = await this.#deps.connect(req, this.#controller.signal);
    } catch (e) {
      this.#fail(e);
      return;
    }
    if (this.#events.ended || this.#phase !== 'connecting') return;
    let ws: UndiciWebSocket;
    try {
      ws = new (undici().WebSocket)(target.url, { protocols: [...req.protocols], dispatcher: this.#deps.dispatcher(), headers: { ...target.headers } });
    } catch (e) {
      this.#fail(new OpError(e instanceof Error ? e.message : String(e), 'Error'));
      return;
    }
    this.#ws = ws;
    ws.binaryType = 'arraybuffer';
    ws.addEventListener('open', () => {
      if (this.#events.ended) return;
      clearTimeout(this.#timer);
      if (this.#phase === 'connecting') this.#phase = 'open';
      this.#events.push({ type: 'open', protocol: ws.protocol, extensions: ws.extensions });
    });
    ws.addEventListener('message', (ev) => {
      if (this.#events.ended) return;
      const data: unknown = ev.data;
      const event: SocketEvent = typeof data === 'string' ? { type: 'text', data } : new Uint8Array(data as ArrayBuffer);
      const over = this.#deps.countReceived(typeof data === 'string' ? Buffer.byteLength(data) : (event as Uint8Array).byteLength);
      if (over !== undefined) {
        this.#fail(over);
        return;
      }
      this.#events.push(event);
    });
    ws.addEventListener('error', (ev) => {
      if (this.#events.ended) return;
      const err = (ev as { error?: unknown }).error;
      const message = (ev as { message?: unknown }).message;
      const text = typeof message === 'string' && message !== '' ? message : err instanceof Error ? err.message : '';
      this.#events.push({ type: 'error', message: text });
    });
    ws.addEventListener('close', (ev) => {
      if (this.#events.ended) return;
      this.#end({ type: 'close', code: ev.code, reason: ev.reason, wasClean: ev.wasClean });
    });
  }

  /** The next event; one caller at a time (the guest's one pending `websocket.next`). */
  next(signal: AbortSignal): Promise<SocketEvent> {
    return this.#events.next(signal, 'websocket.next', 'websocket.next: the socket has closed');
  }

  /** Sends a message (text or binary); ignored unless the socket is open (the guest throws while connecting). */
  send(data: string | Uint8Array): void {
    const ws = this.#ws;
    if (ws === undefined || this.#phase !== 'open' || this.#events.ended) return;
    this.#deps.countSent(typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);
    ws.send(data);
  }

  /**
   * The script's close(): the closing handshake when open; while connecting (the policy decision
   * included), the connection fails (error, then close 1006) as the standard says. `connecting`:
   * the script had not seen `open` yet — what it saw decides, even if the handshake has completed
   * here meanwhile (its open event is still on the way).
   */
  close(code: number | undefined, reason: string, connecting: boolean): void {
    if (this.#events.ended || this.#phase === 'closing' || this.#phase === 'closed') return;
    const ws = this.#ws;
    if (this.#phase === 'connecting' || connecting) {
      this.#fail(new OpError('WebSocket was closed before the connection was established', 'Error'));
      return;
    }
    this.#phase = 'closing';
    try {
      ws?.close(code, reason);
    } catch (e) {
      this.#fail(new OpError(e instanceof Error ? e.message : String(e), 'Error'));
    }
  }

  /** The run has ended: the closing handshake is started (the caller destroys the TCP sockets after a grace). */
  terminate(): void {
    this.#controller.abort();
    clearTimeout(this.#timer);
    this.#events.clear();
    try { this.#ws?.close(); } catch { /* already closing */ }
  }

  /** A failure the host decided: error then close 1006; the connection (if any) is dropped. */
  #fail(e: unknown): void {
    if (this.#events.ended) return;
    this.#events.push(errorEvent(e));
    this.#end(ABNORMAL);
    this.#controller.abort();
    try { this.#ws?.close(); } catch { /* already closing */ }
  }

  #end(close: SocketEvent): void {
    clearTimeout(this.#timer);
    this.#phase = 'closed';
    this.#events.push(close, true);
    this.#deps.onEnd();
  }
}
