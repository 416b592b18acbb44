// The supervisor's router for ops a worker delegates upward: structured guest errors, the route's
// public text for anything else (detail logged, never shown), unknown ops, double routes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GuestOpError, OpRouter } from '../../../supervisor/pool/op-router.ts';

test('a route value is returned; a GuestOpError reaches the guest as it is; other failures are logged and replaced by the public text', async () => {
  const logs: string[] = [];
  const router = new OpRouter([{
    'a.ok': { unavailable: 'a: unavailable', serve: async (args, run) => ({ args, run: run.runId }) },
    'a.guest': { unavailable: 'a: unavailable', serve: async () => { throw new GuestOpError('bad key', 'TypeError', 'ERR_X'); } },
    'a.internal': { unavailable: 'a: the store is unavailable', serve: async () => { throw new Error('EACCES /srv/secret/path'); } },
  }], (l) => logs.push(l));
  assert.deepEqual(await router.serve('a.ok', { k: 1 }, { runId: 'r1' }), { ok: true, value: { args: { k: 1 }, run: 'r1' } });
  assert.deepEqual(await router.serve('a.guest', {}, { runId: 'r1' }), { ok: false, error: { name: 'TypeError', message: 'bad key', code: 'ERR_X' } });
  assert.deepEqual(await router.serve('a.internal', {}, { runId: 'r2' }), { ok: false, error: { name: 'Error', message: 'a: the store is unavailable' } });
  assert.equal(logs.length, 1);
  assert.ok(logs[0]!.startsWith('runjs: a.internal for execution r2 failed: Error: EACCES /srv/secret/path'), logs[0]);
  assert.deepEqual(await router.serve('nope', {}, { runId: 'r1' }), { ok: false, error: { name: 'Error', message: "runjs: op 'nope' is not available on this server" } });
});

test('two capabilities may not route one op', () => {
  const route = { unavailable: 'x', serve: async () => null };
  assert.throws(() => new OpRouter([{ 'x.y': route }, { 'x.y': route }], () => {}), { message: "runjs: delegated op 'x.y' is routed twice" });
});
