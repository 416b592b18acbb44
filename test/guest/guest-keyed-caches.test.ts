// Host caches keyed by strings a script chooses (the Intl formatter cache, the encoding-label
// cache) are bounded in bytes (test/unit/worker/guest-keyed-caches.test.ts): a script that makes
// thousands of distinct large keys runs to completion and leaves its worker healthy. On QuickJS
// every Intl formatter is a host formatter keyed by its options; on V8 Intl is native.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('guest-keyed host caches', (g) => {
  g.test('2,500 distinct formatters with 10 KB option strings (about 8 × what the cache holds) format correctly', async (ctx) => {
    const code = [
      "const pad = 'x'.repeat(10_000);",
      'let out = "";',
      'for (let i = 0; i < 2_500; i++) {',
      '  const f = new Intl.NumberFormat("en", { maximumFractionDigits: i % 4, note: pad + i });',
      '  if (i % 500 === 0 || i % 500 === 1) out += f.format(1.23456) + " ";',
      '}',
      'out',
    ].join('\n');
    assert.deepEqual((await ctx.run(code, { timeoutMs: 60_000 })).outcome, { status: 'completed', result: '"1 1.2 1 1.2 1 1.2 1 1.2 1 1.2 "' });
    assert.equal(await ctx.output('console.log(new Intl.NumberFormat("de-DE").format(1234.5))'), '1.234,5\n');
  });

  g.test('10,000 distinct unknown 10 KB encoding labels each fail as in Node', async (ctx) => {
    const code = [
      "const pad = 'z'.repeat(10_000);",
      'let failures = 0;',
      'for (let i = 0; i < 10_000; i++) { try { new TextDecoder(pad + i) } catch (e) { if (e instanceof RangeError && e.code === "ERR_ENCODING_NOT_SUPPORTED") failures++ } }',
      'failures + " " + new TextDecoder("windows-1252").decode(new Uint8Array([0x80]))',
    ].join('\n');
    assert.deepEqual((await ctx.run(code, { timeoutMs: 60_000 })).outcome, { status: 'completed', result: '"10000 €"' });
  });
});
