// The packed mount image of a run request (shared/fs-mount-wire.ts): through V8's serializer
// (what the worker channel uses) and back to the same image; inconsistent forms are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deserialize, serialize } from 'node:v8';
import { packMountImage, unpackMountImage, isPackedMountImage, type PackedMountImage } from '../../../shared/fs-mount-wire.ts';
import { isSupervisorMessage } from '../../../shared/protocol.ts';
import { DEFAULT_MOUNT_LIMITS, type MountImage } from '../../../shared/fs-mount.ts';

const id = (c: string): string => c.repeat(64);
const IMAGE: MountImage = {
  entries: [
    { path: 'a.txt', kind: 'file', mode: 0o644, size: 5, id: id('a') },
    { path: 'dir/é x', kind: 'file', mode: 0o755, size: 2 ** 40, id: id('b') },
    { path: 'dir/link', kind: 'symlink', target: '../a.txt' },
    { path: 'inline.bin', kind: 'file', mode: 0o600, size: 3, id: id('c'), bytes: Uint8Array.of(1, 2, 3) },
  ],
  limits: DEFAULT_MOUNT_LIMITS,
};

test('a packed image crosses V8 serialization and unpacks to the same image', () => {
  const wire = deserialize(serialize({ mount: packMountImage(IMAGE) })) as { mount: unknown };
  assert.ok(isPackedMountImage(wire.mount));
  assert.deepEqual(unpackMountImage(wire.mount), IMAGE);
  const empty = deserialize(serialize(packMountImage({ entries: [], limits: DEFAULT_MOUNT_LIMITS }))) as PackedMountImage;
  assert.deepEqual(unpackMountImage(empty), { entries: [], limits: DEFAULT_MOUNT_LIMITS });
  const run = { type: 'run', runId: 'r', code: '1', engine: 'v8', heapMemoryMaxMb: 16, timeoutMs: 1000, maxOutputBytes: 1024 };
  assert.equal(isSupervisorMessage({ ...run, mount: packMountImage(IMAGE) }), true);
  assert.equal(isSupervisorMessage({ ...run, mount: IMAGE }), false, 'the unpacked form is not the wire form');
});

test('an inconsistent packed image unpacks to nothing', () => {
  const p = packMountImage(IMAGE);
  const broken: [string, PackedMountImage][] = [
    ['a path too few', { ...p, paths: 'a.txt\0dir/é x\0dir/link' }],
    ['an id too short', { ...p, ids: p.ids.slice(1) }],
    ['an id not hex', { ...p, ids: `${'g'.repeat(64)}${p.ids.slice(64)}` }],
    ['a symlink target missing', { ...p, targets: [] }],
    ['an extra target', { ...p, targets: ['x', 'y'] }],
    ['an unknown kind', { ...p, kinds: Uint8Array.of(0, 0, 7, 0) }],
    ['sizes of the wrong length', { ...p, sizes: new Float64Array(3) }],
  ];
  for (const [why, b] of broken) assert.equal(unpackMountImage(b), undefined, why);
  assert.equal(isPackedMountImage({ ...p, modes: [0, 0, 0, 0] }), false);
  assert.equal(isPackedMountImage({ ...p, inline: new Map([[3, 'not bytes']]) }), false);
});
