// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against the real
// server's Streamable HTTP endpoint. Every scenario runs (`--suite all`); the baseline file lists
// the ones that do not apply to runjs and why. The CLI exits non-zero on any unexpected failure
// and on any listed scenario that passes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, ROOT, startServer, type ServerProcess } from '../server/server-process.ts';

const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = fileURLToPath(new URL('./expected-failures.yml', import.meta.url));

let server: ServerProcess;
let out: string;
before(async () => {
  server = await startServer([]);
  out = mkdtempSync(join(tmpdir(), 'runjs-conformance-'));
});
after(async () => {
  await server?.stop();
  rmSync(out, { recursive: true, force: true });
});

test('the MCP conformance suite passes, apart from scenarios that do not apply', async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn(NODE, [CLI, 'server', '--url', `${server.base}/mcp`, '--suite', 'all', '--expected-failures', BASELINE, '--output-dir', out],
      { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let o = '';
    let e = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => { o += c; });
    p.stderr.setEncoding('utf8').on('data', (c: string) => { e += c; });
    p.once('exit', (c) => resolve({ code: c, stdout: o, stderr: e }));
  });
  const summary = stdout.slice(stdout.indexOf('=== SUMMARY ==='));
  assert.equal(code, 0, `conformance failed:\n${summary}\n${stderr}`);
  // The scenarios that matter for a tools-only server really ran and passed.
  for (const scenario of ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection']) {
    assert.match(summary, new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`), scenario);
  }
});
