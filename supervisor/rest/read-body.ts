// Reads a request body with a byte cap, streaming: at most `limit` bytes are ever held. A body
// declared (Content-Length) or found (while streaming) to be larger fails with 413 at once; the
// router then drops the rest unread (rest-router.ts, drainThenClose).
import type { IncomingMessage } from 'node:http';
import { RunjsError } from '../../shared/errors.ts';

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // A body parser mounted before this router would have consumed the stream: fail loudly, not hang.
  if (req.readableEnded) return Promise.reject(new Error('the request body was already consumed by an earlier middleware'));
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) return Promise.reject(new RunjsError('BODY_TOO_LARGE', limit));

  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks = [];
        req.resume(); // flowing with no listener: the remainder is dropped as it arrives
        reject(new RunjsError('BODY_TOO_LARGE', limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onAbort = (): void => {
      cleanup();
      reject(new RunjsError('BODY_INCOMPLETE'));
    };
    const onClose = (): void => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
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
