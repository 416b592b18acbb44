// Worker caches keyed by strings a script chooses stay within their byte budgets however large
// and however many those strings are: the Intl formatter cache (worker/ops/intl/intl-formatters.ts)
// and the encoding-label cache (worker/ops/encoding/encoding-ops.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatterCache, FORMATTER_CACHE_BYTES, FORMATTER_COST_BYTES } from '../../../worker/ops/intl/intl-formatters.ts';
import { labelChecker, LABEL_CACHE_BYTES } from '../../../worker/ops/encoding/encoding-ops.ts';
import { ByteLru } from '../../../shared/image-lru.ts';

test('the formatter cache holds at most FORMATTER_CACHE_BYTES of specs with huge option strings', () => {
  const cache = new FormatterCache();
  const padding = 'x'.repeat(100_000);
  let peak = 0;
  for (let i = 0; i < 1000; i++) {
    // Intl ignores options it does not know, so every spec builds; each is ~200 KB of UTF-16.
    const spec = JSON.stringify(['NumberFormat', 'en', { maximumFractionDigits: i % 10, note: `${padding}${i}` }]);
    const { formatter } = cache.formatterFor(spec);
    assert.equal((formatter as Intl.NumberFormat).format(1.23456789), new Intl.NumberFormat('en', { maximumFractionDigits: i % 10 }).format(1.23456789));
    peak = Math.max(peak, cache.bytes);
  }
  assert.ok(peak <= FORMATTER_CACHE_BYTES, `peak ${peak}`);
  // Long specs are kept under their digest ('#' + 44 base64 characters), not themselves.
  const entry = 2 * 45 + FORMATTER_COST_BYTES;
  assert.equal(cache.size, Math.floor(FORMATTER_CACHE_BYTES / entry));
  assert.equal(cache.bytes, cache.size * entry);
  // A recent long spec is a hit: the same host formatter.
  const recent = JSON.stringify(['NumberFormat', 'en', { maximumFractionDigits: 999 % 10, note: `${padding}999` }]);
  assert.equal(cache.formatterFor(recent), cache.formatterFor(recent));
  // One spec larger than the whole budget is built, used and not kept.
  const huge = JSON.stringify(['NumberFormat', 'en', { note: 'y'.repeat(FORMATTER_CACHE_BYTES) }]);
  assert.equal((cache.formatterFor(huge).formatter as Intl.NumberFormat).format(1000), '1,000');
  assert.ok(cache.bytes <= FORMATTER_CACHE_BYTES);
});

test('the encoding-label cache holds at most LABEL_CACHE_BYTES of labels, whatever their length', () => {
  const known = new ByteLru<boolean>(LABEL_CACHE_BYTES, Number.MAX_SAFE_INTEGER);
  const isSupported = labelChecker(known);
  assert.equal(isSupported('windows-1252'), true);
  assert.equal(isSupported('latin1'), true);
  let peak = 0;
  for (let i = 0; i < 2000; i++) {
    assert.equal(isSupported(`no-such-encoding-${'z'.repeat(10_000)}-${i}`), false);
    peak = Math.max(peak, known.bytes);
  }
  assert.ok(peak <= LABEL_CACHE_BYTES, `peak ${peak}`);
  assert.equal(isSupported('utf-16le'), true);
});
