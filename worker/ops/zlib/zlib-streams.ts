// Incremental (de)compression for CompressionStream/DecompressionStream: a Node zlib stream per
// guest stream, held in the run's resources (released with the run). Each written chunk answers
// with the output it produced — a decompressor flushes (Z_SYNC_FLUSH) so that what the input
// holds comes out at once, as the Compression Standard expects; a compressor answers with what
// zlib emitted so far. Decompressors reject data after the end of the compressed stream
// (Node's ERR_TRAILING_JUNK_AFTER_STREAM_END), as Node's own DecompressionStream does. An error
// that follows output (junk after a valid stream in one chunk) comes with that output, so the
// guest can deliver the output before it errors the stream. Output is capped at the run's heap
// cap per stream, with the text of the one-shot ops (past it, nothing more is sent, only the error).
import { constants, createBrotliCompress, createBrotliDecompress, createDeflate, createDeflateRaw, createGunzip, createGzip, createInflate, createInflateRaw, type BrotliCompress, type Gzip } from 'node:zlib';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError, WithBytes, type OpContext, type OpFactory } from '../op-types.ts';

type ZStream = Gzip | BrotliCompress;

const OPEN: Record<string, () => ZStream> = {
  gzip: () => createGzip(),
  deflate: () => createDeflate(),
  deflateRaw: () => createDeflateRaw(),
  brotliCompress: () => createBrotliCompress(),
  gunzip: () => createGunzip({ rejectGarbageAfterEnd: true } as object),
  inflate: () => createInflate({ rejectGarbageAfterEnd: true } as object),
  inflateRaw: () => createInflateRaw({ rejectGarbageAfterEnd: true } as object),
  brotliDecompress: () => createBrotliDecompress({ rejectGarbageAfterEnd: true } as object),
};
const DECOMPRESSORS = new Set(['gunzip', 'inflate', 'inflateRaw', 'brotliDecompress']);

/** Streams a run may hold open at once. */
export const MAX_OPEN_ZLIB_STREAMS = 1_000;

interface Entry {
  stream: ZStream;
  codec: string;
  output: Buffer[];
  produced: number;
  error: { message: string; code?: string } | undefined;
}
interface RunStreams { next: number; open: Map<number, Entry> }
const STREAMS = resourceKey<RunStreams>('zlib-streams', () => ({ next: 1, open: new Map() }), (r) => {
  for (const e of r.open.values()) e.stream.destroy();
  r.open.clear();
});

function entryOf(ctx: OpContext, args: unknown): { id: number; e: Entry } {
  const id = (args as { id?: unknown } | null)?.id;
  const e = typeof id === 'number' && ctx.resources.has(STREAMS) ? ctx.resources.get(STREAMS).open.get(id) : undefined;
  if (e === undefined) throw new OpError('runjs: this compression stream was created in an earlier run (its state stays on the host and is not part of a heap image)', 'Error', 'ERR_RUNJS_ZLIB_LOST');
  return { id: id as number, e };
}

/** Settles once `done` was called (and a turn has passed, so an error zlib emits right after shows), or on an error. */
function answer(e: Entry, start: (done: () => void) => void): Promise<WithBytes> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      e.stream.off('error', onError);
      const bytes = new Uint8Array(Buffer.concat(e.output));
      e.output.length = 0;
      resolve(new WithBytes(e.error === undefined ? {} : { error: e.error.message, code: e.error.code ?? null }, bytes));
    };
    const onError = (): void => settle();
    if (e.error !== undefined) { settle(); return; }
    e.stream.once('error', onError);
    start(() => setImmediate(settle));
  });
}

export const createZlibStreamOps: OpFactory = () => ({
  /** {codec} → handle id. */
  'zlib.streamOpen': {
    kind: 'sync',
    run(args, _bytes, ctx) {
      const codec = (args as { codec?: unknown } | null)?.codec;
      const open = typeof codec === 'string' ? OPEN[codec] : undefined;
      if (open === undefined) throw new OpError('zlib.streamOpen: unknown codec', 'TypeError');
      const r = ctx.resources.get(STREAMS);
      if (r.open.size >= MAX_OPEN_ZLIB_STREAMS) {
        throw new OpError(`runjs: more than ${MAX_OPEN_ZLIB_STREAMS} compression streams are open at once`, 'RangeError', 'ERR_RUNJS_TOO_MANY_ZLIB_STREAMS');
      }
      const cap = ctx.limits.heapBytes;
      const e: Entry = { stream: open(), codec: codec as string, output: [], produced: 0, error: undefined };
      e.stream.on('data', (chunk: Buffer) => {
        e.produced += chunk.length;
        if (e.produced > cap) {
          // The output held so far goes too: the guest could not take it anyway.
          e.output.length = 0;
          e.error ??= { message: `Cannot create a Buffer larger than ${cap} bytes`, code: 'ERR_BUFFER_TOO_LARGE' };
          e.stream.destroy();
          e.stream.emit('error', new Error(e.error.message));
          return;
        }
        e.output.push(chunk);
      });
      e.stream.on('error', (err: Error & { code?: string }) => { e.error ??= { message: err.message, ...(err.code ? { code: err.code } : {}) }; });
      const id = r.next++;
      r.open.set(id, e);
      return id;
    },
  },
  /** {id} (bytes: input) → {error?, code?} with the output it produced as bytes. */
  'zlib.streamWrite': {
    kind: 'async',
    run(args, bytes, ctx) {
      const { e } = entryOf(ctx, args);
      return answer(e, (done) => {
        e.stream.write(bytes ?? new Uint8Array(0));
        if (DECOMPRESSORS.has(e.codec)) {
          const kind = e.codec === 'brotliDecompress' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
          e.stream.flush(kind, done);
        } else e.stream.write(new Uint8Array(0), done);
      });
    },
  },
  /** {id} → {error?, code?} with the rest of the output; frees the handle. */
  'zlib.streamEnd': {
    kind: 'async',
    async run(args, _bytes, ctx) {
      const { id, e } = entryOf(ctx, args);
      try {
        return await answer(e, (done) => {
          e.stream.once('end', done);
          e.stream.end();
        });
      } finally {
        ctx.resources.get(STREAMS).open.delete(id);
        e.stream.destroy();
      }
    },
  },
});
