// The snapshot store over a real directory blob store: canonical ids, lazy lookups, copy-on-write
// commits, chunked large files with dedup, verification on read and hostile names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DirBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { FsStore, type FsChange } from '../../../supervisor/fs/fs-store.ts';
import { compareNames, encodeLeaf, MAX_LEAF_ENTRIES } from '../../../supervisor/fs/tree-format.ts';
import { encodeObject } from '../../../supervisor/fs/fs-objects.ts';
import { dirBytes } from '../../../scripts/bench/bench-kit.ts';
import { RunjsError } from '../../../shared/errors.ts';

function open(): { store: FsStore; dir: string; blobs: DirBlobStore } {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-store-'));
  const blobs = new DirBlobStore({ root: dir });
  return { store: new FsStore({ blobs, log: () => {} }), dir, blobs };
}
const files = (o: Record<string, string | Uint8Array | null>): Map<string, FsChange> =>
  new Map(Object.entries(o).map(([p, v]) => [p, v === null ? { kind: 'delete' } : { kind: 'file', bytes: typeof v === 'string' ? Buffer.from(v) : v }]));
const text = async (store: FsStore, root: string, path: string): Promise<string | undefined> => {
  const e = await store.lookup(root, path);
  return e?.kind === 'file' ? Buffer.from(await store.readFile(e)).toString() : undefined;
};

test('equal trees have equal ids whatever the order they were written in', async () => {
  const { store } = open();
  const a = await store.commit(undefined, files({ 'x/a.txt': 'A', 'x/b.txt': 'B', 'c': 'C' }));
  const b1 = await store.commit(undefined, files({ 'c': 'C' }));
  const b = await store.commit(b1, files({ 'x/b.txt': 'B', 'x/a.txt': 'A' }));
  assert.equal(a, b);
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.equal(await text(store, a, 'x/a.txt'), 'A');
  assert.equal(await store.lookup(a, 'x/nope'), undefined);
  assert.equal(await store.lookup(a, 'c/under-a-file'), undefined);
  const listing = [];
  for await (const [p, e] of store.walk(a)) listing.push(`${p}:${e.kind}`);
  assert.deepEqual(listing, ['c:file', 'x:dir', 'x/a.txt:file', 'x/b.txt:file']);
});

test('deletes prune emptied directories; deleting everything gives the empty snapshot', async () => {
  const { store } = open();
  const empty = await store.emptyTree();
  const a = await store.commit(undefined, files({ 'd/e/f.txt': 'x', 'g': 'y' }));
  const b = await store.commit(a, files({ 'd/e/f.txt': null }));
  assert.equal(await store.lookup(b, 'd'), undefined);
  assert.equal(await store.commit(b, files({ g: null })), empty);
  assert.equal(await store.commit(a, files({ d: null, g: null })), empty);
});

test('a one-line edit in a 1,000-file tree stores only a few KiB (flat and nested)', async () => {
  for (const layout of ['flat', 'nested'] as const) {
    const { store, dir } = open();
    const init: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) {
      const path = layout === 'flat' ? `file-${i}.ts` : `dir-${i % 10}/file-${i}.ts`;
      init[path] = Array.from({ length: 30 }, (_, l) => `export const v${l} = ${i * 100 + l}; // line ${l}\n`).join('');
    }
    const root = await store.commit(undefined, files(init));
    const before = dirBytes(dir);
    const path = layout === 'flat' ? 'file-500.ts' : 'dir-0/file-500.ts';
    const edited = init[path]!.replace('line 7', 'line seven');
    const next = await store.commit(root, files({ [path]: edited }));
    const added = dirBytes(dir) - before;
    assert.ok(added <= 8 * 1024, `${layout}: ${added} bytes for a one-line edit`);
    assert.equal(await text(store, next, path), edited);
    assert.equal(await text(store, next, layout === 'flat' ? 'file-501.ts' : 'dir-1/file-501.ts'), init[layout === 'flat' ? 'file-501.ts' : 'dir-1/file-501.ts']);
  }
});

test('a directory above the leaf limit is split into buckets and still lists and looks up', async () => {
  const { store } = open();
  const many: Record<string, string> = {};
  for (let i = 0; i < MAX_LEAF_ENTRIES * 3; i++) many[`n${i}`] = `${i}`;
  const root = await store.commit(undefined, files(many));
  assert.equal((await store.node(root)).type, 'index');
  assert.equal((await store.listDir(root)).size, MAX_LEAF_ENTRIES * 3);
  assert.equal(await text(store, root, 'n77'), '77');
  // Removing names until it fits again gives back the leaf form (ids are canonical).
  const dels: Record<string, null> = {};
  for (let i = 10; i < MAX_LEAF_ENTRIES * 3; i++) dels[`n${i}`] = null;
  const small = await store.commit(root, files(dels));
  const direct: Record<string, string> = {};
  for (let i = 0; i < 10; i++) direct[`n${i}`] = `${i}`;
  assert.equal(small, await store.commit(undefined, files(direct)));
});

