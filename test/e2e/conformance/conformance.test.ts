// The official MCP conformance suite against the real server's Streamable HTTP endpoint, one
// server for every run: the stable release (@modelcontextprotocol/conformance, `--suite all`) and
// the 2026 alpha (@modelcontextprotocol/conformance-alpha) for each protocol generation runjs
// speaks, `--requirements 2025-11-25` (initialize handshake, sessions) and `--requirements
// 2026-07-28` (stateless), the three runs at once. One baseline file lists the scenarios that do
// not apply to runjs and why. The CLI exits non-zero on any unexpected failure and on any listed
// scenario that passes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, ROOT, startServer, type ServerProcess } from '../server/server-process.ts';

const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const ALPHA_CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance-alpha/dist/index.js');
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

interface Run {
  readonly code: number | null;
  readonly summary: string;
  readonly stderr: string;
  /** The directory of this run's per-scenario results (checks.json). */
  readonly dir: string;
}

function conformance(cli: string, name: string, args: readonly string[]): Promise<Run> {
  const dir = join(out, name);
  return new Promise((resolve) => {
    const p = spawn(NODE, [cli, 'server', '--url', `${server.base}/mcp`, ...args, '--expected-failures', BASELINE, '--output-dir', dir],
      { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let o = '';
    let e = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => { o += c; });
    p.stderr.setEncoding('utf8').on('data', (c: string) => { e += c; });
    p.once('exit', (code) => resolve({ code, summary: o.slice(o.indexOf('=== SUMMARY ===')), stderr: e, dir }));
  });
}

/** Every check of a scenario by id: its statuses (ids repeat within a scenario). */
function checksOf(run: Run, scenario: string): Map<string, string[]> {
  const dirs = readdirSync(run.dir).filter((d) => d.startsWith(`server-${scenario}-2`));
  assert.equal(dirs.length, 1, `one result directory for ${scenario}`);
  const checks = JSON.parse(readFileSync(join(run.dir, dirs[0]!, 'checks.json'), 'utf8')) as { id: string; status: string }[];
  const byId = new Map<string, string[]>();
  for (const c of checks) byId.set(c.id, [...(byId.get(c.id) ?? []), c.status]);
  return byId;
}

function passed(summary: string, scenarios: readonly string[]): void {
  for (const scenario of scenarios) assert.match(summary, new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`), scenario);
}

let runs: Promise<[Run, Run, Run]> | undefined;
/** The three runs, started together by whichever test comes first. */
function allRuns(): Promise<[Run, Run, Run]> {
  runs ??= Promise.all([
    conformance(CLI, 'stable', ['--suite', 'all']),
    conformance(ALPHA_CLI, '2025-11-25', ['--requirements', '2025-11-25']),
    conformance(ALPHA_CLI, '2026-07-28', ['--requirements', '2026-07-28']),
  ]);
  return runs;
}

test('the MCP conformance suite passes, apart from scenarios that do not apply', async () => {
  const [stable] = await allRuns();
  assert.equal(stable.code, 0, `conformance failed:\n${stable.summary}\n${stable.stderr}`);
  // The scenarios that matter for a tools-only server really ran and passed.
  passed(stable.summary, ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection']);
});

test('the 2026 alpha suite: what MCP 2025-11-25 requires passes, apart from scenarios that do not apply', async () => {
  const [, run] = await allRuns();
  assert.equal(run.code, 0, `conformance failed:\n${run.summary}\n${run.stderr}`);
  passed(run.summary, ['server-initialize', 'ping', 'tools-list', 'resources-list', 'server-sse-multiple-streams', 'dns-rebinding-protection', 'server-session-lifecycle', 'server-sse-polling']);
});

test('the 2026 alpha suite: what MCP 2026-07-28 requires passes, apart from scenarios that do not apply', async () => {
  const [, , run] = await allRuns();
  assert.equal(run.code, 0, `conformance failed:\n${run.summary}\n${run.stderr}`);
  passed(run.summary, ['tools-list', 'resources-list', 'sep-2164-resource-not-found', 'server-sse-multiple-streams', 'dns-rebinding-protection',
    'http-header-validation', 'input-required-result-unsupported-methods', 'input-required-result-validate-input']);
  // Baselined per check: every other check of these ran and passed.
  const stateless = checksOf(run, 'server-stateless');
  for (const id of ['sep-2575-server-implements-discover', 'sep-2575-server-identifies-in-result-meta', 'sep-2575-request-meta-invalid-missing-meta',
    'sep-2575-http-server-meta-invalid-400', 'sep-2575-server-unsupported-version-error', 'sep-2575-http-server-header-mismatch-400',
    'sep-2575-http-server-method-not-found-404-initialize', 'sep-2575-http-server-method-not-found-404-ping', 'sep-2575-server-sends-subscription-ack',
    'sep-2575-http-server-error-jsonrpc-id']) {
    assert.deepEqual([id, [...new Set(stateless.get(id))]], [id, ['SUCCESS']]);
  }
  const caching = checksOf(run, 'caching');
  for (const id of ['sep-2549-tools-list-caching-hints', 'sep-2549-resources-list-caching-hints', 'sep-2549-resources-templates-list-caching-hints',
    'sep-2549-ttl-non-negative', 'sep-2549-cache-scope-valid']) {
    assert.deepEqual([id, caching.get(id)], [id, ['SUCCESS']]);
  }
});

test('the tasks extension scenarios (not scored): every check that needs no fixture tool passes', async () => {
  const [, , run] = await allRuns();
  const expected: Record<string, readonly string[]> = {
    'tasks-capability-negotiation': ['tasks-extension-advertised', 'sep-2663-tasks-methods-non-declaring', 'wire-schema-valid'],
    'tasks-dispatch-and-envelope': ['sep-2663-tasks-result-removed-method-not-found', 'tasks-removed-tasks-list', 'sep-2663-tasks-get-invalid-task-id-32602', 'wire-schema-valid'],
    'tasks-request-headers': ['tasks-headers-reject-mismatched-method', 'wire-schema-valid'],
    'tasks-lifecycle': ['wire-schema-valid'],
    'tasks-wire-fields': ['wire-schema-valid'],
  };
  for (const [scenario, ids] of Object.entries(expected)) {
    const checks = checksOf(run, scenario);
    for (const id of ids) assert.deepEqual([scenario, id, checks.get(id)], [scenario, id, ['SUCCESS']]);
  }
});
