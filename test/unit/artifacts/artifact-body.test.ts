// Upload bodies streamed chunk by chunk (supervisor/rest/artifact-body.ts) over a real HTTP
// server: all chunks arrive in order; over the cap is a 413 while the body is still coming; a
// client that stops sending fails with 400 after the idle limit; an early disconnect is a 400.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyChunks } from '../../../supervisor/rest/artifact-body.ts';
import { errorMessage, RunjsError } from '../../../shared/errors.ts';

/** Serves one request, reading its body with `bodyChunks(limit, idleMs)`; resolves to bytes or the error. */
async function serveOne(limit: number, idleMs: number, send: (port: number) => void): Promise<Buffer | RunjsError> {
  let done!: (r: Buffer | RunjsError) => void;
  const outcome = new Promise<Buffer | RunjsError>((resolve) => { done = resolve; });
  const server = createServer(async (req: IncomingMessage, res) => {
    try {
      const parts: Uint8Array[] = [];
      for await (const chunk of bodyChunks(req, limit, idleMs)) parts.push(chunk);
      done(Buffer.concat(parts));
      res.end('ok');
    } catch (e) {
      done(e as RunjsError);
      res.statusCode = (e as RunjsError).status;
      res.end((e as RunjsError).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    send((server.address() as AddressInfo).port);
    return await outcome;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('every chunk arrives, in order', async () => {
  const got = await serveOne(1024, 5_000, (port) => {
    const req = request({ port, host: '127.0.0.1', method: 'PUT' });
    req.on('error', () => {});
    req.write('abc');
    setImmediate(() => req.end('def'));
  });
  assert.deepEqual(got, Buffer.from('abcdef'));
});

test('over the cap: 413 with the limit in the text', async () => {
  const got = await serveOne(4, 5_000, (port) => {
    const req = request({ port, host: '127.0.0.1', method: 'PUT' });
    req.on('error', () => {});
    req.end('12345');
  });
  assert.ok(got instanceof RunjsError);
  assert.equal(got.status, 413);
  assert.equal(got.message, errorMessage('BODY_TOO_LARGE', 4));
});

test('a client that stops sending fails after the idle limit with 400', async () => {
  let held: ReturnType<typeof request> | undefined;
  const got = await serveOne(1024, 200, (port) => {
    held = request({ port, host: '127.0.0.1', method: 'PUT', headers: { 'Content-Length': '100' } });
    held.on('error', () => {});
    held.write(Buffer.alloc(10));
  });
  held?.destroy();
  assert.ok(got instanceof RunjsError);
  assert.equal(got.status, 400);
  assert.equal(got.message, errorMessage('BODY_STALLED', 200));
  assert.equal(got.message, 'Request body stalled: no data arrived for 0.2 seconds');
});

test('a client that disconnects early: 400 body incomplete', async () => {
  const got = await serveOne(1024, 60_000, (port) => {
    const req = request({ port, host: '127.0.0.1', method: 'PUT', headers: { 'Content-Length': '100' } });
    req.on('error', () => {});
    req.write(Buffer.alloc(10), () => setTimeout(() => req.destroy(), 50));
  });
  assert.ok(got instanceof RunjsError);
  assert.equal(got.status, 400);
  assert.equal(got.message, errorMessage('BODY_INCOMPLETE'));
});
