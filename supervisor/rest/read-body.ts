// Reads a request body with a byte cap, streaming: at most `limit` bytes are ever held. A body
// declared (Content-Length) or found (while streaming) to be larger fails with 413 at once; the
// router then drops the rest unread (rest-router.ts, drainThenClose).
import type { IncomingMessage } from 'node:http';
import { RunjsError } from '../../shared/errors.ts';

/** Fails with 413 at once when the declared Content-Length is over `limit` (before any body is read). */
export function checkDeclaredLength(req: IncomingMessage, limit: number): void {
  // A body parser mounted before this router would have consumed the stream: fail loudly, not hang.
  if (req.readableEnded) throw new Error('the request body was already consumed by an earlier middleware');
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) throw new RunjsError('BODY_TOO_LARGE', limit);
}

/** What a body reader does with the request's events; `abort` also covers a client gone before the end. */
export interface BodyListener {
  data(chunk: Buffer): void;
  end(): void;
  abort(): void;
}

/** Attaches `l` to the request's body events; returns their removal. */
export function listenBody(req: IncomingMessage, l: BodyListener): () => void {
  const onData = (chunk: Buffer): void => l.data(chunk);
  const onEnd = (): void => l.end();
  const onAbort = (): void => l.abort();
  const onClose = (): void => {
    if (!req.complete) l.abort();
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onAbort);
  req.on('close', onClose);
  return () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onAbort);
    req.off('close', onClose);
  };
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    checkDeclaredLength(req, limit);
  } catch (e) {
    return Promise.reject(e);
  }
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = listenBody(req, {
      data(chunk) {
        size += chunk.length;
        if (size > limit) {
          stop();
          chunks = [];
          req.resume(); // flowing with no listener: the remainder is dropped as it arrives
          reject(new RunjsError('BODY_TOO_LARGE', limit));
          return;
        }
        chunks.push(chunk);
      },
      end() {
        stop();
        resolve(Buffer.concat(chunks, size));
      },
      abort() {
        stop();
        reject(new RunjsError('BODY_INCOMPLETE'));
      },
    });
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; a leading byte-order mark is dropped. */
export function decodeUtf8(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new RunjsError('BODY_NOT_UTF8');
  }
}
