// A real express app with the REST router on 127.0.0.1 (ephemeral port), over a real worker pool
// and a real SQLite registry in a temp dir; plus `call()`, which checks every response against
// the OpenAPI document (status documented, body valid for the documented schema).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { WorkerPool, type PoolOptions } from '../../../supervisor/pool/worker-pool.ts';
import { openMetadataDb } from '../../../supervisor/stores/metadata-db.ts';
import { ExecutionService, type ExecutionServiceOptions } from '../../../supervisor/executions/execution-service.ts';
import { buildOpenApiDocument, createRestRouter, type RestDeps } from '../../../supervisor/rest/index.ts';
import { validatorFor } from '../../../shared/schemas/validator.ts';
import type { SchemaName } from '../../../shared/schemas/index.ts';

/** What fetch accepts as a body (BodyInit is a DOM-lib name, not declared under @types/node). */
export type Body = NonNullable<RequestInit['body']>;

export const TEST_VERSION = '9.8.7-test';
export const TEST_BODY_LIMIT = 64 * 1024;

export interface Served {
  readonly base: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens with one app holding `createRestRouter(deps)` at /api. */
export async function serve(deps: RestDeps): Promise<Served> {
  const app = express();
  app.use('/api', createRestRouter(deps));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export interface Harness extends Served {
  readonly service: ExecutionService;
  readonly logged: string[];
  shutdown(): Promise<void>;
}

export async function startHarness(opts: Partial<RestDeps> = {}, service: Partial<ExecutionServiceOptions> = {}, poolOptions: Partial<PoolOptions> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-rest-'));
  const pool = new WorkerPool({ size: 2, maxQueued: 50, log: () => {}, ...poolOptions });
  await pool.ready();
  const executions = new ExecutionService({
    db: openMetadataDb(dir), pool, limits: { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 512 },
    maxOutputBytes: 1 << 20, retention: 1000, heapEnabled: false, fsEnabled: false, ...service,
  });
  const logged: string[] = [];
  const served = await serve({
    executions,
    version: TEST_VERSION,
    capabilities: () => ({ filesystem: false, heap: false, sessions: false }),
    maxRequestBody: TEST_BODY_LIMIT,
    log: (line) => logged.push(line),
    ...opts,
  });
  return {
    ...served,
    service: executions,
    logged,
    async shutdown() {
      await served.close();
      executions.close();
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface CallResult {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON when the response is JSON, else the text. */
  readonly body: unknown;
}

const doc = buildOpenApiDocument(TEST_VERSION) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>> };

/** The OpenAPI path template a concrete /api path belongs to. */
function template(path: string): string | undefined {
  return Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
}

/** Asserts the response is one the document declares for this operation, with a valid body. */
export function assertDocumented(method: string, path: string, status: number, body: unknown): void {
  const t = template(path);
  const op = t === undefined ? undefined : doc.paths[t]?.[method.toLowerCase()];
  if (op === undefined) {
    // Unknown routes and methods: still an ApiError.
    assert.ok(validatorFor('ApiError')(body), `${method} ${path} → ${status} body is not an ApiError: ${JSON.stringify(body)}`);
    return;
  }
  const declared = op.responses[String(status)];
  assert.ok(declared, `${method} ${t} answered ${status}, which the OpenAPI document does not list`);
  const schemaRef = declared.content?.['application/json']?.schema.$ref;
  if (schemaRef === undefined) return;
  const name = schemaRef.split('/').pop() as SchemaName;
  const v = validatorFor(name);
  assert.ok(v(body), `${method} ${t} → ${status}: body is not a valid ${name}: ${JSON.stringify(v.errors)} ${JSON.stringify(body)}`);
}

export async function call(base: string, method: string, path: string, init: { body?: Body; headers?: Record<string, string> } = {}): Promise<CallResult> {
  const res = await fetch(base + path, { method, ...init });
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
  const body: unknown = isJson ? JSON.parse(text) : text;
  if (method !== 'HEAD' && method !== 'OPTIONS') assertDocumented(method, new URL(base + path).pathname, res.status, body);
  return { status: res.status, headers: res.headers, body };
}

/** Polls until `check` passes (or fails the test after `ms`: generous, so a loaded machine only makes it slower). */
export async function eventually<T>(what: string, probe: () => Promise<T>, check: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (check(v)) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
