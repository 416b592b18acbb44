// Content-defined chunking for large files (a gear rolling hash, as FastCDC uses): a cut falls
// where the hash of the last bytes matches a mask, so an insertion early in a file moves only the
// chunks around it and the rest keep their keys (and are deduplicated by put-if-absent).
import { createHash } from 'node:crypto';

export const MIN_CHUNK = 64 * 1024;
/** Expected chunk size ≈ MIN_CHUNK + 2^MASK_BITS. */
const MASK_BITS = 18;
export const MAX_CHUNK = 1024 * 1024;

/** 256 fixed pseudo-random 32-bit values; derived, not random, so every process cuts alike. */
const GEAR: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) table[i] = createHash('sha256').update(`runjs-gear-${i}`).digest().readUInt32BE(0);
  return table;
})();

/** Chunk boundaries of `bytes`: [start, end) pairs covering it in order. */
export function chunkBoundaries(bytes: Uint8Array): [number, number][] {
  const mask = (1 << MASK_BITS) - 1;
  const out: [number, number][] = [];
  let start = 0;
  while (start < bytes.length) {
    const remaining = bytes.length - start;
    if (remaining <= MIN_CHUNK) { out.push([start, bytes.length]); break; }
    const limit = Math.min(remaining, MAX_CHUNK);
    let h = 0;
    let cut = limit;
    for (let i = MIN_CHUNK; i < limit; i++) {
      h = ((h << 1) + GEAR[bytes[start + i]!]!) >>> 0;
      if ((h & mask) === 0) { cut = i + 1; break; }
    }
    out.push([start, start + cut]);
    start += cut;
  }
  return out;
}
