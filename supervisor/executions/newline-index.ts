// A sparse index of the '\n' bytes in a growing output buffer. It keeps the byte offset of every
// INDEX_EVERY-th newline and finds the others by scanning from the nearest kept one with
// Buffer.indexOf. A dense index (one JS number per newline, kept while the finished output stays
// cached) cost about twelve bytes per output byte when the output was all newlines; this costs
// eight bytes per INDEX_EVERY newlines, and a lookup scans at most one block.

const NL = 0x0a;

/** One offset is kept per this many newlines. */
export const INDEX_EVERY = 1024;

export class NewlineIndex {
  /**
   * marks[k] is the byte offset of newline number k * INDEX_EVERY (0-based). Float64 rather than
   * Uint32: offsets are exact up to 2^53, so output past 4 GiB would still index correctly.
   */
  #marks = new Float64Array(16);
  #markCount = 0;
  #count = 0;
  #last = -1;

  /** Newlines seen so far. */
  get count(): number {
    return this.#count;
  }

  /** Byte offset of the last newline; -1 when there is none. */
  get last(): number {
    return this.#last;
  }

  /** Memory held by the index itself. */
  get byteLength(): number {
    return this.#marks.byteLength;
  }

  /** Records the newlines of `chunk`, which starts at byte offset `base` of the output. */
  add(chunk: Uint8Array, base: number): void {
    // A plain byte loop, not indexOf per newline: output that is mostly newlines would make one
    // native call per byte (about twenty times slower), and this stays linear in bytes either way.
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] !== NL) continue;
      if (this.#count % INDEX_EVERY === 0) this.#mark(base + i);
      this.#count++;
      this.#last = base + i;
    }
  }

  #mark(offset: number): void {
    if (this.#markCount === this.#marks.length) {
      const grown = new Float64Array(this.#marks.length * 2);
      grown.set(this.#marks);
      this.#marks = grown;
    }
    this.#marks[this.#markCount++] = offset;
  }

  /** Byte offset of newline number `j` (0 ≤ j < count) in `out`, the output indexed so far. */
  offsetOf(out: Uint8Array, j: number): number {
    const k = Math.floor(j / INDEX_EVERY);
    let pos = this.#marks[k]!;
    for (let left = j - k * INDEX_EVERY; left > 0; left--) pos = out.indexOf(NL, pos + 1);
    return pos;
  }

  /** Number of newlines strictly before byte offset `pos` of `out` — the 0-based line holding `pos`. */
  countBefore(out: Uint8Array, pos: number): number {
    let lo = 0;
    let hi = this.#markCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#marks[mid]! < pos) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return 0;
    // Newline (lo - 1) * INDEX_EVERY is before pos and the next kept one is not: count the rest of
    // that block, in a view that ends at pos so the scan never runs past it.
    const before = out.subarray(0, pos);
    let n = (lo - 1) * INDEX_EVERY + 1;
    for (let i = before.indexOf(NL, this.#marks[lo - 1]! + 1); i !== -1; i = before.indexOf(NL, i + 1)) n++;
    return n;
  }
}
