// One hop of a fetch on the host: the request sent with undici's `dispatcher.request` (the
// dispatcher's own API, below its `fetch`), and the response as the exchange needs it. undici's
// `fetch` built a WHATWG Request, Response, Headers and body stream on the host only for the
// exchange to take them apart again for the guest, which builds its own: ≈ 0.5 ms of the worker's
// main thread per request (docs/benchmarks.md, net). What its fetch did for us is kept here, as
// Node's fetch does it: the Fetch Standard's blocked ports, the default request headers, content
// decoding, the reason phrase, null bodies, and errors whose `cause` has the failure's code.
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw, createZstdDecompress, type ZlibOptions } from 'node:zlib';
import { Transform, type TransformCallback } from 'node:stream';
import type { Agent } from 'undici';

/** Ports the Fetch Standard blocks ("bad port"), as undici's fetch refuses them. */
const BAD_PORTS = new Set([
  '0', '1', '7', '9', '11', '13', '15', '17', '19', '20', '21', '22', '23', '25', '37', '42', '43', '53', '69', '77', '79',
  '87', '95', '101', '102', '103', '104', '109', '110', '111', '113', '115', '117', '119', '123', '135', '137', '139', '143',
  '161', '179', '389', '427', '465', '512', '513', '514', '515', '526', '530', '531', '532', '540', '548', '554', '556', '563',
  '587', '601', '636', '989', '990', '993', '995', '1719', '1720', '1723', '2049', '3659', '4045', '4190', '5060', '5061',
  '6000', '6566', '6665', '6666', '6667', '6668', '6669', '6679', '6697', '10080',
]);

/** Statuses whose response has no body (Fetch Standard "null body status"), and 1xx that undici passes on. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Content codings stacked deeper than this are refused (undici's fetch: resource exhaustion). */
const MAX_CONTENT_ENCODINGS = 5;

export type ReadResult = { readonly done: true; readonly value?: undefined } | { readonly done: false; readonly value: Uint8Array };

/** A response body read on demand: nothing is read ahead beyond the stream's own buffer. */
export interface HopBody {
  read(): Promise<ReadResult>;
  /** Stops the body: a response not read to its end has its socket destroyed (never pooled half read). */
  cancel(): void;
}

export interface HopResponse {
  readonly status: number;
  readonly statusText: string;
  /** Lowercased names sorted as a `Headers` iterates them: repeated fields joined by ", ", `set-cookie` kept apart. */
  readonly headers: [string, string][];
  /** The request's URL without its fragment (a fetch Response's `url`). */
  readonly url: string;
  readonly body: HopBody | null;
}

/** A failure a fetch reports as `TypeError: fetch failed` with this cause. */
export class HopError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

/**
 * The headers undici's fetch adds to what the script sent (names lowercased, no duplicates):
 * `sec-fetch-mode` is always `cors`; the others only fill a header the script did not set.
 */
export function withDefaultHeaders(url: URL, method: string, headers: ReadonlyMap<string, string>, body: number | 'stream' | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) out[k] = k === 'sec-fetch-mode' ? 'cors' : v;
  out['accept'] ??= '*/*';
  out['accept-language'] ??= '*';
  out['sec-fetch-mode'] = 'cors';
  out['user-agent'] ??= 'undici';
  if (headers.has('range') && !headers.has('accept-encoding')) out['accept-encoding'] = 'identity';
  out['accept-encoding'] ??= url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate';
  // `body`: its length, or a stream (sent chunked, no length), or none (POST and PUT say 0).
  const length = body === 'stream' ? null : body ?? (method === 'POST' || method === 'PUT' ? 0 : null);
  if (length !== null) out['content-length'] ??= String(length);
  return out;
}

/** Response header fields as a fetch `Headers` lists them. */
function headerPairs(raw: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name of Object.keys(raw).sort()) {
    const v = raw[name];
    if (v === undefined) continue;
    const key = name.toLowerCase();
    if (key === 'set-cookie' && Array.isArray(v)) for (const c of v) pairs.push([key, c]);
    else pairs.push([key, Array.isArray(v) ? v.join(', ') : v]);
  }
  return pairs;
}

