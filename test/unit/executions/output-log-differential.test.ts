// The output log's sparse line index against a naive reference written from the paging rules:
// many random outputs, appended in random chunks (splitting UTF-8 sequences), paged in line and
// byte mode while running and after finishing. Offsets cluster around index block boundaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutputLog, type OutputWindow, type PageRequest } from '../../../supervisor/executions/output-log.ts';
import { INDEX_EVERY } from '../../../supervisor/executions/newline-index.ts';

/** mulberry32: a seeded generator, so a failure names a reproducible case. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isCont = (b: number): boolean => (b & 0xc0) === 0x80;

/** The paging rules, spelled out with a full newline list and linear scans. */
function reference(out: Buffer, finished: boolean, req: PageRequest): OutputWindow {
  const len = out.length;
  const nls: number[] = [];
  for (let i = 0; i < len; i++) if (out[i] === 0x0a) nls.push(i);
  const afterLastNl = nls.length > 0 ? nls[nls.length - 1]! + 1 : 0;
  const total = nls.length + (finished && afterLastNl < len ? 1 : 0);
  const lineStart = (n: number): number => (n === 0 ? 0 : n <= nls.length ? nls[n - 1]! + 1 : len);
  const lineAt = (pos: number): number => nls.filter((o) => o < pos).length;
  const window = (start: number, end: number, startLine: number, endLine: number, hasMore: boolean): OutputWindow => ({
    data: out.toString('utf8', start, end),
    start_line: startLine, end_line: endLine, next_line_offset: endLine, total_lines: total,
    start_byte: start, end_byte: end, next_byte_offset: end, total_bytes: len, has_more: hasMore,
  });
  if (req.mode === 'line') {
    const startLine = Math.min(Math.max(0, req.offset), total);
    const endLine = Math.min(startLine + Math.max(0, req.limit), total);
    return window(lineStart(startLine), lineStart(endLine), startLine, endLine, endLine < total);
  }
  // Character boundaries: every offset not inside a UTF-8 sequence, and the end.
  const boundary = (p: number): boolean => p >= len || !isCont(out[p]!);
  let start = Math.min(Math.max(0, req.offset), len);
  while (!boundary(start)) start++;
  let end: number;
  const limit = Math.max(0, req.limit);
  if (start + limit >= len) end = len;
  else if (limit === 0) end = start;
  else {
    end = start + limit;
    while (end > start && !boundary(end)) end--;
    if (end === start) { end = start + 1; while (!boundary(end)) end++; }
  }
  return window(start, end, lineAt(start), lineAt(end), end < len);
}

const PIECES = ['a', 'bc', 'line', ' ', '\n', '\n', '\n\n', 'é', '€', '😀', 'ü\n', 'x'.repeat(40)];

function randomOutput(r: () => number): Buffer {
  const shape = r();
  if (shape < 0.05) return Buffer.alloc(0);
  if (shape < 0.15) return Buffer.from(Array.from({ length: Math.floor(r() * 300) }, () => Math.floor(r() * 256))); // raw bytes, not UTF-8
  if (shape < 0.3) return Buffer.alloc(Math.floor(r() * 4 * INDEX_EVERY), 0x0a); // newlines only
  // Mostly small, sometimes several index blocks long.
  const pieces = shape < 0.7 ? Math.floor(r() * 60) : Math.floor(r() * 5 * INDEX_EVERY);
  let s = '';
  for (let i = 0; i < pieces; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return Buffer.from(s);
}

function randomRequest(r: () => number, out: Buffer, lines: number): PageRequest {
  const near = (n: number): number => Math.max(0, n + Math.floor(r() * 5) - 2);
  const pick = (extent: number): number => {
    const k = r();
    if (k < 0.15) return 0;
    if (k < 0.4) return near(Math.floor(r() * (extent / INDEX_EVERY + 1)) * INDEX_EVERY);
    if (k < 0.5) return near(extent);
    return Math.floor(r() * (extent + 4));
  };
  const limit = r() < 0.1 ? 0 : r() < 0.5 ? 1 + Math.floor(r() * 8) : Math.floor(r() * (r() < 0.5 ? 3 * INDEX_EVERY : 20_000));
  return r() < 0.5
    ? { mode: 'line', offset: pick(lines), limit }
    : { mode: 'byte', offset: pick(out.length), limit };
}

test('sparse index pages exactly like the naive reference (random outputs, chunks and requests)', () => {
  const r = rng(0x5eed);
  let compared = 0;
  for (let c = 0; c < 300; c++) {
    const out = randomOutput(r);
    const log = new OutputLog();
    const check = (upTo: number, finished: boolean, requests: number): void => {
      const prefix = out.subarray(0, upTo);
      const lines = out.subarray(0, upTo).filter((b) => b === 0x0a).length;
      for (let q = 0; q < requests; q++) {
        const req = randomRequest(r, prefix, lines);
        assert.deepEqual(log.page(req), reference(prefix, finished, req), `case ${c}, ${upTo} bytes, finished ${finished}, ${JSON.stringify(req)}`);
        compared++;
      }
    };
    // Appended in random chunks, paged between appends while still running.
    for (let at = 0; at < out.length;) {
      const n = 1 + Math.floor(r() * (r() < 0.5 ? 8 : 2 * INDEX_EVERY));
      log.append(Buffer.from(out.subarray(at, at + n)));
      at = Math.min(out.length, at + n);
      if (r() < 0.3) check(at, false, 3);
    }
    check(out.length, false, 10);
    log.finish();
    assert.equal(log.totalLines, reference(out, true, { mode: 'line', offset: 0, limit: 0 }).total_lines);
    check(out.length, true, 20);
  }
  assert.ok(compared > 9000, `compared ${compared} pages`);
});

test('every line boundary of a multi-block output, in both modes', () => {
  // Lines of varying length across several blocks: each line's page and each newline's byte page.
  const lines = Array.from({ length: 3 * INDEX_EVERY + 7 }, (_, i) => 'é'.repeat(i % 5) + String(i));
  const out = Buffer.from(lines.join('\n') + '\n' + 'tail');
  for (const finished of [false, true]) {
    const log = OutputLog.from(out, finished);
    for (let n = 0; n <= lines.length + 1; n++) {
      const req: PageRequest = { mode: 'line', offset: n, limit: 1 };
      assert.deepEqual(log.page(req), reference(out, finished, req));
    }
    for (let p = out.indexOf(0x0a); p !== -1; p = out.indexOf(0x0a, p + 1)) {
      for (const offset of [p, p + 1]) {
        const req: PageRequest = { mode: 'byte', offset, limit: 2 };
        assert.deepEqual(log.page(req), reference(out, finished, req));
      }
    }
  }
});
