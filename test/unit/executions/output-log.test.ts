import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutputLog } from '../../../supervisor/executions/output-log.ts';

const log = (s: string, finished = true) => OutputLog.from(Buffer.from(s), finished);

test('line mode: exact slice with newlines, exclusive end, every cursor field', () => {
  const l = log('a\nbb\nccc\n');
  assert.deepEqual(l.page({ mode: 'line', offset: 1, limit: 1 }), {
    data: 'bb\n', start_line: 1, end_line: 2, next_line_offset: 2, total_lines: 3,
    start_byte: 2, end_byte: 5, next_byte_offset: 5, total_bytes: 9, has_more: true,
  });
  assert.deepEqual(l.page({ mode: 'line', offset: 0, limit: 100 }), {
    data: 'a\nbb\nccc\n', start_line: 0, end_line: 3, next_line_offset: 3, total_lines: 3,
    start_byte: 0, end_byte: 9, next_byte_offset: 9, total_bytes: 9, has_more: false,
  });
});

test('line mode past the end is an empty page at the end', () => {
  assert.deepEqual(log('a\n').page({ mode: 'line', offset: 5, limit: 10 }), {
    data: '', start_line: 1, end_line: 1, next_line_offset: 1, total_lines: 1,
    start_byte: 2, end_byte: 2, next_byte_offset: 2, total_bytes: 2, has_more: false,
  });
  assert.deepEqual(log('').page({ mode: 'line', offset: 0, limit: 10 }), {
    data: '', start_line: 0, end_line: 0, next_line_offset: 0, total_lines: 0,
    start_byte: 0, end_byte: 0, next_byte_offset: 0, total_bytes: 0, has_more: false,
  });
});

test('a trailing partial line counts only once the run has finished', () => {
  assert.equal(log('a\nb', false).totalLines, 1);
  assert.equal(log('a\nb', false).page({ mode: 'line', offset: 0, limit: 10 }).data, 'a\n');
  assert.equal(log('a\nb', true).totalLines, 2);
  assert.equal(log('a\nb', true).page({ mode: 'line', offset: 1, limit: 10 }).data, 'b');
});

test('byte mode: window, line cursors from newline counts, has_more', () => {
  assert.deepEqual(log('a\nbb\nccc\n').page({ mode: 'byte', offset: 3, limit: 4 }), {
    data: 'b\ncc', start_line: 1, end_line: 2, next_line_offset: 2, total_lines: 3,
    start_byte: 3, end_byte: 7, next_byte_offset: 7, total_bytes: 9, has_more: true,
  });
});

test('byte mode never splits a UTF-8 character', () => {
  const l = log('é€x\n'); // é = 2 bytes, € = 3 bytes
  const p1 = l.page({ mode: 'byte', offset: 0, limit: 3 });
  assert.equal(p1.data, 'é');
  assert.equal(p1.end_byte, 2);
  const p2 = l.page({ mode: 'byte', offset: p1.next_byte_offset, limit: 1 });
  assert.equal(p2.data, '€', 'a window smaller than one character takes that character');
  assert.equal(p2.end_byte, 5);
  const p3 = l.page({ mode: 'byte', offset: 1, limit: 10 });
  assert.equal(p3.start_byte, 2, 'a start inside a character moves to the next one');
  assert.equal(p3.data, '€x\n');
});

test('paging by next offsets visits everything exactly once', () => {
  const text = Array.from({ length: 250 }, (_, i) => `line ${i} ü`).join('\n') + '\n';
  const l = log(text);
  let out = '';
  for (let off = 0, more = true; more;) {
    const p = l.page({ mode: 'line', offset: off, limit: 7 });
    out += p.data; off = p.next_line_offset; more = p.has_more;
  }
  assert.equal(out, text);
  out = '';
  for (let off = 0, more = true; more;) {
    const p = l.page({ mode: 'byte', offset: off, limit: 13 });
    out += p.data; off = p.next_byte_offset; more = p.has_more;
  }
  assert.equal(out, text);
});

test('16 MiB of newlines keeps the line index small, and pages still land exactly', () => {
  const MiB = 1024 * 1024;
  const l = OutputLog.from(Buffer.alloc(16 * MiB, 0x0a), true);
  // One number per newline would be 128 MiB in a Float64Array (and more as a JS array).
  assert.ok(l.indexBytes < MiB, `index holds ${l.indexBytes} bytes`);
  assert.equal(l.totalLines, 16 * MiB);
  assert.deepEqual(l.page({ mode: 'line', offset: 16 * MiB - 1, limit: 10 }), {
    data: '\n', start_line: 16 * MiB - 1, end_line: 16 * MiB, next_line_offset: 16 * MiB, total_lines: 16 * MiB,
    start_byte: 16 * MiB - 1, end_byte: 16 * MiB, next_byte_offset: 16 * MiB, total_bytes: 16 * MiB, has_more: false,
  });
  assert.deepEqual(l.page({ mode: 'byte', offset: 8 * MiB + 5, limit: 3 }), {
    data: '\n\n\n', start_line: 8 * MiB + 5, end_line: 8 * MiB + 8, next_line_offset: 8 * MiB + 8, total_lines: 16 * MiB,
    start_byte: 8 * MiB + 5, end_byte: 8 * MiB + 8, next_byte_offset: 8 * MiB + 8, total_bytes: 16 * MiB, has_more: true,
  });
});
