// One script's HTTP/2 session and its streams, on the host (Node's node:http2 client). A session is
// decided by policy, then connected (TLS with ALPN h2, or h2c with prior knowledge); each stream
// waits for its session, gets header injection (rules matched against the session's host), is
// decided by policy as it will be sent, then opened. Their events wait in EventQueues until the
// guest takes them (one pending `http2.session_next` / `http2.stream_next` each).
import { connect, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { OpError } from '../op-types.ts';
import { EventQueue } from '../event-queue.ts';
import type { StreamHeaders } from './http2-request.ts';
import type { Http2RequestInput } from './http2-policy.ts';

export type SessionEvent =
  | { readonly type: 'connect'; readonly alpnProtocol: string | null; readonly encrypted: boolean }
  | { readonly type: 'error'; readonly message: string; readonly code?: string }
  | { readonly type: 'goaway'; readonly errorCode: number; readonly lastStreamID: number }
  | { readonly type: 'remoteSettings'; readonly settings: Record<string, unknown> }
  | { readonly type: 'close' };

export type StreamEvent =
  | Uint8Array
  | { readonly type: 'response'; readonly headers: Record<string, unknown>; readonly flags: number }
  | { readonly type: 'headers'; readonly headers: Record<string, unknown>; readonly flags: number }
  | { readonly type: 'trailers'; readonly headers: Record<string, unknown>; readonly flags: number }
  | { readonly type: 'end' }
  | { readonly type: 'error'; readonly message: string; readonly code?: string }
  | { readonly type: 'close'; readonly rstCode: number };

function errorEvent(e: unknown): { type: 'error'; message: string; code?: string } {
  if (e instanceof OpError) return { type: 'error', message: e.message, ...(e.code !== undefined ? { code: e.code } : {}) };
  const code = (e as { code?: unknown } | null)?.code;
  return { type: 'error', message: e instanceof Error ? e.message : String(e), ...(typeof code === 'string' ? { code } : {}) };
}

/** Headers as JSON carries them (symbol keys, such as Node's sensitive-headers list, dropped). */
function plain(h: IncomingHttpHeaders): Record<string, unknown> {
  return Object.fromEntries(Object.entries(h));
}

export interface SessionDeps {
  decide(origin: URL, signal: AbortSignal): Promise<URL>;
  readonly ca: readonly string[] | undefined;
  readonly connectTimeoutMs: number;
}

export class H2Session {
  readonly events = new EventQueue<SessionEvent>();
  /** The origin asked for; after the decision, the one connected to. */
  origin: URL;
  readonly ready: Promise<ClientHttp2Session>;
  readonly #controller = new AbortController();
  #session: ClientHttp2Session | undefined;
  #settle!: { resolve(s: ClientHttp2Session): void; reject(e: unknown): void };
  #ended = false;
  readonly #deps: SessionDeps;

  constructor(origin: URL, deps: SessionDeps, refused?: OpError) {
    this.origin = origin;
    this.#deps = deps;
    this.ready = new Promise((resolve, reject) => { this.#settle = { resolve, reject }; });
    this.ready.catch(() => {}); // streams that wait on it report its failure; nobody else must
    if (refused !== undefined) this.#fail(refused);
    else void this.#connect();
  }

  get live(): boolean {
    return !this.#ended;
  }

  async #connect(): Promise<void> {
    let origin: URL;
    try {
      origin = await this.#deps.decide(this.origin, this.#controller.signal);
    } catch (e) {
      this.#fail(e);
      return;
    }
    if (this.#ended) return;
    this.origin = origin;
    const ca = this.#deps.ca;
    let session: ClientHttp2Session;
    try {
      session = connect(origin, { ...(ca !== undefined ? { ca: [...ca] } : {}), maxSessionMemory: 10 });
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.#session = session;
    const timer = setTimeout(() => this.#fail(new OpError(`http2: connecting to ${origin.origin} took longer than ${this.#deps.connectTimeoutMs} ms`, 'Error', 'ETIMEDOUT')), this.#deps.connectTimeoutMs);
    session.once('connect', () => {
      clearTimeout(timer);
      if (this.#ended) return;
      this.events.push({ type: 'connect', alpnProtocol: session.alpnProtocol ?? null, encrypted: session.encrypted ?? false });
      this.#settle.resolve(session);
    });
    session.on('error', (e) => {
      clearTimeout(timer);
      this.events.push(errorEvent(e));
      this.#settle.reject(e);
    });
    session.on('goaway', (errorCode, lastStreamID) => this.events.push({ type: 'goaway', errorCode, lastStreamID }));
    // gRPC clients wait for the server's SETTINGS before they use a session.
    session.on('remoteSettings', (settings) => this.events.push({ type: 'remoteSettings', settings: { ...settings } }));
    session.once('close', () => {
      clearTimeout(timer);
      this.#settle.reject(new OpError('http2: the session closed', 'Error', 'ERR_HTTP2_INVALID_SESSION'));
      this.#end();
    });
  }

  /** The script's close(): graceful (streams finish) or, with `destroy`, at once. */
  close(destroy: boolean, code?: number): void {
    if (this.#ended) return;
    const s = this.#session;
    if (s === undefined) {
      this.#controller.abort();
      this.#settle.reject(new OpError('http2: the session was closed before it connected', 'Error', 'ERR_HTTP2_INVALID_SESSION'));
      this.#end();
      return;
    }
    if (destroy) s.destroy(undefined, code);
    else s.close();
  }

  /** The run has ended. */
  terminate(): void {
    this.#controller.abort();
    this.#ended = true;
    this.events.clear();
    this.#settle.reject(new OpError('http2: the run ended', 'Error'));
    this.#session?.destroy();
  }

  #fail(e: unknown): void {
    if (this.#ended) return;
    this.events.push(errorEvent(e));
    this.#settle.reject(e);
    this.#session?.destroy();
    this.#end();
  }

  #end(): void {
    if (this.#ended) return;
    this.events.push({ type: 'close' }, true);
    this.#ended = true;
    this.#controller.abort();
  }
}

export interface StreamDeps {
  /** Header injection for the session's host: changes `headers` in place. */
  inject(url: URL, method: string, headers: Map<string, string>, signal: AbortSignal): Promise<void>;
  decide(input: Http2RequestInput, signal: AbortSignal): Promise<Http2RequestInput>;
  /** The stream was allowed and is sent. */
  countRequest(): void;
  countSent(n: number): void;
  /** Counts received body bytes; an OpError when the run's budget is spent. */
  countReceived(n: number): OpError | undefined;
}

export class H2Stream {
  readonly events: EventQueue<StreamEvent>;
  readonly #controller = new AbortController();
  readonly #deps: StreamDeps;
  #stream: ClientHttp2Stream | undefined;
  /** Writes made before the stream was opened, with their completions. */
  readonly #pending: { data: Uint8Array; done: () => void }[] = [];
  #endRequested = false;
  #ended = false;

  constructor(session: H2Session, req: StreamHeaders, endStream: boolean, deps: StreamDeps, refused?: OpError) {
    this.#deps = deps;
    this.#endRequested = endStream;
    this.events = new EventQueue({
      pause: (paused) => {
        if (paused) this.#stream?.pause();
        else this.#stream?.resume();
      },
    });
    if (refused !== undefined) this.#fail(refused);
    else void this.#open(session, req);
  }

  get live(): boolean {
    return !this.#ended;
  }

  async #open(session: H2Session, req: StreamHeaders): Promise<void> {
    let h2: ClientHttp2Session;
    let input: Http2RequestInput;
    try {
      h2 = await session.ready;
      const scheme = session.origin.protocol.slice(0, -1);
      const headers = new Map(req.headers);
      // Rules match the session's host, whatever :authority the stream names.
      await this.#deps.inject(new URL(req.path.startsWith('/') ? req.path : '/', session.origin), req.method, headers, this.#controller.signal);
      input = await this.#deps.decide({
        operation: 'request', scheme, authority: req.authority ?? session.origin.host, method: req.method, path: req.path, headers: Object.fromEntries(headers),
      }, this.#controller.signal);
    } catch (e) {
      this.#fail(e);
      return;
    }
    if (this.#ended) return;
    const out: OutgoingHttpHeaders = { ':method': input.method, ':path': input.path, ':authority': input.authority, ':scheme': input.scheme, ...input.headers };
    let stream: ClientHttp2Stream;
    try {
      stream = h2.request(out, { endStream: false });
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.#deps.countRequest();
    this.#stream = stream;
    stream.on('response', (headers, flags) => this.events.push({ type: 'response', headers: plain(headers), flags }));
    stream.on('headers', (headers, flags) => this.events.push({ type: 'headers', headers: plain(headers), flags }));
    stream.on('trailers', (headers, flags) => this.events.push({ type: 'trailers', headers: plain(headers), flags }));
    stream.on('data', (chunk: Buffer) => {
      const over = this.#deps.countReceived(chunk.byteLength);
      if (over !== undefined) {
        this.#fail(over);
        return;
      }
      this.events.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    });
    stream.on('end', () => this.events.push({ type: 'end' }));
    stream.on('error', (e) => this.events.push(errorEvent(e)));
    stream.once('close', () => this.#end(stream.rstCode ?? 0));
    for (const w of this.#pending.splice(0)) this.#write(stream, w.data, w.done);
    if (this.#endRequested) stream.end();
  }

  #write(stream: ClientHttp2Stream, data: Uint8Array, done: () => void): void {
    if (stream.destroyed || stream.writableEnded) {
      done();
      return;
    }
    this.#deps.countSent(data.byteLength);
    stream.write(data, () => done());
  }

  /** Writes request body bytes; settles once they are handed to the session (backpressure for the guest). */
  write(data: Uint8Array): Promise<void> {
    return new Promise((resolve) => {
      if (this.#ended || this.#endRequested) {
        resolve();
        return;
      }
      const s = this.#stream;
      if (s === undefined) this.#pending.push({ data, done: resolve });
      else this.#write(s, data, resolve);
    });
  }

  /** Ends the request body. */
  end(): void {
    if (this.#endRequested) return;
    this.#endRequested = true;
    this.#stream?.end();
  }

  /** The script's close(code) / destroy(): RST_STREAM with `code`. */
  close(code: number): void {
    if (this.#ended) return;
    const s = this.#stream;
    if (s === undefined) {
      this.#controller.abort();
      this.#end(code);
      return;
    }
    s.close(code);
  }

  terminate(): void {
    this.#controller.abort();
    this.#ended = true;
    this.events.clear();
    for (const w of this.#pending.splice(0)) w.done();
    this.#stream?.destroy();
  }

  #fail(e: unknown): void {
    if (this.#ended) return;
    this.events.push(errorEvent(e));
    const s = this.#stream;
    if (s !== undefined && !s.destroyed) {
      s.close(8); // NGHTTP2_CANCEL; its close event ends the queue
      return;
    }
    this.#end(8);
  }

  #end(rstCode: number): void {
    if (this.#ended) return;
    this.events.push({ type: 'close', rstCode }, true);
    this.#ended = true;
    this.#controller.abort();
    for (const w of this.#pending.splice(0)) w.done();
  }
}
