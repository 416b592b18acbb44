// Legacy text encodings for the guest's TextDecoder (UTF-8/16 decode in the guest): Node's
// TextDecoder over ICU. Stateless: a streaming decode reports how many trailing bytes belong to
// an incomplete character, and the guest sends them again with the next chunk.
import { OpError, type OpTable } from '../op-types.ts';

const supported = new Map<string, boolean>();

function isSupported(encoding: string): boolean {
  let ok = supported.get(encoding);
  if (ok === undefined) {
    try {
      new TextDecoder(encoding);
      ok = true;
    } catch {
      ok = false;
    }
    supported.set(encoding, ok);
  }
  return ok;
}

/** Trailing bytes (at most 4) that do not yet form a character: decoding without them gives the same text. */
function incompleteTail(encoding: string, bytes: Uint8Array, text: string): number {
  for (let k = 0; k <= Math.min(4, bytes.length); k++) {
    const head = new TextDecoder(encoding).decode(bytes.subarray(0, bytes.length - k));
    if (head === text) return k;
  }
  return 0;
}

export const encodingOps: OpTable = {
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
