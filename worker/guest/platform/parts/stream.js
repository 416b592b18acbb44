// node:stream and node:stream/promises: readable-stream, the userland copy of Node's streams.
import Stream from 'readable-stream/lib/stream.js';
import promises from 'readable-stream/lib/stream/promises.js';

export const modules = { stream: Stream, 'stream/promises': promises };
export const globals = {};
