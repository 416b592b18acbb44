// A heap image: the whole state of a QuickJS VM as bytes plus a small JSON manifest, so it can
// cross the IPC channel (structured clone keeps the Uint8Array) and live in a blob store.
// `bytes` holds the non-zero 64 KiB pages of the VM's linear memory, in the order `ranges` lists
// them; every page not listed is zero. The manifest records what a restore needs: the engine
// build (images restore only on the exact wasm that made them), the memory size, and the
// pointers the host keeps into the image (runtime, context, the prelude's internal object).
// Images arrive from stores and other processes, so they are parsed as `unknown` and checked.

export const HEAP_IMAGE_FORMAT = 1;
export const IMAGE_PAGE_BYTES = 65536;

/** Pointers into linear memory the host needs after a restore (all inside the image). */
export interface ImageHandles {
  readonly rt: number;
  readonly ctx: number;
  /** JSValue* of the prelude's internal object (complete, track, ...). */
  readonly internal: number;
  /** JSValue* of the engine bridge object (run the main module, deliver completions, reseed). */
  readonly bridge: number;
  /** A small scratch block (argv arrays, out-pointers). */
  readonly scratch: number;
}

export interface HeapImageManifest {
  readonly format: typeof HEAP_IMAGE_FORMAT;
  readonly engine: 'quickjs';
  /** sha256 (hex) of the engine's .wasm file. */
  readonly build: string;
  /** Guest platform version (prelude, bridge, lazy platform parts; worker/engines/quickjs/guest-version.ts): images restore only on the same one. */
  readonly prelude: string;
  /** Size of linear memory at capture, in 64 KiB pages; a restore needs at least this many. */
  readonly pages: number;
  /** Stored pages as [firstPage, count] runs, in the order their bytes appear. */
  readonly ranges: readonly (readonly [number, number])[];
  readonly handles: ImageHandles;
  /** Completed runs since the base image (0 for the base image itself). */
  readonly generation: number;
}

export interface HeapImage {
  readonly manifest: HeapImageManifest;
  readonly bytes: Uint8Array;
}

export class HeapImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeapImageError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

const HANDLE_NAMES = ['rt', 'ctx', 'internal', 'bridge', 'scratch'] as const;

/** Checks an image's shape and internal consistency; throws HeapImageError with the first problem. */
export function parseHeapImage(v: unknown): HeapImage {
  if (!isObject(v)) throw new HeapImageError('Heap image is not an object');
  const { manifest: m, bytes } = v;
  if (!(bytes instanceof Uint8Array)) throw new HeapImageError('Heap image bytes are missing');
  const stored = storedPages(m);
  if (bytes.byteLength !== stored * IMAGE_PAGE_BYTES) throw new HeapImageError(`Heap image holds ${bytes.byteLength} bytes, its manifest lists ${stored} pages`);
  return v as unknown as HeapImage;
}

/**
 * Checks a manifest on its own (what a heap record carries) and returns how many pages its image
 * stores (its bytes are that many times IMAGE_PAGE_BYTES); throws HeapImageError with the first problem.
 */
export function storedPages(m: unknown): number {
  if (!isObject(m)) throw new HeapImageError('Heap image manifest is missing');
  if (m['format'] !== HEAP_IMAGE_FORMAT) throw new HeapImageError(`Heap image format ${String(m['format'])} is not supported (expected ${HEAP_IMAGE_FORMAT})`);
  if (m['engine'] !== 'quickjs') throw new HeapImageError(`Heap image engine '${String(m['engine'])}' is not supported`);
  if (typeof m['build'] !== 'string' || !/^[0-9a-f]{64}$/.test(m['build'])) throw new HeapImageError('Heap image build id is malformed');
  if (typeof m['prelude'] !== 'string') throw new HeapImageError('Heap image prelude hash is malformed');
  const pages = m['pages'];
  if (!isCount(pages) || pages === 0 || pages > 65536) throw new HeapImageError('Heap image page count is malformed');
  if (!isCount(m['generation'])) throw new HeapImageError('Heap image generation is malformed');
  const ranges = m['ranges'];
  if (!Array.isArray(ranges)) throw new HeapImageError('Heap image page ranges are malformed');
  let stored = 0;
  let end = 0;
  for (const r of ranges as unknown[]) {
    if (!Array.isArray(r) || r.length !== 2 || !isCount(r[0]) || !isCount(r[1]) || r[1] === 0) throw new HeapImageError('Heap image page range is malformed');
    if (r[0] < end || r[0] + r[1] > pages) throw new HeapImageError('Heap image page ranges overlap or exceed its size');
    end = r[0] + r[1];
    stored += r[1];
  }
  const h = m['handles'];
  if (!isObject(h)) throw new HeapImageError('Heap image handles are missing');
  const limit = pages * IMAGE_PAGE_BYTES;
  for (const name of HANDLE_NAMES) {
    const p = h[name];
    if (!isCount(p) || p === 0 || p >= limit || p % 4 !== 0) throw new HeapImageError(`Heap image handle '${name}' is malformed`);
  }
  return stored;
}

/** Page runs as a compact manifest field: [[first, count], ...] from a sorted page list. */
export function pageRanges(sortedPages: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const p of sortedPages) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === p) last[1]++;
    else out.push([p, 1]);
  }
  return out;
}
