// Texts a run sends back never name the host's directories (worker/runtime/host-paths.ts): a
// host exception an op passes on, and a failure of runjs itself that becomes the run's outcome,
// have the install directory, working directory, temporary and home directories replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { redactHostPaths } from '../../../shared/host-paths.ts';
import { RunLoop } from '../../../worker/runtime/execute-run.ts';
import type { GuestRealm } from '../../../worker/engine.ts';
import type { OpTable } from '../../../worker/ops/op-types.ts';

const INSTALL = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

test('host directories become <host>; other paths are left alone', () => {
  assert.equal(redactHostPaths(`ENOENT: no such file or directory, open '${INSTALL}/worker/x.js'`), "ENOENT: no such file or directory, open '<host>/worker/x.js'");
  assert.equal(redactHostPaths(`spawn ${INSTALL}/node_modules/esbuild/bin/esbuild EACCES`), 'spawn <host>/node_modules/esbuild/bin/esbuild EACCES');
  assert.equal(redactHostPaths(`mkdir '${tmpdir()}/runjs-quickjs-1000'`), "mkdir '<host>/runjs-quickjs-1000'");
  assert.equal(redactHostPaths(`${process.cwd()}/a and ${process.cwd()}/b`), '<host>/a and <host>/b');
  assert.equal(redactHostPaths('file:///main.js:1:2 and /etc/hosts'), 'file:///main.js:1:2 and /etc/hosts');
});

test('a host exception an op did not map reaches the guest without host paths', () => {
  const ops: OpTable = {
    'test.read': { kind: 'sync', run: () => readFileSync(new URL('./no-such-file', import.meta.url)) },
  };
  const loop = new RunLoop({ runId: 'r', code: '1', timeoutMs: 1000 }, ops, new Map(), { output: () => {} });
  const answer = loop.hostCall('test.read', '{}', undefined);
  assert.ok(!answer.toString().includes(INSTALL), answer.toString());
  assert.deepEqual(JSON.parse(answer.toString().slice(1)), { name: 'Error', message: "ENOENT: no such file or directory, open '<host>/test/unit/worker/no-such-file'" });
});

test('a failure of runjs itself is the run outcome without host paths', async () => {
  const realm: GuestRealm = {
    runMain: () => Promise.reject(new Error(`Cannot find module '${INSTALL}/worker/engines/missing.ts'`)),
    complete: () => Promise.resolve(),
    interrupt: () => {},
    dispose: () => {},
  };
  const loop = new RunLoop({ runId: 'r', code: '1', timeoutMs: 5000 }, {}, new Map(), { output: () => {} });
  assert.deepEqual(await loop.run(realm), { status: 'failed', error: "runjs internal error: Cannot find module '<host>/worker/engines/missing.ts'" });
});
