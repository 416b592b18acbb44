// --fetch-ca-file against the real server process: startup errors name the flag; a server given a
// CA made by the test fetches from an https server that CA signed, and the execution's decision
// log reports its traffic (`egress`: requests, body bytes sent and received).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runOnce, startServer } from './server-process.ts';
import { startHttpFixture } from '../../helpers/http-fixture.ts';
import { makeTestCa } from '../../helpers/test-ca.ts';

const dir = mkdtempSync(join(tmpdir(), 'runjs-fetch-tls-'));

test('--fetch-ca-file: a missing file or one without a certificate stops startup naming the flag', async () => {
  const empty = join(dir, 'empty.pem');
  writeFileSync(empty, 'no certificates here\n');
  const broken = join(dir, 'broken.pem');
  writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  const [missing, none, bad] = await Promise.all([
    runOnce(['--fetch-ca-file', join(dir, 'absent.pem')]), runOnce(['--fetch-ca-file', empty]), runOnce(['--fetch-ca-file', broken]),
  ]);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, `runjs: invalid --fetch-ca-file: cannot read ${join(dir, 'absent.pem')}: ENOENT\n`);
  assert.equal(none.code, 2);
  assert.equal(none.stderr, `runjs: invalid --fetch-ca-file: ${empty} holds no PEM certificate (-----BEGIN CERTIFICATE-----)\n`);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, new RegExp(`^runjs: invalid --fetch-ca-file: certificate 1 in ${broken} is not valid: `));
});

test('a server trusting the test CA fetches over https; the decision log counts the traffic', async () => {
  const ca = await makeTestCa();
  const upstream = await startHttpFixture({ tls: { key: ca.key, cert: ca.cert } });
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.caCert);
  const server = await startServer(['--fetch-default', 'allow', '--fetch-ca-file', caFile]);
  try {
    const code = `
      const r = await fetch('${upstream.base}/echo', { method: 'POST', body: 'twelve bytes' });
      const n = (await r.arrayBuffer()).byteLength;
      const h = await fetch('${upstream.base}/redirect?to=/hello');
      console.log(r.status, n, await h.text());
      n`;
    const r = await fetch(`${server.base}/api/exec`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    const { execution_id: id } = await r.json() as { execution_id: string };
    const info = await (await fetch(`${server.base}/api/executions/${id}?wait_ms=20000`)).json() as { status: string; result: string };
    assert.equal(info.status, 'completed', JSON.stringify(info));
    const echoed = Number(info.result);
    const output = await (await fetch(`${server.base}/api/executions/${id}/output`)).json() as { data: string };
    assert.equal(output.data, `200 ${echoed} hello\n`);
    const decisions = await (await fetch(`${server.base}/api/executions/${id}/decisions`)).json() as { egress: unknown; decisions: unknown[] };
    // Three hops (the echo, the redirect, its target): 12 bytes up, the echo and 'hello' down.
    assert.deepEqual(decisions.egress, { fetch: { requests: 3, sent_bytes: 12, received_bytes: echoed + 5 } });
    assert.equal(decisions.decisions.length, 3);
  } finally {
    await upstream.close();
    assert.equal(await server.stop(), 0);
  }
});