/** zlib or raw deflate, told apart by the first byte as undici's fetch does (servers send either). */
class Inflate extends Transform {
  readonly #options: ZlibOptions;
  #inner: Transform | undefined;
  constructor(options: ZlibOptions) {
    super();
    this.#options = options;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.#inner === undefined) {
      if (chunk.length === 0) { done(); return; }
      const inner = (chunk[0]! & 0x0f) === 0x08 ? createInflate(this.#options) : createInflateRaw(this.#options);
      inner.on('data', (d: Buffer) => this.push(d));
      inner.on('end', () => this.push(null));
      inner.on('error', (e) => this.destroy(e));
      this.#inner = inner;
    }
    this.#inner.write(chunk, done);
  }
  override _flush(done: TransformCallback): void {
    // Ends with the inner stream's 'end' (which pushes null), so every decoded byte is out first.
    if (this.#inner === undefined) { done(); return; }
    this.#inner.once('end', () => done());
    this.#inner.end();
  }
}

/** The decoders for a `content-encoding` value, outermost last; [] when a coding is unknown (the body stays as sent). */
function decoders(contentEncoding: string): Transform[] {
  const codings = contentEncoding.toLowerCase().split(',');
  if (codings.length > MAX_CONTENT_ENCODINGS) {
    throw new HopError(`too many content-encodings in response: ${codings.length}, maximum allowed is ${MAX_CONTENT_ENCODINGS}`);
  }
  const sync = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
  const out: Transform[] = [];
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') out.push(createGunzip(sync));
    else if (coding === 'deflate') out.push(new Inflate(sync));
    else if (coding === 'br') out.push(createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH }));
    else if (coding === 'zstd') out.push(createZstdDecompress({ flush: constants.ZSTD_e_continue, finishFlush: constants.ZSTD_e_end }));
    else return [];
  }
  return out;
}

/** `body` (undici's response stream) read chunk by chunk through `decoding`. */
function hopBody(body: Readable, decoding: Transform[]): HopBody {
  // Every stream gets an error listener: an abort (the run's byte budget, its end) destroys them
  // with an error, which must never become an uncaught 'error' event in the worker.
  const ignore = (): void => {};
  body.on('error', ignore);
  for (const d of decoding) d.on('error', ignore);
  const last: Readable = decoding.length === 0 ? body : decoding.at(-1)!;
  if (decoding.length > 0) pipeline([body, ...decoding], ignore);
  const chunks = last[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return {
    async read() {
      const r = await chunks.next();
      return r.done === true ? { done: true } : { done: false, value: r.value };
    },
    cancel() {
      body.destroy();
      for (const d of decoding) d.destroy();
    },
  };
}

/** Sends one hop. `body`: the request bytes, a stream of them (sent chunked), or none. */
export async function sendHop(dispatcher: Agent, url: URL, method: string, headers: ReadonlyMap<string, string>, body: Uint8Array | ReadableStream<Uint8Array> | null, signal: AbortSignal): Promise<HopResponse> {
  if (BAD_PORTS.has(url.port)) throw new HopError('bad port');
  // An empty query keeps its '?' on the wire, as undici's fetch sends it.
  const query = url.search !== '' ? url.search : url.href.endsWith('?') || url.href.slice(0, url.href.length - url.hash.length).endsWith('?') ? '?' : '';
  const res = await dispatcher.request({
    origin: url.origin,
    path: url.pathname + query,
    method: method as 'GET',
    headers: withDefaultHeaders(url, method, headers, body instanceof Uint8Array ? body.byteLength : body === null ? null : 'stream'),
    body: body instanceof ReadableStream ? Readable.fromWeb(body as NodeReadableStream<Uint8Array>) : body,
    signal,
  });
  const { statusCode: status } = res;
  const responseUrl = new URL(url.href);
  responseUrl.hash = '';
  const head = { status, statusText: res.statusText ?? '', headers: headerPairs(res.headers), url: responseUrl.href };
  if (method === 'HEAD' || NULL_BODY.has(status)) {
    // Read to its end (there is nothing to read), so the socket goes back to the pool.
    res.body.on('error', () => {});
    res.body.dump().catch(() => {});
    return { ...head, body: null };
  }
  const encoding = res.headers['content-encoding'];
  let decoding: Transform[] = [];
  try {
    if (typeof encoding === 'string' && encoding !== '') decoding = decoders(encoding);
  } catch (e) {
    res.body.on('error', () => {});
    res.body.destroy();
    throw e;
  }
  return { ...head, body: hopBody(res.body, decoding) };
}
