// run_js `file` against the real server process and the SDK's real MCP client: disabled by
// default (without probing the path), --allow-run-js-file (any readable path; the OS's reasons),
// a run_js_file policy deciding on the canonical path (a symlink out of the allowed directory is
// refused), the flag taking precedence over the policy, and the reference's error texts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type ServerProcess } from './server-process.ts';
import { failed, httpClient, ok, settle } from '../mcp/mcp-clients.ts';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'runjs-run-js-file-')));
const allowed = join(dir, 'allowed');
const elsewhere = join(dir, 'elsewhere');
const DISABLED = 'run_js file-path execution is disabled. Enable it with --allow-run-js-file or configure a `run_js_file` policy in --policies-json.';

before(() => {
  mkdirSync(allowed);
  mkdirSync(elsewhere);
  writeFileSync(join(allowed, 'job.ts'), 'const n: number = 6;\nconsole.log("from file");\nn * 7\n');
  writeFileSync(join(elsewhere, 'secret.js'), 'console.log("should not run"); 1');
  symlinkSync(join(elsewhere, 'secret.js'), join(allowed, 'link.js'));
  writeFileSync(join(dir, 'hook.js'), `export default (input) => input.path.startsWith(${JSON.stringify(`${allowed}/`)}) ? true : { allow: false, reason: 'outside the scripts directory' };`);
});

async function withServer(args: string[], body: (client: Client, server: ServerProcess) => Promise<void>): Promise<void> {
  const server = await startServer(args);
  const client = await httpClient(server.base);
  try {
    await body(client, server);
  } finally {
    await client.close();
    assert.equal(await server.stop(), 0);
  }
}

const runJs = (client: Client, args: Record<string, unknown>) => client.callTool({ name: 'run_js', arguments: args });

test('without the flag or a policy, `file` is disabled, whether or not the path exists', async () => {
  await withServer([], async (client) => {
    assert.deepEqual(failed(await runJs(client, { file: join(allowed, 'job.ts') })), { error: DISABLED });
    assert.deepEqual(failed(await runJs(client, { file: '/no/such/file.js' })), { error: DISABLED });
    assert.deepEqual(failed(await runJs(client, {})), { error: 'Invalid arguments for run_js: code: is required' });
  });
});

test('--allow-run-js-file: any readable path runs; missing, directory, code and file together fail with the reference texts', async () => {
  await withServer(['--allow-run-js-file'], async (client) => {
    const { execution_id: id } = ok(await runJs(client, { file: join(allowed, 'job.ts') })) as { execution_id: string };
    const info = await settle(client, id);
    assert.deepEqual([info['status'], info['result']], ['completed', '42']);
    const out = ok(await client.callTool({ name: 'get_execution_output', arguments: { execution_id: id } }));
    assert.equal(out['data'], 'from file\n');
    // A blank `code` beside `file` is no conflict.
    ok(await runJs(client, { code: '  ', file: join(allowed, 'job.ts') }));
    assert.deepEqual(failed(await runJs(client, { file: join(dir, 'missing.js') })), { error: `run_js file '${join(dir, 'missing.js')}': No such file or directory (os error 2)` });
    assert.deepEqual(failed(await runJs(client, { file: elsewhere })), { error: `run_js file '${elsewhere}': Is a directory (os error 21)` });
    assert.deepEqual(failed(await runJs(client, { code: '1', file: join(allowed, 'job.ts') })), { error: 'run_js: provide either `code` or `file`, not both' });
  });
});

test('a run_js_file policy decides on the canonical path; its decision leads the execution\'s log', async () => {
  const policies = JSON.stringify({ run_js_file: { policies: [{ url: pathToFileURL(join(dir, 'hook.js')).href }] } });
  await withServer(['--policies-json', policies], async (client) => {
    const { execution_id: id } = ok(await runJs(client, { file: join(allowed, 'job.ts') })) as { execution_id: string };
    assert.equal((await settle(client, id))['result'], '42');
    const log = ok(await client.callTool({ name: 'get_execution_decisions', arguments: { execution_id: id } }));
    const entries = log['decisions'] as { seq: number; category: string; verdict: string; input: { operation: string; path: string } }[];
    assert.deepEqual(entries.map((e) => [e.seq, e.category, e.verdict, e.input.operation, e.input.path]), [[1, 'run_js_file', 'allow', 'read', join(allowed, 'job.ts')]]);
    // The symlink lives in the allowed directory, but its canonical path does not.
    assert.deepEqual(failed(await runJs(client, { file: join(allowed, 'link.js') })), { error: `run_js file '${join(elsewhere, 'secret.js')}' denied by run_js_file policy: outside the scripts directory` });
    assert.deepEqual(failed(await runJs(client, { file: join(elsewhere, 'secret.js') })), { error: `run_js file '${join(elsewhere, 'secret.js')}' denied by run_js_file policy: outside the scripts directory` });
  });
});

test('--allow-run-js-file takes precedence over a run_js_file policy', async () => {
  const policies = JSON.stringify({ run_js_file: { policies: [{ url: pathToFileURL(join(dir, 'hook.js')).href }] } });
  await withServer(['--allow-run-js-file', '--policies-json', policies], async (client) => {
    const { execution_id: id } = ok(await runJs(client, { file: join(elsewhere, 'secret.js') })) as { execution_id: string };
    assert.equal((await settle(client, id))['status'], 'completed');
  });
});

