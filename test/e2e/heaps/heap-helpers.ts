// Small REST helpers for the heap e2e tests: submit, wait for a terminal status, JSON calls.
import assert from 'node:assert/strict';

export interface Info {
  execution_id: string;
  status: string;
  result: string | null;
  heap: string | null;
  error: string | null;
}

export async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(base + path, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
}

export async function submit(base: string, req: Record<string, unknown>): Promise<string> {
  const r = await call(base, 'POST', '/api/exec', req);
  assert.equal(r.status, 202, JSON.stringify(r.json));
  return r.json.execution_id as string;
}

export async function wait(base: string, id: string, timeoutMs = 30_000): Promise<Info> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(base, 'GET', `/api/executions/${id}`);
    assert.equal(r.status, 200);
    if (r.json.status !== 'running') return r.json as Info;
    if (Date.now() > until) throw new Error(`execution ${id} still running`);
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

/** Runs to completion and returns the parsed result and the heap key. */
export async function run(base: string, req: Record<string, unknown>): Promise<{ value: unknown; heap: string; info: Info }> {
  const info = await wait(base, await submit(base, req));
  assert.equal(info.status, 'completed', JSON.stringify(info));
  assert.match(info.heap ?? '', /^[0-9a-f]{64}$/);
  return { value: info.result === '' ? undefined : JSON.parse(info.result!), heap: info.heap!, info };
}

export async function runFailed(base: string, req: Record<string, unknown>): Promise<Info> {
  const info = await wait(base, await submit(base, req));
  assert.equal(info.status, 'failed', JSON.stringify(info));
  assert.equal(info.heap, null);
  return info;
}

export const SETUP = `
class Counter {
  count = 0;
  constructor(public name: string) {}
  inc() { return ++this.count; }
}
globalThis.Counter = Counter;
globalThis.c = new Counter('main');
c.inc();
globalThis.greeting = 'hello';
globalThis.list = [1, 2, 3];
globalThis.makeAdder = (n: number) => (x: number) => x + n;
globalThis.add10 = makeAdder(10);
let secret = 41;
globalThis.nextSecret = () => ++secret;
globalThis.byName = new Map([['a', { deep: [1, { x: 2 }] }]]);
'ok'
`;

export const CHECK = `[greeting, list, add10(5), nextSecret(), c.inc(), c instanceof Counter, c.name, byName.get('a').deep[1].x]`;
