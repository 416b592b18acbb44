// The host side of one WebSocket (worker/ops/websocket/socket.ts) against the test server: while
// the guest does not take messages, the socket stops reading its connection past the high-water
// mark and reads again once the guest has caught up; every message arrives, in order.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { Socket, type SocketEvent } from '../../../worker/ops/websocket/socket.ts';
import { QUEUE_HIGH_WATER_BYTES } from '../../../worker/ops/event-queue.ts';
import { DEFAULT_WEBSOCKET_LIMITS } from '../../../shared/worker-settings.ts';
import { startWsFixture, type WsFixture } from '../../helpers/ws-server.ts';

let ws: WsFixture;
before(async () => { ws = await startWsFixture(); });
after(() => ws.close());

test('a guest that falls behind pauses the connection; it resumes as the guest catches up', async () => {
  const agent = new Agent();
  /** Each pause(p) with the bytes received when it was asked. */
  const pauses: [boolean, number][] = [];
  let received = 0;
  const count = 24;
  const bytes = 256 * 1024;
  const socket = new Socket({ url: new URL(`${ws.base}/flood?count=${count}&bytes=${bytes}`), protocols: [], headers: [] }, {
    dispatcher: () => agent,
    limits: DEFAULT_WEBSOCKET_LIMITS,
    connect: async (req) => ({ url: req.url, headers: {} }),
    pause: (p) => { pauses.push([p, received]); },
    onEnd: () => {},
    countSent: () => {},
    countReceived: (n) => { received += n; return undefined; },
  });
  const signal = new AbortController().signal;
  const open = await socket.next(signal);
  assert.equal((open as { type: string }).type, 'open');
  // Nobody takes messages: the queue fills to the high-water mark, then reading stops.
  const deadline = Date.now() + 5000;
  while (pauses.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(pauses, [[true, QUEUE_HIGH_WATER_BYTES + bytes]]);
  const seen: number[] = [];
  for (let i = 0; i < count; i++) {
    const m: SocketEvent = await socket.next(signal);
    assert.ok(m instanceof Uint8Array);
    assert.equal(m.byteLength, bytes);
    seen.push(m[0]!);
  }
  assert.deepEqual(seen, Array.from({ length: count }, (_, i) => i));
  assert.equal(pauses.length, 2);
  assert.equal(pauses[1]![0], false, 'reading resumed');
  socket.close(1000, '', false);
  const closed = await socket.next(signal);
  assert.deepEqual(closed, { type: 'close', code: 1000, reason: '', wasClean: true });
  await agent.destroy();
});
