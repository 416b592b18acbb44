// fetch() (Fetch Standard, Node's flavour): the request is sent by the host (worker/ops/fetch/),
// which decides every hop by policy and follows redirects itself; the response body streams in as
// the script reads it. Errors have Node's shape: `TypeError: fetch failed` with the reason as
// `cause`; a policy denial is a TypeError naming the policy and its reason; an abort rejects with
// the signal's reason.
import core from 'runjs:part/core';
import { Request } from './request.js';
import { networkResponse } from './response.js';
import { bodyOf } from './body.js';

const { op, opAsync, requirePart } = core.shared;
const NULL_BODY = [101, 103, 204, 205, 304];
/** The realm's next exchange id: the guest names its exchanges, so one op can start and answer one. */
let nextId = 1;

/** An op failure as the script should see it. */
function guestError(e) {
  if (e !== null && typeof e === 'object' && e.name === 'FetchFailed') {
    const cause = new Error(e.message);
    if (e.code !== undefined) cause.code = e.code;
    return new TypeError('fetch failed', { cause });
  }
  return e;
}

function abortError(signal) {
  return signal.reason;
}

/** Streams a ReadableStream request body to the host, chunk by chunk, with its backpressure. */
async function pump(id, stream) {
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!ArrayBuffer.isView(value)) throw new TypeError('fetch failed: the request body stream yielded a non-Uint8Array chunk');
    await opAsync('fetch.write', { id }, new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  }
  op('fetch.end', { id });
}

export async function fetch(input, init = undefined) {
  const request = new Request(input, init);
  const signal = request.signal;
  if (signal.aborted) throw abortError(signal);
  const body = bodyOf(request);
  if (body.used) throw new TypeError('fetch failed: the request body has already been read');
  const kind = body.stream !== null ? 'stream' : body.bytes !== null ? 'bytes' : 'none';
  body.used = kind !== 'none';
  const id = nextId++;
  const args = { id, url: request.url, method: request.method, headers: [...request.headers], redirect: request.redirect, body: kind };
  // A body that is not a stream goes with the request, and one op starts the exchange and answers
  // its head (one round trip to the host); a streamed body is pumped between the two.
  let answer;
  if (kind === 'stream') op('fetch.open', args);
  else answer = opAsync('fetch.request', args, kind === 'bytes' ? body.bytes : undefined);
  let settled = false;
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => {
      op('fetch.abort', { id });
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});
  if (kind === 'stream') {
    pump(id, body.stream).catch((e) => { if (!settled) op('fetch.abort', { id, reason: String(e?.message ?? e) }); });
    answer = opAsync('fetch.response', { id });
  }
  let head;
  try {
    head = await Promise.race([answer, aborted]);
  } catch (e) {
    signal.removeEventListener('abort', onAbort);
    throw guestError(e);
  } finally {
    settled = true;
  }
  const hasBody = request.method !== 'HEAD' && !NULL_BODY.includes(head.status);
  let stream = null;
  let bytes = null;
  if (hasBody && head.done === true) {
    // The whole body came with the head (the host's exchange is over): it stays bytes, as a
    // `new Response(bytes)` body does, so text()/json() need neither a read op nor the streams
    // part; `res.body` makes its stream on first access.
    signal.removeEventListener('abort', onAbort);
    bytes = head.bytes ?? new Uint8Array(0);
  } else if (hasBody) {
    const { ReadableStream } = requirePart('streams').globals;
    // Body bytes that came with the head start the stream.
    const early = head.bytes;
    stream = new ReadableStream({
      start(controller) {
        if (early !== undefined && early.byteLength > 0) controller.enqueue(early);
      },
      async pull(controller) {
        let chunk;
        try {
          chunk = await Promise.race([opAsync('fetch.read', { id }), aborted]);
        } catch (e) {
          signal.removeEventListener('abort', onAbort);
          controller.error(guestError(e));
          return;
        }
        if (chunk === null) {
          signal.removeEventListener('abort', onAbort);
          controller.close();
        } else controller.enqueue(chunk);
      },
      cancel(reason) {
        signal.removeEventListener('abort', onAbort);
        op('fetch.abort', { id, reason: String(reason ?? 'cancelled') });
      },
    }, { highWaterMark: 0 });
  } else {
    signal.removeEventListener('abort', onAbort);
    op('fetch.abort', { id });
  }
  return networkResponse({ status: head.status, statusText: head.statusText, headers: head.headers, url: head.url, redirected: head.redirected, body: stream, bytes });
}
