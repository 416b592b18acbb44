// --allow-external-modules against the real server process: the registry comes from
// npm_config_registry (a registry this test serves on 127.0.0.1), the cache sits under
// --session-db-path, and a second server on the same directory needs no registry at all.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from './server-process.ts';
import { failed, httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { startNpmRegistry, type NpmRegistry } from '../../helpers/npm-registry.ts';
import { publishFixtures } from '../../helpers/npm-fixtures.ts';
import { startS3Server } from '../../helpers/s3-server.ts';

let registry: NpmRegistry;
before(async () => { registry = await startNpmRegistry(); publishFixtures(registry); });
after(() => registry.close());

const CODE = "import app from 'npm:app@^1'; import { add } from 'npm:cjs-pkg'; [app.leafOfMid, add(20, 22)]";

async function runOn(dbDir: string, args: string[], code: string, env: Record<string, string> = { PATH: process.env['PATH'] ?? '' }): Promise<Record<string, unknown>> {
  const server = await startServer(args, { dbDir, env: { ...env, npm_config_registry: registry.url } });
  const client = await httpClient(server.base);
  try {
    const res = await client.callTool({ name: 'run_js', arguments: { code } });
    if ((res as { isError?: boolean }).isError === true) return failed(res);
    const { execution_id: id } = ok(res) as { execution_id: string };
    return await settle(client, id, 60_000);
  } finally {
    await client.close();
    assert.equal(await server.stop(), 0);
  }
}

test('npm: imports resolve from npm_config_registry; a restarted server serves them from the cache under --session-db-path', async () => {
  const dbDir = mkdtempSync(join(tmpdir(), 'runjs-e2e-modules-'));
  const first = await runOn(dbDir, ['--allow-external-modules'], CODE);
  assert.equal(first['status'], 'completed', JSON.stringify(first));
  assert.equal(first['result'], '["2.1.5",42]');
  assert.deepEqual(readdirSync(join(dbDir, 'modules')).filter((f) => f !== 'tmp').sort(), ['blobs', 'bundles', 'lock.json']);
  registry.down = true;
  try {
    const second = await runOn(dbDir, ['--allow-external-modules'], CODE);
    assert.equal(second['result'], '["2.1.5",42]', JSON.stringify(second));
  } finally {
    registry.down = false;
  }
});

test('without the flag, the spec\'s text', async () => {
  const dbDir = mkdtempSync(join(tmpdir(), 'runjs-e2e-modules-'));
  const info = await runOn(dbDir, [], "import x from 'npm:app'; x");
  assert.equal(info['status'], 'failed');
  assert.equal(info['error'], "External module imports are disabled. Cannot import npm package 'npm:app'. Start the server with --allow-external-modules to enable.");
});

test('with S3 stores the cache is shared through the bucket: a second server with an empty local cache imports with the registry down', async () => {
  const s3 = await startS3Server();
  try {
    const args = ['--allow-external-modules', ...s3.serverFlags()];
    const first = await runOn(mkdtempSync(join(tmpdir(), 'runjs-e2e-modules-')), args, CODE, s3.serverEnv());
    assert.equal(first['result'], '["2.1.5",42]', JSON.stringify(first));
    const counts = await s3.counts();
    registry.down = true;
    try {
      const fresh = mkdtempSync(join(tmpdir(), 'runjs-e2e-modules-'));
      const second = await runOn(fresh, args, CODE, s3.serverEnv());
      assert.equal(second['result'], '["2.1.5",42]', JSON.stringify(second));
      // The bundles and the lock came from the bucket: nothing fetched, so no blob of the local cache.
      assert.deepEqual(readdirSync(join(fresh, 'modules')).filter((f) => f !== 'tmp').sort(), ['bundles', 'lock.json']);
      assert.ok(((await s3.counts())['GET 200'] ?? 0) > (counts['GET 200'] ?? 0));
    } finally {
      registry.down = false;
    }
  } finally {
    await s3.stop();
  }
});
