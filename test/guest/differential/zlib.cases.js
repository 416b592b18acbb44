// node:zlib: one-shot codecs, round trips, corrupt input and argument errors.
const z = () => require('node:zlib');
const corpus = {
  'deflate bytes': () => z().deflateSync('hello hello hello'),
  'gzip round trip': () => z().gunzipSync(z().gzipSync('abc')).toString(),
  'deflateRaw round trip': () => z().inflateRawSync(z().deflateRawSync(Buffer.alloc(1000, 1))).length,
  'brotli round trip': () => z().brotliDecompressSync(z().brotliCompressSync('brotli')).toString(),
  'unzip either': () => [z().unzipSync(z().gzipSync('g')).toString(), z().unzipSync(z().deflateSync('d')).toString()],
  'level option': () => z().deflateSync('aaaaaaaaaaaaaaaa', { level: 0 }),
  'corrupt input': () => z().inflateSync(Buffer.from([1, 2, 3, 4])),
  'truncated input': () => z().gunzipSync(z().gzipSync('abcdef').subarray(0, 10)),
  'bad input type': () => z().deflateSync(5),
  'crc32': () => [z().crc32('hello'), z().crc32(Buffer.from('world'), 12345)],
  'callback form': () => new Promise((r) => z().deflate('x', (e, out) => r([e, out.length]))),
  'constants sample': () => [z().constants.Z_SYNC_FLUSH, z().constants.Z_BEST_COMPRESSION, z().constants.BROTLI_OPERATION_FLUSH],
  'stream class': () => new Promise((r) => { const g = z().createGzip(); const chunks = []; g.on('data', (c) => chunks.push(c)); g.on('end', () => r(z().gunzipSync(Buffer.concat(chunks)).toString())); g.end('streamed'); }),
};
