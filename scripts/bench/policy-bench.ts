// The in-process Rego evaluator on the decision path (issue 14): one fetch decision against a
// 20-rule allow-list, as a worker makes it (worker/policy/rego-source.ts: the input document
// converted, the rule evaluated, the verdict taken), timed one decision at a time after warm-up.
// The input matches only the last rule, so every rule is tried; half the samples are a denial
// (nothing matches), half the allow.
import { metric, type BenchOptions, type Metric } from './bench-kit.ts';
import { RegoEvaluator } from '../../worker/policy/rego-source.ts';
import { DEFAULT_REGO_TIMEOUT_MS } from '../../shared/policy-settings.ts';

export const metricPrefixes = ['policy.'];

/** Twenty `allow` rules: each a host, a method set and a path prefix. */
export function allowListPolicy(rules = 20): string {
  const body = Array.from({ length: rules }, (_, i) => `
allow if {
  input.url_parsed.host == "api${i}.example.com"
  input.method in {"GET", "HEAD"}
  startswith(input.url_parsed.path, "/v${i}/")
}`).join('\n');
  return `package mcp.fetch\n\nimport rego.v1\n\ndefault allow := false\n${body}\n`;
}

export function fetchInput(host: string, path: string): Record<string, unknown> {
  return {
    operation: 'fetch', url: `https://${host}${path}`, method: 'GET',
    headers: { accept: 'application/json', 'user-agent': 'runjs', 'x-request-id': 'abc123' },
    url_parsed: { scheme: 'https', host, port: null, path, query: 'page=2' },
  };
}

export async function run(opts: BenchOptions): Promise<Metric[]> {
  if (!opts.wants('policy.rego_decision_p50_us')) return [];
  const rego = new RegoEvaluator({ kind: 'rego', url: 'file:///bench/fetch.rego', modules: [{ file: '/bench/fetch.rego', text: allowListPolicy() }], rule: 'data.mcp.fetch.allow', timeoutMs: DEFAULT_REGO_TIMEOUT_MS });
  const allowed = fetchInput('api19.example.com', '/v19/items');
  const denied = fetchInput('evil.example.com', '/v19/items');
  if (!rego.decide(allowed).allow || rego.decide(denied).allow) throw new Error('policy.rego_decision: the allow-list decided wrongly');
  const warmup = opts.count(20_000, 50);
  const iterations = opts.count(20_000, 50);
  const samples: number[] = [];
  for (let i = 0; i < warmup + iterations; i++) {
    const input = i % 2 === 0 ? allowed : denied;
    const t0 = performance.now();
    rego.decide(input);
    const us = (performance.now() - t0) * 1000;
    if (i >= warmup) samples.push(us);
  }
  opts.log(`policy.rego_decision: ${iterations} decisions timed`);
  return [metric('policy.rego_decision_p50_us', 'us', samples)];
}
