// MessageChannel/MessagePort (in-realm, delivered as later tasks), blob: object URLs, and EventEmitter's
// ERR_UNHANDLED_ERROR for 'error' events whose value is not an Error. Each case runs in the
// sandbox on both engines and in the host Node; the results must match.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

const hostRequire = createRequire(import.meta.url);
const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (req: NodeJS.Require) => Promise<unknown>;

const CASES: Record<string, string> = {
  'emit("error", value) without listeners throws ERR_UNHANDLED_ERROR': `const E = require('events'); const out = []; for (const v of ['str', undefined, { a: 1 }, 42, null]) { try { new E().emit('error', v); } catch (e) { out.push([e.name, e.code, e.message, e.context === v]); } } try { new E().emit('error', new TypeError('t')); } catch (e) { out.push([e.message, e.code]); } const h = new E(); h.on('error', (x) => out.push('got ' + x)); h.emit('error', 's'); return out;`,
  'MessageChannel delivers clones after the current turn, in order, then closes both ports': `const { port1, port2 } = new MessageChannel(); const log = []; const sent = { n: 1, list: [1, 2] }; port2.onmessage = (e) => { log.push([e.constructor.name, e.data, e.data === sent]); if (e.data.n === 2) port2.close(); }; port1.postMessage(sent); port1.postMessage({ n: 2 }); log.push('sync'); await Promise.resolve(); log.push('micro'); await new Promise((r) => port1.addEventListener('close', r)); port1.postMessage('after close'); await new Promise((r) => setTimeout(r, 5)); return [log, typeof MessagePort, port1 instanceof EventTarget, port2.onmessage !== null];`,
  'worker_threads.MessageChannel with Node-style on("message")': `const { MessageChannel } = require('worker_threads'); const { port1, port2 } = new MessageChannel(); return new Promise((r) => { port2.on('message', (v) => { r(v); port2.close(); }); port1.postMessage([1, 'a', new Date(0).toISOString()]); });`,
  'a port buffers messages until a message listener starts it': `const { port1, port2 } = new MessageChannel(); port1.postMessage('early'); const log = []; await new Promise((r) => setTimeout(r, 5)); log.push('listening'); port2.addEventListener('message', (e) => { log.push(e.data); port1.close(); }); await new Promise((r) => port2.addEventListener('close', r)); return log;`,
  'postMessage of an uncloneable value throws DataCloneError': `const { port1 } = new MessageChannel(); try { port1.postMessage(() => 1); return 'no error'; } catch (e) { return [e.name, e instanceof DOMException]; } finally { port1.close(); }`,
  'URL.createObjectURL / revokeObjectURL and buffer.resolveObjectURL': `const { resolveObjectURL } = require('buffer'); const b = new Blob(['hello'], { type: 'text/plain' }); const u = URL.createObjectURL(b); const r = resolveObjectURL(u); const out = [/^blob:nodedata:[0-9a-f-]{36}$/.test(u), URL.createObjectURL(b) !== u, r instanceof Blob, r === b, r.size, r.type, await r.text(), resolveObjectURL(u + '?x') !== undefined]; URL.revokeObjectURL(u); out.push(resolveObjectURL(u) === undefined, resolveObjectURL('blob:nodedata:nope') === undefined, resolveObjectURL('https://x/') === undefined); for (const f of [() => URL.createObjectURL('str'), () => URL.revokeObjectURL()]) { try { f(); } catch (e) { out.push([e.name, e.code, e.message]); } } out.push(URL.revokeObjectURL('junk') === undefined); return out;`,
  'structuredClone transfers: an ArrayBuffer is detached only after a successful clone; a MessagePort moves its channel; Node\'s errors': `const out = []; const t = (f) => { try { out.push(f()); } catch (e) { out.push([e.name, e.code, e.message]); } }; const b = new ArrayBuffer(4); t(() => structuredClone({ s: Symbol('x'), b }, { transfer: [b] })); out.push(b.byteLength); const c = structuredClone(b, { transfer: [b] }); out.push(b.byteLength, c.byteLength); t(() => structuredClone(b, { transfer: [b] })); t(() => { const x = new ArrayBuffer(1); structuredClone(x, { transfer: [x, x] }); }); t(() => structuredClone(new Blob([]), { transfer: [new Blob([])] })); t(() => structuredClone(1, { transfer: 5 })); t(() => structuredClone(1, { transfer: [5] })); const { port1, port2 } = new MessageChannel(); t(() => structuredClone(port1)); const moved = structuredClone({ p: port2 }, { transfer: [port2] }).p; out.push(moved instanceof MessagePort, moved === port2); t(() => structuredClone(port2, { transfer: [port2] })); t(() => structuredClone(port1, { transfer: [port1, port1] })); const got = new Promise((r) => { moved.onmessage = (e) => r(e.data); }); port1.postMessage('through the copy'); out.push(await got); port1.close(); return out;`,
  'postMessage transfers ports: the receiver finds them in ports; the source port may not travel': `const out = []; const a = new MessageChannel(); const b = new MessageChannel(); try { a.port1.postMessage(1, [a.port1]); } catch (e) { out.push([e.name, e.message]); } const got = new Promise((r) => { a.port2.onmessage = (e) => r(e); }); a.port1.postMessage({ p: b.port2 }, { transfer: [b.port2] }); const e = await got; out.push(e.ports.length, e.ports[0] === e.data.p, Object.isFrozen(e.ports), e.ports[0] === b.port2); const via = new Promise((r) => { b.port1.onmessage = (m) => r(m.data); }); e.ports[0].postMessage('via the transferred port'); out.push(await via); a.port1.close(); b.port1.close(); return out;`,
  'MessagePort cannot be constructed': `try { new MessagePort(); return 'no error'; } catch (e) { return [e.name, e.message]; }`,
};

guestSuite('MessageChannel and EventEmitter errors', (g) => {
  for (const [title, body] of Object.entries(CASES)) {
    g.test(`differential: ${title}`, async (ctx) => {
      const host = JSON.parse(JSON.stringify(await new AsyncFunction('require', body)(hostRequire))) as unknown;
      assert.deepEqual(await guestJson(ctx, body), host);
    });
  }

  g.test('an unhandled emit("error", "str") fails the run with Node\'s text', async (ctx) => {
    const { outcome } = await ctx.run('const { EventEmitter } = require("node:events"); new EventEmitter().emit("error", "str")');
    assert.equal(outcome.status, 'failed');
    assert.equal((outcome as { error: string }).error.split('\n')[0], "Uncaught Error: Unhandled error. ('str')");
  });
});
