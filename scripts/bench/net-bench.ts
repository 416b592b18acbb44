// Network and policy metrics (issue 13 "Targets"), through the real pool and worker processes
// against a real HTTP server on 127.0.0.1:
//
//   net.fetch_local_p50_ms        a run whose script fetches a small local response and reads it,
//                                 submit → outcome. Peer, measured in the same round: plain Node's
//                                 fetch of the same URL plus a trivial run on the same pool — so
//                                 `median − peer median` is what a fetch costs inside the sandbox
//                                 beyond Node's own (the target: ≤ 1 ms).
//   net.fetch_in_script_p50_ms    one fetch + text() timed inside a script (performance.now), the
//                                 median of 50 back to back; peer: the same loop in this process
//                                 with Node's fetch.
//   policy.js_hook_decision_p50_ms  one `fetch` decision by a JavaScript hook (its own isolate),
//                                 after warm-up, in-process (the engine a worker runs); peer: the
//                                 same decision with no policy configured.
//
// A keep-alive connection is reused in both subject and peer (the worker's undici pool, shared by
// its runs; Node's global agent): the log line says how many connections the server saw.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { comparedMetric, median, sampleLoop, type BenchOptions, type Metric } from './bench-kit.ts';
import { submit, withPool } from './engine-bench.ts';
import { PolicyEngine } from '../../worker/policy/policy-engine.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';
import { fetchInput } from '../../worker/ops/fetch/fetch-policy.ts';

export const metricPrefixes = ['net.', 'policy.js_hook'];

async function localServer(): Promise<{ url: string; connections(): number; close(): void }> {
  const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' }).end('hello'); });
  let connections = 0;
  server.on('connection', () => { connections++; });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/small`, connections: () => connections, close: () => { server.closeAllConnections(); server.close(); } };
}

async function outcomeOf(pool: Parameters<typeof submit>[0], code: string): Promise<string> {
  const o = await submit(pool, code).outcome;
  if (o.status !== 'completed') throw new Error(`bench run ${o.status}: ${o.status === 'failed' ? o.error : ''}`);
  return o.result ?? '';
}

async function fetchMetrics(opts: BenchOptions): Promise<Metric[]> {
  const server = await localServer();
  try {
    return await withPool(1, async (pool) => {
      const out: Metric[] = [];
      if (opts.wants('net.fetch_local_p50_ms')) {
        const subject: number[] = [];
        const peer: number[] = [];
        const iterations = opts.count(200, 5);
        for (let i = 0; i < iterations + 20; i++) {
          let t0 = performance.now();
          const text = await outcomeOf(pool, `(await (await fetch('${server.url}?${i}')).text()) + ${i}`);
          const s = performance.now() - t0;
          if (text !== `"hello${i}"`) throw new Error(`net.fetch_local: unexpected result ${text}`);
          t0 = performance.now();
          await (await fetch(`${server.url}?${i}`)).text();
          await outcomeOf(pool, `${i} + 1`);
          const p = performance.now() - t0;
          if (i >= 20) { subject.push(s); peer.push(p); }
        }
        out.push(comparedMetric('net.fetch_local_p50_ms', 'ms', subject, 'node_fetch_plus_trivial_run', peer));
        // The worker's pool keeps one connection across runs (docs/network.md, Connections), as Node's global agent does: ≈ 2 in all.
        opts.log(`net.fetch_local: overhead over the peer ${(median(subject) - median(peer)).toFixed(3)} ms; connections the server saw: ${server.connections()} for ${2 * (iterations + 20)} requests`);
      }
      if (opts.wants('net.fetch_in_script_p50_ms')) {
        const n = opts.count(50, 3);
        const rounds = opts.count(15, 2);
        const subject: number[] = [];
        const peer: number[] = [];
        for (let r = 0; r < rounds; r++) {
          // Times per fetch inside the script; the median of the loop comes back as the result.
          const code = `const t = []; for (let i = 0; i < ${n + 5}; i++) { const t0 = performance.now(); await (await fetch('${server.url}?' + i)).text(); t.push(performance.now() - t0); }
            t.slice(5).sort((a, b) => a - b)[${n >> 1}]`;
          subject.push(Number(await outcomeOf(pool, code)));
          const times = await sampleLoop(async (i) => { const t0 = performance.now(); await (await fetch(`${server.url}?${i}`)).text(); return performance.now() - t0; }, { warmup: 5, iterations: n });
          peer.push(median(times));
        }
        out.push(comparedMetric('net.fetch_in_script_p50_ms', 'ms', subject, 'node_fetch', peer));
      }
      return out;
    }, 10_000, { network: { fetchDefault: 'allow' }, warmEngines: ['v8'] });
  } finally {
    server.close();
  }
}

async function hookMetric(opts: BenchOptions): Promise<Metric[]> {
  if (!opts.wants('policy.js_hook_decision_p50_ms')) return [];
  const dir = mkdtempSync(join(tmpdir(), 'runjs-bench-hook-'));
  const file = join(dir, 'allow-list.js');
  writeFileSync(file, `const hosts = new Set(['api.example.com', 'cdn.example.com', '127.0.0.1']);
export default (input) => hosts.has(input.url_parsed.host) && (input.method === 'GET' || input.method === 'POST');`);
  const hooked = new PolicyEngine(parsePolicyConfig({ fetch: { policies: [{ url: pathToFileURL(file).href }] } }), { log: () => {} });
  const none = new PolicyEngine({}, { log: () => {} });
  const input = fetchInput(new URL('https://api.example.com/v1/items?limit=10'), 'GET', { accept: 'application/json' });
  try {
    const batch = 100;
    const one = async (policy: ReturnType<typeof hooked.forRun>): Promise<number> => {
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) {
        const d = await policy.decide('fetch', input);
        if (!d.allow) throw new Error('policy bench: the allow-list denied');
      }
      return (performance.now() - t0) / batch;
    };
    const rounds = opts.count(60, 3);
    const subject: number[] = [];
    const peer: number[] = [];
    for (let i = 0; i < rounds + 10; i++) {
      // A run's view per round, as each execution gets one: its log keeps every decision (≤ 1000).
      const s = await one(hooked.forRun());
      const p = await one(none.forRun());
      if (i >= 10) { subject.push(s); peer.push(p); }
    }
    return [comparedMetric('policy.js_hook_decision_p50_ms', 'ms', subject, 'no_policy', peer)];
  } finally {
    hooked.dispose();
    none.dispose();
  }
}

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  if (opts.wantsGroup('net.')) out.push(...await fetchMetrics(opts));
  out.push(...await hookMetric(opts));
  return out;
}
