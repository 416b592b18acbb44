// Upstream MCP metrics (issue 17 "Targets"), through the real pool, worker process, delegated-op
// route and supervisor client against a Streamable HTTP upstream on 127.0.0.1 (the SDK's
// McpServer, the test fixture's trivial `echo` tool):
//
//   mcp.call_tool_from_script_p50_ms   one `await mcp.callTool('web', 'echo', {...})` timed inside a
//                                      script (performance.now), the median of 50 back to back.
//                                      Peer, measured in the same round: the same loop in this
//                                      process with the SDK's own client calling the same tool —
//                                      so `median − peer median` is what the sandbox adds (the
//                                      target: ≤ 2 ms).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { comparedMetric, median, sampleLoop, type BenchOptions, type Metric } from './bench-kit.ts';
import { submit, withPool } from './engine-bench.ts';
import { OpRouter } from '../../supervisor/pool/op-router.ts';
import { UpstreamHub, upstreamOpRoutes } from '../../supervisor/upstream-mcp/index.ts';
import { startHttpUpstream } from '../../test/fixtures/upstream-mcp/upstream-server.ts';

export const metricPrefixes = ['mcp.'];

export async function run(opts: BenchOptions): Promise<Metric[]> {
  if (!opts.wants('mcp.call_tool_from_script_p50_ms')) return [];
  const upstream = await startHttpUpstream('bench');
  const hub = new UpstreamHub([{ name: 'web', transport: 'http', url: upstream.url }], { version: 'bench', log: { info: () => {}, warn: (l) => opts.log(l) } });
  const direct = new Client({ name: 'bench-peer', version: '1' });
  try {
    await hub.start();
    await direct.connect(new StreamableHTTPClientTransport(new URL(upstream.url)));
    const n = opts.count(50, 3);
    const rounds = opts.count(15, 2);
    return await withPool(1, async (pool) => {
      const subject: number[] = [];
      const peer: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const code = `const t = []; for (let i = 0; i < ${n + 5}; i++) { const t0 = performance.now(); const r = await mcp.callTool('web', 'echo', { text: 'x' + i }); if (r.content[0].text !== 'bench: x' + i) throw new Error('bad answer'); t.push(performance.now() - t0); }
          t.slice(5).sort((a, b) => a - b)[${n >> 1}]`;
        const o = await submit(pool, code).outcome;
        if (o.status !== 'completed') throw new Error(`mcp bench run ${o.status}: ${o.status === 'failed' ? o.error : ''}`);
        subject.push(Number(o.result));
        const times = await sampleLoop(async (i) => {
          const t0 = performance.now();
          await direct.callTool({ name: 'echo', arguments: { text: `x${i}` } });
          return performance.now() - t0;
        }, { warmup: 5, iterations: n });
        peer.push(median(times));
      }
      opts.log(`mcp.call_tool_from_script: overhead over the SDK client ${(median(subject) - median(peer)).toFixed(3)} ms`);
      return [comparedMetric('mcp.call_tool_from_script_p50_ms', 'ms', subject, 'sdk_client_call', peer)];
    }, 10_000, { warmEngines: ['v8'], ops: new OpRouter([upstreamOpRoutes(hub)], (l) => opts.log(l)), mcpCatalog: () => hub.catalogJson() });
  } finally {
    await direct.close();
    await hub.close();
    await upstream.close();
  }
}
