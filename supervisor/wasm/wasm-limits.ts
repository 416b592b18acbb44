// The declared sizes of a WebAssembly module's memories and tables, read from its binary: the
// import section (imported memories and tables) and the table and memory sections (defined
// ones). Only these three sections are decoded; everything else is skipped by its length.
// WebAssembly.validate has already accepted the module (load-wasm.ts), so the binary is
// well-formed; a malformed one still fails here with WasmFormatError, never a wrong answer.
// Format: https://webassembly.github.io/spec/core/binary/modules.html

export class WasmFormatError extends Error {
  override readonly name = 'WasmFormatError';
}

export interface Limits {
  readonly min: number;
  /** Undefined when the module declares no maximum. */
  readonly max: number | undefined;
}

export interface DeclaredSizes {
  /** Every memory, imported first, as declared (64 KiB pages; memory64 too). */
  readonly memories: readonly Limits[];
  /** Every table, imported first (elements). */
  readonly tables: readonly Limits[];
}

class Reader {
  #at = 0;
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get at(): number {
    return this.#at;
  }

  byte(): number {
    if (this.#at >= this.bytes.length) throw new WasmFormatError('unexpected end of the module');
    return this.bytes[this.#at++]!;
  }

  /** An unsigned LEB128 (u32 or u64; values above 2^53 are clamped, far beyond any budget). */
  leb(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return Math.min(result, Number.MAX_SAFE_INTEGER);
      scale *= 128;
    }
    throw new WasmFormatError('a LEB128 number is too long');
  }

  skip(n: number): void {
    if (this.#at + n > this.bytes.length) throw new WasmFormatError('a section runs past the end of the module');
    this.#at += n;
  }

  name(): void {
    this.skip(this.leb());
  }

  /** limits: flags (bit 0 has-max; bit 2 memory64; bit 1 shared) then min [max]. */
  limits(): Limits {
    const flags = this.byte();
    if (flags > 0x07) throw new WasmFormatError(`unknown limits flags 0x${flags.toString(16)}`);
    const min = this.leb();
    const max = (flags & 1) === 1 ? this.leb() : undefined;
    return { min, max };
  }

  /** A table type: reference type (one byte, or 0x63/0x64 + heap type), then limits. */
  tableType(): Limits {
    const ref = this.byte();
    if (ref === 0x63 || ref === 0x64) this.heapType();
    return this.limits();
  }

  heapType(): void {
    // A negative s33 (abstract heap type) is one byte; a type index is an unsigned LEB.
    const b = this.bytes[this.#at];
    if (b !== undefined && b >= 0x40 && b < 0x80) this.byte();
    else this.leb();
  }

  /** A value type (skipped). */
  valType(): void {
    const b = this.byte();
    if (b === 0x63 || b === 0x64) this.heapType();
  }
}

const SECTION = { import: 2, table: 4, memory: 5 } as const;

export function declaredSizes(bytes: Uint8Array): DeclaredSizes {
  const r = new Reader(bytes);
  const magic = [0x00, 0x61, 0x73, 0x6d];
  for (const m of magic) if (r.byte() !== m) throw new WasmFormatError('not a WebAssembly binary (bad magic number)');
  r.skip(4); // version
  const memories: Limits[] = [];
  const tables: Limits[] = [];
  while (r.at < bytes.length) {
    const id = r.byte();
    const size = r.leb();
    const end = r.at + size;
    if (end > bytes.length) throw new WasmFormatError('a section runs past the end of the module');
    if (id === SECTION.import) {
      for (let n = r.leb(); n > 0; n--) {
        r.name();
        r.name();
        const kind = r.byte();
        if (kind === 0x00) r.leb(); // function: type index
        else if (kind === 0x01) tables.push(r.tableType());
        else if (kind === 0x02) memories.push(r.limits());
        else if (kind === 0x03) { r.valType(); r.byte(); } // global: type, mutability
        else if (kind === 0x04) { r.byte(); r.leb(); } // tag: attribute, type index
        else throw new WasmFormatError(`unknown import kind 0x${kind.toString(16)}`);
      }
    } else if (id === SECTION.table) {
      for (let n = r.leb(); n > 0; n--) {
        // A table with an initialiser expression (0x40 0x00 …, function references) would need
        // constant expressions decoded; refused rather than counted wrong.
        if (bytes[r.at] === 0x40) throw new WasmFormatError('tables with initialiser expressions are not supported');
        tables.push(r.tableType());
      }
    } else if (id === SECTION.memory) {
      for (let n = r.leb(); n > 0; n--) memories.push(r.limits());
    }
    r.skip(end - r.at);
  }
  return { memories, tables };
}
