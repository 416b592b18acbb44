// One execution's console output as a byte stream with a line index, and the paging windows
// over it (line mode and byte mode, every cursor field filled in both). Offsets here are
// 0-based; the MCP surface adds 1 to line numbers at its edge.
import { NewlineIndex } from './newline-index.ts';

export interface OutputWindow {
  readonly data: string;
  readonly start_line: number;
  /** Exclusive. */
  readonly end_line: number;
  readonly next_line_offset: number;
  readonly total_lines: number;
  readonly start_byte: number;
  /** Exclusive. */
  readonly end_byte: number;
  readonly next_byte_offset: number;
  readonly total_bytes: number;
  readonly has_more: boolean;
}

export type PageRequest =
  | { readonly mode: 'line'; readonly offset: number; readonly limit: number }
  | { readonly mode: 'byte'; readonly offset: number; readonly limit: number };

export class OutputLog {
  #buf: Buffer = Buffer.alloc(0);
  #length = 0;
  readonly #newlines = new NewlineIndex();
  #finished = false;

  static from(data: Buffer, finished: boolean): OutputLog {
    const log = new OutputLog();
    log.append(data);
    if (finished) log.finish();
    return log;
  }

  get byteLength(): number {
    return this.#length;
  }

  /** Memory held by the line index (it stays small however many lines there are). */
  get indexBytes(): number {
    return this.#newlines.byteLength;
  }

  append(chunk: Buffer): void {
    if (this.#length + chunk.length > this.#buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#length + chunk.length, 4096));
      this.#buf.copy(grown, 0, 0, this.#length);
      this.#buf = grown;
    }
    chunk.copy(this.#buf, this.#length);
    this.#newlines.add(chunk, this.#length);
    this.#length += chunk.length;
  }

  /** After the run ends a trailing line without '\n' counts as a line. */
  finish(): void {
    this.#finished = true;
  }

  bytes(): Buffer {
    return this.#buf.subarray(0, this.#length);
  }

  /** Complete lines, plus a final partial line once the run has finished. */
  get totalLines(): number {
    const afterLast = this.#newlines.last + 1;
    return this.#newlines.count + (this.#finished && afterLast < this.#length ? 1 : 0);
  }

  /** Byte offset where line `n` (0-based) starts; totalBytes when n is past the end. */
  #lineStart(n: number): number {
    if (n <= 0) return 0;
    return n - 1 < this.#newlines.count ? this.#newlines.offsetOf(this.bytes(), n - 1) + 1 : this.#length;
  }

  /** Number of '\n' strictly before byte offset `pos` — the 0-based line holding `pos`. */
  #lineAt(pos: number): number {
    return this.#newlines.countBefore(this.bytes(), pos);
  }

  page(req: PageRequest): OutputWindow {
    return req.mode === 'line' ? this.#linePage(req.offset, req.limit) : this.#bytePage(req.offset, req.limit);
  }

  #linePage(offset: number, limit: number): OutputWindow {
    const total = this.totalLines;
    const startLine = Math.min(Math.max(0, offset), total);
    const endLine = Math.min(startLine + Math.max(0, limit), total);
    const startByte = this.#lineStart(startLine);
    const endByte = endLine === total ? (endLine === this.#newlines.count ? this.#lineStart(endLine) : this.#length) : this.#lineStart(endLine);
    return {
      data: this.#buf.toString('utf8', startByte, endByte),
      start_line: startLine,
      end_line: endLine,
      next_line_offset: endLine,
      total_lines: total,
      start_byte: startByte,
      end_byte: endByte,
      next_byte_offset: endByte,
      total_bytes: this.#length,
      has_more: endLine < total,
    };
  }

  #bytePage(offset: number, limit: number): OutputWindow {
    let start = Math.min(Math.max(0, offset), this.#length);
    // Never start or end inside a UTF-8 sequence: move past continuation bytes.
    while (start < this.#length && (this.#buf[start]! & 0xc0) === 0x80) start++;
    let end = Math.min(start + Math.max(0, limit), this.#length);
    if (end < this.#length) {
      let e = end;
      while (e > start && (this.#buf[e]! & 0xc0) === 0x80) e--;
      // A window smaller than one character still makes progress by taking that character.
      if (e === start && end > start) {
        e = start + 1;
        while (e < this.#length && (this.#buf[e]! & 0xc0) === 0x80) e++;
      }
      end = e;
    }
    const startLine = this.#lineAt(start);
    const endLine = this.#lineAt(end);
    return {
      data: this.#buf.toString('utf8', start, end),
      start_line: startLine,
      end_line: endLine,
      next_line_offset: endLine,
      total_lines: this.totalLines,
      start_byte: start,
      end_byte: end,
      next_byte_offset: end,
      total_bytes: this.#length,
      has_more: end < this.#length,
    };
  }
}
