// Text merges checked against git itself: `git merge-file -p --diff3 -L ours -L base -L theirs`
// on a corpus of edits (disjoint, adjacent, overlapping, identical, insertions at both ends,
// deletions against edits, no final newline, empty base). Clean results and conflict texts with
// markers must be byte for byte what git writes, and clean exactly when git exits 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeText, sniff, splitLines, unifiedDiff } from '../../../supervisor/fs/text-merge.ts';

const dir = mkdtempSync(join(tmpdir(), 'runjs-merge-oracle-'));

function gitMerge(base: string, ours: string, theirs: string, favour?: 'ours' | 'theirs'): { clean: boolean; out: string } {
  writeFileSync(join(dir, 'ours'), ours);
  writeFileSync(join(dir, 'base'), base);
  writeFileSync(join(dir, 'theirs'), theirs);
  const args = ['merge-file', '-p', ...(favour === undefined ? ['--diff3'] : [`--${favour}`]), '-L', 'ours', '-L', 'base', '-L', 'theirs', join(dir, 'ours'), join(dir, 'base'), join(dir, 'theirs')];
  try {
    return { clean: true, out: execFileSync('git', args, { encoding: 'utf8' }) };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    assert.ok(err.status > 0 && err.status < 128, `git failed: ${String(e)}`);
    return { clean: false, out: err.stdout };
  }
}

const BASE = Array.from({ length: 40 }, (_, i) => `line ${i}: ${'abcdefghij'.slice(0, i % 10)}\n`).join('');
const lines = splitLines(BASE);
const edit = (text: string, at: number, replacement: string): string => splitLines(text).map((l, i) => (i === at ? replacement : l)).join('');
const del = (text: string, at: number, n = 1): string => splitLines(text).filter((_, i) => i < at || i >= at + n).join('');
const ins = (text: string, at: number, added: string): string => { const l = splitLines(text); l.splice(at, 0, added); return l.join(''); };

const CORPUS: [string, string, string, string][] = [
  ['disjoint edits', BASE, edit(BASE, 3, 'ours 3\n'), edit(BASE, 30, 'theirs 30\n')],
  ['same line, different edits', BASE, edit(BASE, 10, 'ours 10\n'), edit(BASE, 10, 'theirs 10\n')],
  ['adjacent lines', BASE, edit(BASE, 10, 'ours 10\n'), edit(BASE, 11, 'theirs 11\n')],
  ['one line apart', BASE, edit(BASE, 10, 'ours 10\n'), edit(BASE, 12, 'theirs 12\n')],
  ['identical edits', BASE, edit(BASE, 5, 'both\n'), edit(BASE, 5, 'both\n')],
  ['both append differently', BASE, `${BASE}ours tail\n`, `${BASE}theirs tail\n`],
  ['both prepend differently', BASE, `ours head\n${BASE}`, `theirs head\n${BASE}`],
  ['delete vs edit of the same line', BASE, del(BASE, 7), edit(BASE, 7, 'theirs 7\n')],
  ['delete a block vs edit inside it', BASE, del(BASE, 15, 5), edit(BASE, 17, 'theirs 17\n')],
  ['insert vs edit far away', BASE, ins(BASE, 20, 'new ours\n'), edit(BASE, 1, 'theirs 1\n')],
  ['insert at the same place', BASE, ins(BASE, 20, 'ours new\n'), ins(BASE, 20, 'theirs new\n')],
  ['no final newline, edit last line both', 'a\nb\nc', 'a\nb\nC1', 'a\nb\nC2'],
  ['no final newline, disjoint', 'a\nb\nc', 'A\nb\nc', 'a\nb\nC'],
  ['empty base (2-way)', '', 'x\ny\n', 'x\nz\n'],
  ['one side unchanged', BASE, BASE, edit(BASE, 9, 'theirs 9\n')],
  ['many scattered edits', BASE, [2, 12, 22, 32].reduce((t, i) => edit(t, i, `o${i}\n`), BASE), [7, 17, 27, 37].reduce((t, i) => edit(t, i, `t${i}\n`), BASE)],
  ['overlapping multi-line', BASE, edit(edit(BASE, 20, 'o20\n'), 21, 'o21\n'), edit(edit(BASE, 21, 't21\n'), 22, 't22\n')],
  ['crlf lines', 'a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n', 'a\r\nb\r\nC\r\n'],
  ['unicode', 'α\nβ\nγ\n', 'α\nβ2\nγ\n', 'α\nβ3\nγ\n'],
  ['everything deleted vs edit', BASE, '', edit(BASE, 0, 'theirs 0\n')],
];

test('line merges match git merge-file --diff3 byte for byte', () => {
  assert.equal(lines.length, 40);
  let conflicts = 0;
  for (const [name, base, ours, theirs] of CORPUS) {
    const git = gitMerge(base, ours, theirs);
    const mine = mergeText(base, ours, theirs);
    assert.equal(mine.clean, git.clean, `${name}: clean`);
    assert.equal(mine.clean ? mine.text : mine.markers, git.out, `${name}: output`);
    if (!mine.clean) conflicts++;
  }
  assert.ok(conflicts >= 8 && conflicts < CORPUS.length, `the corpus has both outcomes (${conflicts} conflicts)`);
});

test('prefer resolves conflicting hunks like git merge-file --ours / --theirs', () => {
  for (const [name, base, ours, theirs] of CORPUS) {
    for (const side of ['ours', 'theirs'] as const) {
      const git = gitMerge(base, ours, theirs, side);
      const mine = mergeText(base, ours, theirs, side);
      assert.ok(mine.clean && git.clean, `${name} ${side}: clean`);
      assert.equal(mine.clean ? mine.text : '', git.out, `${name} ${side}: output`);
    }
  }
});

test('unified diffs apply the side to the base (checked with git apply)', () => {
  const ours = edit(BASE, 10, 'ours 10\n');
  const patch = unifiedDiff('work/a.txt', BASE, ours, 'ours');
  assert.match(patch, /^={67}\n--- base\/work\/a\.txt\n\+\+\+ ours\/work\/a\.txt\n@@ -8,7 \+8,7 @@\n/);
  writeFileSync(join(dir, 'a.txt'), BASE);
  writeFileSync(join(dir, 'p.diff'), patch.replace(/^=+\n/, '').replace('--- base/work/a.txt', '--- a/a.txt').replace('+++ ours/work/a.txt', '+++ b/a.txt'));
  execFileSync('git', ['apply', '--unsafe-paths', `--directory=${dir.slice(1)}`, join(dir, 'p.diff')], { cwd: '/' });
});

test('content sniffing: text, binary, sqlite', () => {
  assert.equal(sniff(Buffer.from('')), 'text');
  assert.equal(sniff(Buffer.from('héllo\n')), 'text');
  assert.equal(sniff(Buffer.from([0x66, 0, 0x67])), 'binary');
  assert.equal(sniff(Buffer.from([0xff, 0xfe, 0x41])), 'binary');
  assert.equal(sniff(Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(100)])), 'sqlite');
});
