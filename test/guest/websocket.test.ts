// WebSocket on both engines against a real WebSocket server on 127.0.0.1 (test/helpers/ws-server.ts):
// text and binary echo (both binary types), subprotocols, closes from either side, the standard's
// exceptions, the policy (the default deny, a JavaScript pre hook, an allow-list) with its decision
// log, header injection on the handshake, the per-run limits, and sockets that close when the run
// ends.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guestSuite } from '../helpers/both-engines.ts';
import { startWsFixture, type WsFixture } from '../helpers/ws-server.ts';
import { DEFAULT_HOST_OP_LIMITS } from '../../shared/worker-settings.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';
import { parseHeaderConfig } from '../../supervisor/config/header-config.ts';

let ws: WsFixture;
before(async () => { ws = await startWsFixture(); });
after(() => ws.close());

const limits = {
  ...DEFAULT_HOST_OP_LIMITS,
  fetch: { ...DEFAULT_HOST_OP_LIMITS.fetch, maxResponseBytesPerRun: 4 * 1024 * 1024 },
  websocket: { maxOpen: 3, maxMessageBytes: 1024 * 1024, handshakeTimeoutMs: 800 },
};
const allow = { pool: { network: { fetchDefault: 'allow' as const }, hostOpLimits: limits } };

/** Connections the server saw after `from` (index into ws.connections). */
const since = (from: number): WsFixture['connections'] => ws.connections.slice(from);

guestSuite('WebSocket', (g) => {
  g.test('echoes text and binary (arraybuffer and blob); readyState, url, protocol, extensions, bufferedAmount', async (ctx) => {
    const out = await ctx.output(`
      const s = new WebSocket('${ws.base}/echo');
      console.log(s.readyState, s.url, s.binaryType, s.bufferedAmount, WebSocket.OPEN, s.CLOSED, String(s));
      s.binaryType = 'nonsense';
      s.binaryType = 'arraybuffer';
      const got = [];
      await new Promise((resolve, reject) => {
        s.onerror = (e) => reject(new Error('error ' + e.message));
        s.onopen = () => {
          console.log('open', s.readyState, JSON.stringify(s.protocol), JSON.stringify(s.extensions));
          s.send('héllo');
          s.send(new Uint8Array([1, 2, 3]));
        };
        s.addEventListener('message', async (e) => {
          got.push(e);
          if (got.length === 2) {
            s.binaryType = 'blob';
            s.send(new Uint16Array([0x0201]).buffer);
            s.send(new Blob(['from a blob']));
            s.send('after the blob');
          }
          if (got.length === 5) resolve();
        });
      });
      console.log(got[0].data, got[0] instanceof MessageEvent, got[0].origin);
      console.log(got[1].data instanceof ArrayBuffer, [...new Uint8Array(got[1].data)].join(','));
      console.log(got[2].data instanceof Blob, [...new Uint8Array(await got[2].data.arrayBuffer())].join(','));
      console.log(await got[3].data.text(), got[4].data);
      s.close();
      const c = await new Promise((r) => { s.onclose = r; });
      console.log(s.readyState, c.code, c.wasClean, c instanceof CloseEvent);
    `);
    assert.equal(out, [
      `0 ${ws.base}/echo blob 0 1 3 [object WebSocket]`,
      'open 1 "" ""',
      `héllo true ${ws.base}`,
      'true 1,2,3',
      'true 1,2',
      'from a blob after the blob',
      '3 1005 true true',
      '',
    ].join('\n'));
  });
}, allow);
