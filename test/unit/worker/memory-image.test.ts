// Capture and in-place restore of linear memory, white-box on a VM: a restore reproduces the
// image byte for byte, leaves no byte of an earlier run's heap behind (another tenant's data),
// and grows a smaller memory through the glue so the VM keeps working.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadQuickJSBinary, type QuickJSBinary } from '../../../worker/engines/quickjs/quickjs-binary.ts';
import { WasmVm, PAGE_BYTES } from '../../../worker/engines/quickjs/wasm-vm.ts';
import { buildBaseImage } from '../../../worker/engines/quickjs/base-image.ts';
import { captureImage, restoreImage } from '../../../worker/engines/quickjs/memory-image.ts';
import { EVAL_GLOBAL } from '../../../worker/engines/quickjs/raw-ffi.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';

let binary: QuickJSBinary;
before(async () => { binary = await loadQuickJSBinary(); });

/** Pages outside the dead stack, where a restored VM must equal its image. */
function livePages(vm: WasmVm, pages: number): number[] {
  const out: number[] = [];
  const deadFirst = Math.ceil(vm.stackLow / PAGE_BYTES);
  const deadEnd = Math.floor(vm.stackTop / PAGE_BYTES);
  for (let p = 0; p < pages; p++) if (p < deadFirst || p >= deadEnd) out.push(p);
  return out;
}

function expand(image: HeapImage): Buffer {
  const out = Buffer.alloc(image.manifest.pages * PAGE_BYTES);
  let offset = 0;
  for (const [first, count] of image.manifest.ranges) {
    out.set(image.bytes.subarray(offset, offset + count * PAGE_BYTES), first * PAGE_BYTES);
    offset += count * PAGE_BYTES;
  }
  return out;
}

function evalNumber(vm: WasmVm, ctx: number, code: string): string {
  const r = vm.evaluate(ctx, code, 'test.js', EVAL_GLOBAL);
  try {
    return vm.getString(ctx, r);
  } finally {
    vm.ffi.QTS_FreeValuePointer(ctx, r);
  }
}

test('the VM layout is as the image code assumes: data, a 5 MiB stack, then the heap; the break is known', async () => {
  const vm = await WasmVm.create(binary, 512);
  assert.equal(vm.stackTop - vm.stackLow, 5 * 1024 * 1024);
  assert.ok(vm.brk !== undefined && vm.brk > vm.stackTop, 'the allocator break was found');
});

test('restore reproduces the image exactly and wipes everything an earlier run wrote above it', async () => {
  const vm = await WasmVm.create(binary, 512);
  const base = buildBaseImage(vm, binary.buildId, 192 * 1024);
  const ctx = base.manifest.handles.ctx;
  // A "run": lots of heap, filled with a recognisable byte, some of it freed again.
  const blocks: number[] = [];
  for (let i = 0; i < 60; i++) {
    const p = vm.malloc(256 * 1024);
    vm.u8.fill(0xab, p, p + 256 * 1024);
    blocks.push(p);
  }
  for (const p of blocks.slice(0, 30)) vm.free(p);
  assert.ok(vm.pages > 256, 'the run grew memory past its first 16 MiB');
  restoreImage(vm, base, binary.buildId);
  const want = expand(base);
  const mem = Buffer.from(vm.memory.buffer);
  for (const p of livePages(vm, vm.pages)) {
    const got = mem.subarray(p * PAGE_BYTES, (p + 1) * PAGE_BYTES);
    const expected = p < base.manifest.pages ? want.subarray(p * PAGE_BYTES, (p + 1) * PAGE_BYTES) : Buffer.alloc(PAGE_BYTES);
    assert.ok(got.equals(expected), `page ${p} differs from the image`);
  }
  assert.equal(evalNumber(vm, ctx, 'typeof globalThis.console'), 'object');
});

test('an image needing more memory than the VM has grows it through the glue, and the VM works after', async () => {
  const big = await WasmVm.create(binary, 1024);
  const base = buildBaseImage(big, binary.buildId, 192 * 1024);
  const ctx = base.manifest.handles.ctx;
  assert.equal(evalNumber(big, ctx, 'globalThis.keep = []; for (let i = 0; i < 150000; i++) keep.push({ i }); keep.length'), '150000');
  const image = captureImage(big, { build: binary.buildId, prelude: 'test', handles: base.manifest.handles, generation: 1 });
  assert.ok(image.manifest.pages > 256, `image pages ${image.manifest.pages}`);

  const small = await WasmVm.create(binary, 1024);
  assert.equal(small.pages, 256);
  restoreImage(small, image, binary.buildId);
  assert.ok(small.pages >= image.manifest.pages);
  assert.equal(evalNumber(small, ctx, 'keep.push({ i: -1 }); keep.length + ":" + keep[149999].i'), '150001:149999');
});
