// One fetch() call on the host: the policy decision and the request for each hop (redirects are
// followed here, never by undici, so every hop is decided again — a redirect to a host the policy
// refuses is refused), a streamed request body, and the response body read chunk by chunk as the
// guest asks for it (nothing is read ahead beyond undici's own buffer).
import type { Agent } from 'undici';
import type { FetchLimits } from '../../../shared/worker-settings.ts';
import { OpError } from '../op-types.ts';
import type { FetchRequest } from './fetch-request.ts';
import { fetchInput, type DecidedRequest, type FetchInput } from './fetch-policy.ts';
import { undoInjection, type Injected } from '../../network/header-injection.ts';
import type { FilteredResponse } from './fetch-post.ts';
import { HopError, sendHop, type HopResponse, type ReadResult } from './http-hop.ts';

interface Outcome { readonly res: HopResponse; readonly redirected: boolean; readonly input: FetchInput }

export interface ExchangeDeps {
  /** The worker's connection pool (undici), shared by its runs (docs/network.md, Connections). */
  readonly dispatcher: Agent;
  readonly limits: FetchLimits;
  /** The policy's decision for one hop: the request to make (pre hooks may rewrite it); a denial rejects. */
  decide(input: FetchInput, signal: AbortSignal): Promise<DecidedRequest>;
  /**
   * Header injection for one hop (worker/network/header-injection.ts): adds the rules' headers for
   * `url`'s host and `method` to `headers` and says what it changed. Rejects with an OpError.
   */
  inject(url: URL, method: string, headers: Map<string, string>, signal: AbortSignal): Promise<Injected>;
  /**
   * The category's post hooks, when there are any: given the final response and its whole body
   * (buffered here, within the response budget) and the last hop's input, the response the script gets.
   */
  readonly post?: (head: ResponseHead, body: Uint8Array, input: FetchInput, signal: AbortSignal) => Promise<FilteredResponse>;
  /** A hop is about to be sent (counted whether or not it gets an answer). */
  countRequest(): void;
  countRequestBytes(n: number): void;
  /** Throws (an OpError) when the run's response budget is spent. */
  countResponseBytes(n: number): void;
  /** The exchange is over (body read to its end, failed or aborted). */
  onDone(): void;
}

export interface ResponseHead {
  readonly status: number;
  readonly statusText: string;
  readonly headers: [string, string][];
  readonly url: string;
  readonly redirected: boolean;
}

/** The body bytes that had already arrived with the head, and whether that was all of it. */
export interface EarlyBody {
  readonly bytes: Uint8Array;
  /** The body ended: the guest needs no fetch.read at all (a small response costs one round trip). */
  readonly done: boolean;
}

