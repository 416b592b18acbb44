// One-shot compression for node:zlib and CompressionStream/DecompressionStream: Node's zlib.
// Output is capped at the run's heap cap (ctx.limits.heapBytes), so a small "zip bomb" cannot
// make the worker hold more for a script than its engine may: past the cap Node's zlib stops and
// throws RangeError [ERR_BUFFER_TOO_LARGE] `Cannot create a Buffer larger than <cap> bytes`.
import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, deflateSync, gunzipSync, gzipSync, inflateRawSync, inflateSync, unzipSync, type ZlibOptions } from 'node:zlib';
import { OpError, type OpFactory } from '../op-types.ts';

const CODECS: Record<string, (buf: Uint8Array, options: ZlibOptions) => Buffer> = {
  gzip: gzipSync,
  gunzip: gunzipSync,
  deflate: deflateSync,
  inflate: inflateSync,
  deflateRaw: deflateRawSync,
  inflateRaw: inflateRawSync,
  unzip: unzipSync,
  brotliCompress: (b, o) => brotliCompressSync(b, o as never),
  brotliDecompress: (b, o) => brotliDecompressSync(b, o as never),
};

const NUMERIC_OPTIONS = ['level', 'windowBits', 'memLevel', 'strategy', 'chunkSize'] as const;

function options(raw: unknown, maxOutput: number): ZlibOptions {
  const out: ZlibOptions & { params?: Record<number, number> } = { maxOutputLength: maxOutput };
  if (typeof raw !== 'object' || raw === null) return out;
  const o = raw as Record<string, unknown>;
  for (const k of NUMERIC_OPTIONS) if (typeof o[k] === 'number') (out as Record<string, number>)[k] = o[k];
  if (typeof o['maxOutputLength'] === 'number') out.maxOutputLength = Math.min(o['maxOutputLength'], maxOutput);
  if (typeof o['params'] === 'object' && o['params'] !== null) {
    const params: Record<number, number> = {};
    for (const [k, v] of Object.entries(o['params'] as Record<string, unknown>)) if (typeof v === 'number') params[Number(k)] = v;
    out.params = params;
  }
  return out;
}

/** The capability's ops; they need no settings. */
export const createZlibOps: OpFactory = () => ({
  'zlib.process': {
    kind: 'sync',
    run(args, bytes, ctx) {
      const a = args as { codec?: unknown; options?: unknown } | null;
      const codec = typeof a?.codec === 'string' ? CODECS[a.codec] : undefined;
      if (codec === undefined) throw new OpError('zlib.process: unknown codec', 'TypeError');
      try {
        return new Uint8Array(codec(bytes ?? new Uint8Array(0), options(a!.options, ctx.limits.heapBytes)));
      } catch (e) {
        const err = e as { message?: string; code?: string; errno?: number };
        throw new OpError(String(err.message ?? e), e instanceof RangeError ? 'RangeError' : 'Error', err.code);
      }
    },
  },
  'zlib.constants': {
    kind: 'sync',
    run() {
      return constants;
    },
  },
});
