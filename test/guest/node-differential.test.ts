// The differential harness (issue 20, deliverable 3): every corpus under test/guest/differential/
// — calls of a node: module, invalid arguments included — runs in the sandbox on both engines and
// in a child Node 24 (node_modules/.bin/node, the oracle). Each case's rendered value or thrown
// error (name, code, message) must be Node's, except the differences listed in known.ts with a
// reason: a case that starts to agree fails too, so the list (and the pass rates in
// docs/script-environment.md, checked here) stays exact.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { guestSuite } from '../helpers/both-engines.ts';
import { KNOWN, passRateRow, VARIES } from './differential/known.ts';

const dir = new URL('./differential/', import.meta.url);
const runner = readFileSync(new URL('runner.js', dir), 'utf8');
const MODULES = readdirSync(dir).filter((f) => f.endsWith('.cases.js')).map((f) => f.slice(0, -'.cases.js'.length)).sort();
const corpus = (module: string): string => readFileSync(new URL(`${module}.cases.js`, dir), 'utf8');
const node = new URL('../../node_modules/.bin/node', import.meta.url).pathname;

type Results = Record<string, string>;

function lastLine(output: string): Results {
  return JSON.parse(output.trimEnd().split('\n').at(-1)!) as Results;
}

/** Node's answers, computed once per module in a child Node started in `/` (the guest's cwd). */
const oracle = new Map<string, Promise<Results>>();
function nodeResults(module: string): Promise<Results> {
  let p = oracle.get(module);
  if (p === undefined) {
    const script = `import { createRequire } from 'node:module';\nconst require = createRequire('/main.js');\n${corpus(module)}\n${runner}`;
    p = promisify(execFile)(node, ['--input-type=module', '--no-warnings', '-e', script], { cwd: '/', env: { PATH: process.env.PATH ?? '' }, maxBuffer: 16 << 20 })
      .then(({ stdout }) => lastLine(stdout));
    oracle.set(module, p);
  }
  return p;
}

const rates: string[] = [];

guestSuite('node: modules against Node 24 (differential corpora)', (g) => {
  for (const module of MODULES) {
    g.test(module, async (ctx) => {
      const [expected, output] = await Promise.all([nodeResults(module), ctx.output(`${corpus(module)}\n${runner}`, { timeoutMs: 60_000, heapMemoryMaxMb: 64 })]);
      const actual = lastLine(output);
      assert.deepEqual(Object.keys(actual), Object.keys(expected), 'the same cases ran');
      const differing: Record<string, { runjs: string; node: string }> = {};
      const varies = VARIES[module] ?? {};
      for (const [name, want] of Object.entries(expected)) {
        const other = varies[name]?.otherwise;
        if (other !== undefined) assert.ok(actual[name] === want || actual[name] === other, `${name}: ${actual[name]} is neither Node's ${want} nor ${other}`);
        else if (actual[name] !== want) differing[name] = { runjs: actual[name]!, node: want };
      }
      const known = KNOWN[module]?.[ctx.engine] ?? {};
      assert.deepEqual(Object.keys(differing).sort(), Object.keys(known).sort(), `differences from Node on ${ctx.engine}: ${JSON.stringify(differing, null, 1)}`);
      rates.push(passRateRow(module, ctx.engine, Object.keys(expected).length));
    });
  }
});

after(() => {
  // Printed for the docs table (which the next test checks); on stderr, like every log.
  process.stderr.write(`${rates.sort().join('\n')}\n`);
});

test('docs/script-environment.md reports each module\'s pass rate', async () => {
  const docs = readFileSync(new URL('../../docs/script-environment.md', import.meta.url), 'utf8');
  for (const module of MODULES) {
    const count = Object.keys(await nodeResults(module)).length;
    const row = `| \`node:${module}\` | ${count} | ${passRateRow(module, 'v8', count)} | ${passRateRow(module, 'quickjs', count)} |`;
    assert.ok(docs.includes(row), `docs/script-environment.md lacks the row ${row}`);
  }
});
