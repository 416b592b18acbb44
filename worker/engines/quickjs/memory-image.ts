// Capture and restore of a VM's linear memory (engine-study §2.2–2.3). Only at quiescent points:
// no wasm frame live, so the stack pointer is at the top and everything below it is dead. The
// dead stack is neither stored nor restored (nothing reads stack memory before writing it);
// the heap is stored up to the allocator's break, as non-zero 64 KiB pages.
//
// Restore is "in place": copy the image's pages over an idle instance of the same build, and
// zero every page the last run may have dirtied that the image does not hold — memory above the
// break must read as zero, because the allocator hands it out as already-cleared memory.
import {
  HEAP_IMAGE_FORMAT, HeapImageError, IMAGE_PAGE_BYTES, pageRanges,
  type HeapImage, type HeapImageManifest, type ImageHandles,
} from '../../../shared/heap-image.ts';
import { PAGE_BYTES, type WasmVm } from './wasm-vm.ts';

const ZERO_PAGE = Buffer.alloc(PAGE_BYTES);

export interface CaptureInfo {
  readonly build: string;
  readonly prelude: string;
  readonly handles: ImageHandles;
  readonly generation: number;
}

/** Pages wholly inside the dead part of the shadow stack: [first, end). */
function deadStackPages(vm: WasmVm): [number, number] {
  const first = Math.ceil(vm.stackLow / PAGE_BYTES);
  const end = Math.floor(vm.stackTop / PAGE_BYTES);
  return end > first ? [first, end] : [0, 0];
}

/**
 * The VM's memory as an image. `buffer`: a buffer of exactly the given size to copy the stored
 * pages into (every byte is overwritten), instead of a fresh allocation.
 */
export function captureImage(vm: WasmVm, info: CaptureInfo, buffer?: (bytes: number) => Uint8Array): HeapImage {
  if (vm.stackPointer !== vm.stackTop) throw new Error('QuickJS: snapshot requested while guest code is running');
  const buf = Buffer.from(vm.memory.buffer);
  const top = vm.brk ?? vm.memory.buffer.byteLength;
  const pages = Math.max(1, Math.ceil(top / PAGE_BYTES));
  const [deadFirst, deadEnd] = deadStackPages(vm);
  // The page holding the stack top also holds dead frames below it: clear them so images of
  // equal states are equal bytes (content-addressed stores, small deltas).
  if (deadEnd > deadFirst) buf.fill(0, deadEnd * PAGE_BYTES, vm.stackTop);
  const stored: number[] = [];
  for (let p = 0; p < pages; p++) {
    if (p >= deadFirst && p < deadEnd) continue;
    if (!buf.subarray(p * PAGE_BYTES, (p + 1) * PAGE_BYTES).equals(ZERO_PAGE)) stored.push(p);
  }
  const size = stored.length * PAGE_BYTES;
  const bytes = buffer?.(size) ?? new Uint8Array(size);
  if (bytes.byteLength !== size) throw new Error(`QuickJS: a capture buffer of ${bytes.byteLength} bytes was given for ${size}`);
  for (let i = 0; i < stored.length; i++) {
    const p = stored[i]!;
    bytes.set(buf.subarray(p * PAGE_BYTES, (p + 1) * PAGE_BYTES), i * PAGE_BYTES);
  }
  const manifest: HeapImageManifest = {
    format: HEAP_IMAGE_FORMAT,
    engine: 'quickjs',
    build: info.build,
    prelude: info.prelude,
    pages,
    ranges: pageRanges(stored),
    handles: info.handles,
    generation: info.generation,
  };
  return { manifest, bytes };
}

/** Thrown when an image is larger than the VM's memory cap allows. */
export class ImageTooLarge extends Error {
  constructor(pages: number, maxPages: number) {
    super(`heap image needs ${pages} pages of memory, the memory cap allows ${maxPages}`);
    this.name = 'ImageTooLarge';
  }
}

/** Overwrites the VM's memory with `image` (already parsed and checked for this build). */
export function restoreImage(vm: WasmVm, image: HeapImage, build: string): void {
  const m = image.manifest;
  if (m.build !== build) {
    throw new HeapImageError(`Heap image was made by QuickJS build ${m.build.slice(0, 12)}, this worker runs build ${build.slice(0, 12)}; images restore only on the engine build that made them`);
  }
  if (m.pages > vm.maxPages) throw new ImageTooLarge(m.pages, vm.maxPages);
  const dirtyPages = Math.ceil(vm.dirtyTop / PAGE_BYTES);
  if (!vm.growTo(m.pages)) throw new ImageTooLarge(m.pages, vm.maxPages);
  const u8 = vm.u8;
  const [deadFirst, deadEnd] = deadStackPages(vm);
  let page = 0;
  let offset = 0;
  const zeroUpTo = (end: number): void => {
    for (; page < end; page++) {
      if (page >= deadFirst && page < deadEnd) continue;
      if (page < dirtyPages) u8.fill(0, page * PAGE_BYTES, (page + 1) * PAGE_BYTES);
    }
  };
  for (const [first, count] of m.ranges) {
    zeroUpTo(first);
    u8.set(image.bytes.subarray(offset, offset + count * IMAGE_PAGE_BYTES), first * PAGE_BYTES);
    offset += count * IMAGE_PAGE_BYTES;
    page = first + count;
  }
  zeroUpTo(Math.max(dirtyPages, page));
  vm.resetDirtyTop();
}