/** At most this much of a body rides along with the head (the rest is read chunk by chunk). */
const EARLY_BODY_BYTES = 256 * 1024;
const NOT_READY = Symbol('not ready');

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The guest turns this into `TypeError: fetch failed` with `cause` (Node's shape). */
function fetchFailed(cause: string, code?: string): OpError {
  return new OpError(cause, 'FetchFailed', code);
}

/**
 * A failure of undici's `request` (or of a body stream) as fetch reports it: the error itself is
 * what Node's fetch gives as `cause` (`connect ECONNREFUSED …` with its `code`).
 */
function causeOf(e: unknown): OpError {
  if (e instanceof OpError) return e;
  if (e instanceof HopError) return fetchFailed(e.message, e.code);
  const err = e as { name?: unknown; message?: unknown; code?: unknown };
  if (err?.name === 'AbortError') return new OpError('This operation was aborted', 'AbortError');
  return fetchFailed(typeof err?.message === 'string' ? err.message : String(e), typeof err?.code === 'string' ? err.code : undefined);
}

export class Exchange {
  readonly #deps: ExchangeDeps;
  readonly #controller = new AbortController();
  /** The request body's stream controller, for bodies that arrive in fetch.write calls. */
  #upload: ReadableStreamDefaultController<Uint8Array> | undefined;
  #uploadWaiters: (() => void)[] = [];
  readonly #result: Promise<Outcome>;
  /** The whole body a post hook passed (or rewrote); served by read() instead of the network's. */
  #filtered: Uint8Array | null | undefined;
  /** A read started while looking for body bytes that came with the head, not yet settled. */
  #pendingRead: Promise<ReadResult> | undefined;
  #done = false;

  constructor(req: FetchRequest, deps: ExchangeDeps) {
    this.#deps = deps;
    this.#result = this.#run(req);
    // Failures are reported to whoever asks (fetch.response, which then ends the exchange).
    this.#result.catch(() => {});
  }

  async #run(req: FetchRequest): Promise<Outcome> {
    let url = req.url;
    let method = req.method;
    const headers = new Map<string, string>();
    for (const [k, v] of req.headers) {
      const name = k.toLowerCase();
      const prev = headers.get(name);
      headers.set(name, prev === undefined ? v : `${prev}, ${v}`);
    }
    let body: Uint8Array | ReadableStream<Uint8Array> | null = req.body.kind === 'bytes' ? req.body.bytes : req.body.kind === 'stream' ? this.#uploadStream() : null;
    let redirected = false;
    for (let hops = 0; ; hops++) {
      // Injection first: the policy decides the request as it will be sent (its log redacts the values).
      let injected = await this.#deps.inject(url, method, headers, this.#controller.signal);
      const hop = await this.#deps.decide(fetchInput(url, method, Object.fromEntries(headers)), this.#controller.signal);
      const decided = fetchInput(hop.url, hop.method, hop.headers);
      const retarget = hop.url.hostname !== url.hostname || hop.method.toUpperCase() !== method.toUpperCase();
      url = hop.url;
      method = hop.method;
      headers.clear();
      for (const [k, v] of Object.entries(hop.headers)) headers.set(k.toLowerCase(), v);
      if (retarget) {
        // A pre hook sent the request elsewhere: the rules of the host it now goes to apply, not the first one's.
        undoInjection(headers, injected);
        injected = await this.#deps.inject(url, method, headers, this.#controller.signal);
      }
      this.#deps.countRequest();
      if (body instanceof Uint8Array) this.#deps.countRequestBytes(body.byteLength);
      let res: HopResponse;
      try {
        res = await sendHop(this.#deps.dispatcher, url, method, headers, body, this.#controller.signal);
      } catch (e) {
        throw causeOf(e);
      }
      if (!REDIRECTS.has(res.status) || req.redirect === 'manual') return { res, redirected, input: decided };
      const location = res.headers.find(([k]) => k === 'location')?.[1];
      if (location === undefined) return { res, redirected, input: decided };
      res.body?.cancel();
      // Injected headers were meant for this hop's host: the next hop gets its own host's rules.
      undoInjection(headers, injected);
      if (req.redirect === 'error') throw fetchFailed('unexpected redirect');
      if (hops + 1 > this.#deps.limits.maxRedirects) throw fetchFailed('redirect count exceeded');
      const next = URL.parse(location, url.href);
      if (next === null || (next.protocol !== 'http:' && next.protocol !== 'https:')) throw fetchFailed(`URL scheme must be a HTTP(S) scheme (redirect to ${location})`);
      if (body instanceof ReadableStream && res.status !== 303) throw fetchFailed('Cannot follow a redirect with a streamed request body');
      // Fetch Standard, HTTP-redirect fetch: 303 (but HEAD), and 301/302 after POST, become GET without a body.
      if ((res.status === 303 && method !== 'GET' && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = null;
        for (const h of ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length']) headers.delete(h);
      }
      // Credentials meant for one origin never follow a redirect to another.
      if (next.origin !== url.origin) headers.delete('authorization');
      url = next;
      redirected = true;
    }
  }

  #uploadStream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start: (controller) => { this.#upload = controller; },
      pull: () => { for (const w of this.#uploadWaiters.splice(0)) w(); },
      cancel: () => { for (const w of this.#uploadWaiters.splice(0)) w(); },
    }, { highWaterMark: 1 });
  }

  /** Queues a chunk of the request body; resolves when the stream wants more. */
  async write(chunk: Uint8Array): Promise<void> {
    const c = this.#upload;
    if (c === undefined || this.#done) throw new OpError('fetch: the request body is not being streamed', 'TypeError');
    this.#deps.countRequestBytes(chunk.byteLength);
    c.enqueue(new Uint8Array(chunk));
    if ((c.desiredSize ?? 1) <= 0) await new Promise<void>((r) => this.#uploadWaiters.push(r));
  }

  end(): void {
    try { this.#upload?.close(); } catch { /* already closed or errored */ }
  }

  async response(signal: AbortSignal): Promise<ResponseHead> {
    const onAbort = (): void => this.abort(new OpError('runjs: the run has ended', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const { res, redirected, input } = await this.#result;
      const head: ResponseHead = { status: res.status, statusText: res.statusText, headers: res.headers, url: res.url, redirected };
      if (this.#deps.post !== undefined) return await this.#postProcess(head, input);
      if (res.body === null) this.#finish();
      return head;
    } catch (e) {
      this.#finish();
      throw e;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * The body bytes undici already holds (they came with the head: a small response is usually all
   * there), without waiting for more: each read is raced against one turn of the event loop, and
   * one that does not settle in time is kept for the next read(). Counted like any body bytes.
   */
  async earlyBody(): Promise<EarlyBody | undefined> {
    const { res } = await this.#result;
    if (this.#filtered !== undefined) {
      // Post-processed: the whole (rewritten) body is here already.
      const body = this.#filtered;
      this.#filtered = null;
      this.#finish();
      return { bytes: body ?? new Uint8Array(0), done: true };
    }
    const reader = res.body;
    if (reader === null || this.#done) return undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    let done = false;
    while (size < EARLY_BODY_BYTES) {
      const read = this.#pendingRead ?? reader.read();
      this.#pendingRead = read;
      read.catch(() => {}); // a failure is reported by the read() that takes it
      const r = await Promise.race([read, new Promise<typeof NOT_READY>((ok) => setImmediate(() => ok(NOT_READY)))]);
      if (r === NOT_READY) break;
      this.#pendingRead = undefined;
      if (r.done) { done = true; break; }
      this.#count(r.value);
      chunks.push(r.value);
      size += r.value.byteLength;
    }
    if (done) this.#finish();
    if (chunks.length === 0 && !done) return undefined;
    return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), done };
  }

  #count(chunk: Uint8Array): void {
    try {
      this.#deps.countResponseBytes(chunk.byteLength);
    } catch (e) {
      this.abort(e instanceof OpError ? e : causeOf(e));
      throw e;
    }
  }

  /** Reads the whole body for the post hooks and keeps what they leave for read(). */
  async #postProcess(head: ResponseHead, input: FetchInput): Promise<ResponseHead> {
    const chunks: Uint8Array[] = [];
    // The network's end is not the exchange's: the guest still reads what the hooks left.
    for (let c = await this.#next(false); c !== null; c = await this.#next(false)) chunks.push(c);
    const { head: out, body } = await this.#deps.post!(head, Buffer.concat(chunks), input, this.#controller.signal);
    this.#filtered = body;
    if (body.byteLength === 0) this.#finish();
    return out;
  }

  /** The next body chunk, or null at the end. */
  async read(): Promise<Uint8Array | null> {
    if (this.#filtered !== undefined) {
      const body = this.#filtered;
      this.#filtered = null;
      if (body === null || body.byteLength === 0) this.#finish();
      return body === null || body.byteLength === 0 ? null : body;
    }
    return await this.#next();
  }

  /** The next chunk from the network, counted against the run's budget; null at the end. */
  async #next(finishAtEnd = true): Promise<Uint8Array | null> {
    const { res } = await this.#result;
    const reader = res.body;
    if (reader === null || this.#done) return null;
    if (this.#filtered !== undefined) return null; // post-processed: the network body was consumed
    let chunk: ReadResult;
    try {
      const pending = this.#pendingRead;
      this.#pendingRead = undefined;
      chunk = await (pending ?? reader.read());
    } catch (e) {
      this.#finish();
      throw causeOf(e);
    }
    if (chunk.done) {
      if (finishAtEnd) this.#finish();
      return null;
    }
    this.#count(chunk.value);
    return chunk.value;
  }

  abort(reason: OpError): void {
    if (this.#done) return;
    this.#controller.abort(reason);
    try { this.#upload?.error(reason); } catch { /* already closed */ }
    for (const w of this.#uploadWaiters.splice(0)) w();
    // The body (when the head came) is stopped with the request; undici destroys its socket.
    void this.#result.then(({ res }) => res.body?.cancel(), () => {});
    this.#finish();
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#deps.onDone();
  }
}
