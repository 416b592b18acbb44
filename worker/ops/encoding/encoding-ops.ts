// Legacy text encodings for the guest's TextDecoder (UTF-8/16 decode in the guest): Node's
// TextDecoder over ICU. Stateless: a streaming decode reports how many trailing bytes belong to
// an incomplete character, and the guest sends them again with the next chunk.
import { ByteLru } from '../../../shared/image-lru.ts';
import { OpError, type OpFactory } from '../op-types.ts';

/**
 * Answers for encoding labels, cached per worker. The labels come from scripts, so the cache is
 * bounded in bytes (a label's UTF-16 size plus a fixed overhead), not only in entries.
 */
export const LABEL_CACHE_BYTES = 64 * 1024;
const LABEL_ENTRY_OVERHEAD = 64;

/** Whether Node's TextDecoder knows a label, answered through `known` (the worker's cache; tests pass their own to watch it). */
export function labelChecker(known = new ByteLru<boolean>(LABEL_CACHE_BYTES, Number.MAX_SAFE_INTEGER)): (encoding: string) => boolean {
  return (encoding) => {
    let ok = known.get(encoding);
    if (ok === undefined) {
      try {
        new TextDecoder(encoding);
        ok = true;
      } catch {
        ok = false;
      }
      known.set(encoding, ok, encoding.length * 2 + LABEL_ENTRY_OVERHEAD);
    }
    return ok;
  };
}

/** Trailing bytes (at most 4) that do not yet form a character: decoding without them gives the same text. */
function incompleteTail(encoding: string, bytes: Uint8Array, text: string): number {
  for (let k = 0; k <= Math.min(4, bytes.length); k++) {
    const head = new TextDecoder(encoding).decode(bytes.subarray(0, bytes.length - k));
    if (head === text) return k;
  }
  return 0;
}

/** The byte encodings the guest's bulk paths (Buffer, TextEncoder/Decoder, atob/btoa) hand to the host. */
const BULK = new Set<BufferEncoding>(['utf8', 'base64', 'base64url', 'hex', 'latin1', 'ascii']);

function bulkEncoding(a: unknown, op: string): { encoding: BufferEncoding; o: Record<string, unknown> } {
  const o = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
  const e = o['encoding'];
  if (typeof e !== 'string' || !BULK.has(e as BufferEncoding)) throw new OpError(`${op}: unsupported encoding`, 'TypeError');
  return { encoding: e as BufferEncoding, o };
}

export const createEncodingOps: OpFactory = () => {
  const isSupported = labelChecker();
  return {
    /** {encoding, text, count?} → the bytes of `text` (Node's Buffer.from semantics), or their count. */
    'encoding.toBytes': {
      kind: 'sync',
      run(args) {
        const { encoding, o } = bulkEncoding(args, 'encoding.toBytes');
        const text = o['text'];
        if (typeof text !== 'string') throw new OpError('encoding.toBytes expects a text', 'TypeError');
        if (o['count'] === true) return Buffer.byteLength(text, encoding);
        const b = Buffer.from(text, encoding);
        // Small results sit in Node's shared pool: hand over a copy of just these bytes.
        return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? new Uint8Array(b.buffer) : new Uint8Array(b);
      },
    },
    /** {encoding} (bytes) → the text (Node's buf.toString semantics: WHATWG replacement for bad UTF-8). */
    'encoding.toText': {
      kind: 'sync',
      run(args, bytes) {
        const { encoding } = bulkEncoding(args, 'encoding.toText');
        const b = bytes ?? new Uint8Array(0);
        return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString(encoding);
      },
    },
    'encoding.supported': {
      kind: 'sync',
      run(args) {
        if (typeof args !== 'string') throw new OpError('encoding.supported expects a name', 'TypeError');
        return isSupported(args);
      },
    },
    'encoding.decode': {
      kind: 'sync',
      run(args, bytes) {
        const a = args as { encoding?: unknown; fatal?: unknown; stream?: unknown } | null;
        if (typeof a?.encoding !== 'string' || !isSupported(a.encoding)) throw new OpError('encoding.decode: unsupported encoding', 'RangeError');
        const input = bytes ?? new Uint8Array(0);
        const fatal = a.fatal === true;
        // ignoreBOM: the guest strips a BOM only for UTF-8/16, which never reach this op.
        const decoder = new TextDecoder(a.encoding, { fatal, ignoreBOM: true });
        try {
          if (a.stream !== true) return { text: decoder.decode(input), rest: 0 };
          const text = decoder.decode(input, { stream: true });
          return { text, rest: incompleteTail(a.encoding, input, text) };
        } catch {
          throw new OpError(`The encoded data was not valid for encoding ${a.encoding}`, 'TypeError', 'ERR_ENCODING_INVALID_ENCODED_DATA');
        }
      },
    },
  };
};