test('large files are chunked, compressed, and an edit re-stores only the chunks around it', async () => {
  const { store, dir } = open();
  const big = randomBytes(3 * 1024 * 1024);
  const root = await store.commit(undefined, files({ 'big.bin': big, 'zeros.bin': new Uint8Array(4 * 1024 * 1024) }));
  const e = await store.lookup(root, 'big.bin');
  assert.ok(e?.kind === 'file' && e.chunked && e.size === big.length);
  assert.deepEqual(Buffer.from(await store.readFile(e)), big);
  const before = dirBytes(dir);
  assert.ok(before < big.length + 256 * 1024, `zeros compress: ${before}`);
  const edited = Buffer.from(big);
  edited.writeUInt8(edited[2 * 1024 * 1024]! ^ 0xff, 2 * 1024 * 1024);
  const next = await store.commit(root, files({ 'big.bin': edited }));
  assert.ok(dirBytes(dir) - before < 1.5 * 1024 * 1024, `one chunk rewritten: ${dirBytes(dir) - before}`);
  const e2 = await store.lookup(next, 'big.bin');
  assert.ok(e2?.kind === 'file');
  assert.deepEqual(Buffer.from(await store.readFile(e2)), edited);
});

test('hostile paths are refused with the path and the reason', async () => {
  const { store } = open();
  const cases: [string, string][] = [
    ['../etc/passwd', "invalid path \"../etc/passwd\": '..' is not a name"],
    ['/etc/passwd', 'invalid path "/etc/passwd": paths are relative to the snapshot root (no leading /)'],
    ['a//b', 'invalid path "a//b": empty name'],
    ['a/./b', "invalid path \"a/./b\": '.' is not a name"],
    ['a\0b', 'invalid path "a\\u0000b": a name cannot contain NUL'],
    ['', 'invalid path "": empty name'],
    [`${'x'.repeat(256)}`, `invalid path "${'x'.repeat(80)}…": a name is at most 255 bytes`],
  ];
  for (const [path, message] of cases) {
    await assert.rejects(store.commit(undefined, files({ [path]: 'x' })), (e: unknown) => RunjsError.is(e, 'FS_INVALID_PATH') && e.message === message && e.status === 400);
  }
  const root = await store.commit(undefined, files({ f: 'x' }));
  await assert.rejects(store.commit(root, files({ 'f/g': 'y' })), /invalid path "f": 'f' is a file, not a directory/);
});

test('stored trees are verified on read: tampered bytes and hostile stored names are corrupt, not trusted', async () => {
  const { store, dir, blobs } = open();
  const root = await store.commit(undefined, files({ a: 'x' }));
  // Overwrite the stored node with other bytes under the same key (bit rot, tampering).
  const shard = join(dir, root.slice(0, 2), root.slice(2));
  writeFileSync(shard, Buffer.from('\0garbage'));
  const fresh = new FsStore({ blobs, log: () => {} });
  await assert.rejects(fresh.node(root), (e: unknown) => RunjsError.is(e, 'FS_SNAPSHOT_CORRUPT'));
  // A well-hashed node whose entry is `..`: decoding refuses it.
  const evil = encodeLeaf(new Map([['..', { kind: 'dir', id: root }]]));
  const key = await blobs.put(encodeObject(evil));
  await assert.rejects(fresh.node(key), /corrupt: entry name "\.\.": '\.\.' is not a name/);
  await assert.rejects(fresh.node('f'.repeat(64)), (e: unknown) => RunjsError.is(e, 'FS_SNAPSHOT_NOT_FOUND'));
});

test('names order by their UTF-8 bytes: ASCII, accents, CJK, private use and astral characters, prefixes', () => {
  const names = ['a', 'ab', 'a.txt', 'B', 'é', 'e\u0301', '\u4e2d', '\uff21', '\ue000', '\u{1f600}', '\u{1f601}', 'x\u{1f600}', 'x\uffff', 'x', '', 'Z~', 'z'];
  const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
  for (const a of names) for (const b of names) assert.equal(compareNames(a, b), byBytes(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  assert.deepEqual([...names].sort(compareNames), ['', 'B', 'Z~', 'a', 'a.txt', 'ab', 'e\u0301', 'x', 'x\uffff', 'x\u{1f600}', 'z', '\u00e9', '\u4e2d', '\ue000', '\uff21', '\u{1f600}', '\u{1f601}']);
});
