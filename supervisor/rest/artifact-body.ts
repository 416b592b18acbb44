// An artifact upload body as a stream of chunks for the blob store (ArtifactService.putStream),
// so a 16 MiB upload is never held whole: the reader pulls one chunk at a time and the request
// is paused in between (back-pressure to the client). The cap is enforced as chunks arrive, and
// an upload that stops sending for UPLOAD_IDLE_MS fails, so a stalled client cannot hold its
// one-time token in flight (and its temp file open) until Node's request timeout.
//
// Not `for await (… of req)`: leaving that loop early destroys the socket, and the client would
// never see the 413 this route answers while the body is still coming.
import type { IncomingMessage } from 'node:http';
import { RunjsError } from '../../shared/errors.ts';
import { checkDeclaredLength, listenBody } from './read-body.ts';

export const UPLOAD_IDLE_MS = 30_000;

/**
 * The body's chunks. Throws RunjsError BODY_TOO_LARGE (413) past `limit` bytes (the rest of the body is then
 * dropped unread), 400 when the client disconnects early or sends nothing for `idleMs`.
 */
export async function* bodyChunks(req: IncomingMessage, limit: number, idleMs = UPLOAD_IDLE_MS): AsyncGenerator<Uint8Array> {
  checkDeclaredLength(req, limit);
  const queue: Buffer[] = [];
  let ended = false;
  let failure: RunjsError | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const stop = listenBody(req, {
    data(chunk) {
      queue.push(chunk);
      req.pause();
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    abort() {
      failure ??= new RunjsError('BODY_INCOMPLETE');
      notify();
    },
  });
  let size = 0;
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk !== undefined) {
        size += chunk.length;
        if (size > limit) throw new RunjsError('BODY_TOO_LARGE', limit);
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (ended) return;
      req.resume();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          failure ??= new RunjsError('BODY_STALLED', idleMs);
          notify();
        }, idleMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    stop();
    // Whatever is left unread (over the cap, a failed store write) flows on and is dropped; the
    // router cuts a client that keeps sending after the error reply (drainThenClose).
    if (!ended) req.resume();
  }
}
