// V8's spare realm loads the platform parts the worker's recent runs used before its run starts
// (worker/engines/v8/part-preload.ts): a run after runs that fetched finds web and fetch loaded;
// a worker whose runs use no part keeps bare realms; the window closes after RECENT_RUNS runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { V8Engine } from '../../../worker/engines/v8/v8-engine.ts';
import { PartUsage, RECENT_RUNS } from '../../../worker/engines/v8/part-preload.ts';
import { readPartSource } from '../../../worker/ops/platform/platform-ops.ts';
import { RunLoop } from '../../../worker/runtime/execute-run.ts';
import { createOps } from '../../../worker/ops/capabilities.ts';
import type { GuestRealm, HostCall } from '../../../worker/engine.ts';
import type { Outcome } from '../../../shared/protocol.ts';
import { TEST_WORKER_SETTINGS } from '../../helpers/worker-settings.ts';

const OPS = createOps(TEST_WORKER_SETTINGS);
const engine = new V8Engine({ partSource: readPartSource });
let current: HostCall | undefined;
const trampoline: HostCall = (op, args, bytes) => current!(op, args, bytes);

async function run(code: string): Promise<{ outcome: Outcome; preloaded: readonly string[] }> {
  const loop = new RunLoop({ runId: 'r', code, timeoutMs: 10_000 }, OPS, new Map(), { output: () => {} });
  const realm = await engine.createRealm({ memoryLimitMb: 8, hostCall: trampoline }) as GuestRealm & { readonly preloaded: readonly string[] };
  current = loop.hostCall;
  try {
    return { outcome: await loop.run(realm), preloaded: realm.preloaded };
  } finally {
    realm.dispose();
  }
}

test('PartUsage: parts of the last RECENT_RUNS runs, in load order, with the parts they need', () => {
  const usage = new PartUsage();
  assert.deepEqual(usage.wanted(), []);
  usage.record(['fetch', 'core', 'buffer', 42]);
  assert.deepEqual(usage.wanted(), ['web', 'fetch']);
  usage.record(['streams']);
  assert.deepEqual(usage.wanted(), ['web', 'streams', 'fetch']);
  for (let i = 0; i < RECENT_RUNS - 1; i++) usage.record([]);
  assert.deepEqual(usage.wanted(), ['web', 'streams']); // fetch's run is RECENT_RUNS runs back now
  usage.record([]);
  assert.deepEqual(usage.wanted(), []);
});

test('a spare realm booted after a run that used fetch has web and fetch loaded, and runs against them', async () => {
  assert.deepEqual(await run('1 + 1'), { outcome: { status: 'completed', result: '2' }, preloaded: [] });
  // The realm this run gets was booted before any run used a part; the spare booted meanwhile too.
  assert.deepEqual(await run(`await new Response('ok').text()`), { outcome: { status: 'completed', result: '"ok"' }, preloaded: [] });
  assert.deepEqual(await run('2 + 2'), { outcome: { status: 'completed', result: '4' }, preloaded: [] });
  assert.deepEqual(await run(`typeof fetch + ' ' + (await new Response('ok').text()) + ' ' + new Headers({ A: 'b' }).get('a')`), {
    outcome: { status: 'completed', result: '"function ok b"' },
    preloaded: ['web', 'fetch'],
  });
  // A response body as a stream uses the streams part: the realms after it load that too.
  assert.deepEqual((await run(`const r = new Response('ab'); (await r.body.getReader().read()).value.length`)).outcome, { status: 'completed', result: '2' });
  await run('3 + 3');
  const next = await run(`(await new Response('xyz').text()).length`);
  assert.deepEqual(next, { outcome: { status: 'completed', result: '3' }, preloaded: ['web', 'streams', 'fetch'] });
  // RECENT_RUNS runs that use no part: the spares are bare again.
  let last: readonly string[] = [];
  for (let i = 0; i < RECENT_RUNS + 2; i++) last = (await run(`${i} * 2`)).preloaded;
  assert.deepEqual(last, []);
});
