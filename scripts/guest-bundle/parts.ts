// The guest platform's bundles. `core` is evaluated in every realm as part of the prelude; every
// other part is evaluated in a realm only when a script first touches one of its globals or
// imports one of its modules (see worker/guest/platform/core/lazy-table.js). Imports between
// parts go through `runjs:part/<name>` (optionally `#<export>`), so nothing is bundled twice.
export interface PartSpec {
  readonly name: string;
  readonly entry: string;
  /** Bare npm imports redirected to another part's exports (CommonJS-style `module.exports = …`), or to a file (`./…`, from the repo root). */
  readonly alias?: Readonly<Record<string, string>>;
}

const PLATFORM = 'worker/guest/platform';

export const PARTS: readonly PartSpec[] = [
  { name: 'core', entry: `${PLATFORM}/core/index.js` },
  { name: 'web', entry: `${PLATFORM}/web/index.js` },
  { name: 'streams', entry: `${PLATFORM}/parts/streams.js` },
  { name: 'fetch', entry: `${PLATFORM}/parts/fetch.js` },
  { name: 'buffer', entry: `${PLATFORM}/parts/buffer.js` },
  { name: 'events', entry: `${PLATFORM}/parts/events.js` },
  { name: 'path', entry: `${PLATFORM}/parts/path.js` },
  {
    name: 'util',
    entry: `${PLATFORM}/parts/util.js`,
    alias: { buffer: 'runjs:part/buffer#modules.buffer', 'runjs-inspect-primordials': `./${PLATFORM}/parts/util/inspect-primordials.js`, 'runjs-util-types': `./${PLATFORM}/parts/util/types.js`, 'runjs-constructor-name': `./${PLATFORM}/parts/util/constructor-name.js` },
  },
  { name: 'assert', entry: `${PLATFORM}/parts/assert.js` },
  {
    name: 'stream',
    entry: `${PLATFORM}/parts/stream.js`,
    alias: {
      buffer: 'runjs:part/buffer#modules.buffer',
      events: 'runjs:part/events#modules.events',
      'process/': 'runjs:part/core#process',
      'abort-controller': 'runjs:part/core#abortModule',
      'string_decoder/': 'runjs:part/buffer#modules.string_decoder',
      string_decoder: 'runjs:part/buffer#modules.string_decoder',
    },
  },
  { name: 'webcrypto', entry: `${PLATFORM}/parts/webcrypto.js` },
  { name: 'crypto', entry: `${PLATFORM}/parts/crypto.js` },
  { name: 'zlib', entry: `${PLATFORM}/parts/zlib.js` },
  { name: 'node-misc', entry: `${PLATFORM}/parts/node-misc.js` },
  { name: 'websocket', entry: `${PLATFORM}/parts/websocket.js` },
  { name: 'mcp', entry: `${PLATFORM}/parts/mcp.js` },
  { name: 'child-process', entry: `${PLATFORM}/parts/child-process.js` },
  { name: 'http2', entry: `${PLATFORM}/parts/http2.js` },
  { name: 'net', entry: `${PLATFORM}/parts/net.js` },
  { name: 'fs', entry: `${PLATFORM}/parts/fs.js` },
  { name: 'vm', entry: `${PLATFORM}/parts/vm.js` },
  { name: 'test', entry: `${PLATFORM}/parts/test.js` },
  { name: 'urlpattern', entry: `${PLATFORM}/parts/urlpattern.js` },
  { name: 'urlpattern-polyfill', entry: `${PLATFORM}/parts/urlpattern-polyfill.js` },
];
