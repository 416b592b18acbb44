// The worker's capabilities: one factory per folder under worker/ops/, each building its ops from
// the worker's settings. Adding a capability adds its folder and one line here; nothing else moves.
import type { WorkerSettings } from '../../shared/worker-settings.ts';
import type { OpFactory, OpTable } from './op-types.ts';
import { createConsoleOps } from './console/console-ops.ts';
import { createTimerOps } from './timers/timer-ops.ts';
import { createRunOps } from './run/run-ops.ts';
import { createPlatformOps } from './platform/platform-ops.ts';
import { createClockOps } from './clock/clock-ops.ts';
import { createUrlOps } from './url/url-ops.ts';
import { createEncodingOps } from './encoding/encoding-ops.ts';
import { createCryptoOps } from './crypto/crypto-ops.ts';
import { createHashOps } from './crypto/hash-handles.ts';
import { createZlibOps } from './zlib/zlib-ops.ts';
import { createZlibStreamOps } from './zlib/zlib-streams.ts';
import { createIntlOps } from './intl/intl-ops.ts';
import { createArtifactOps } from './artifacts/artifact-ops.ts';
import { createPathOps } from './path/path-ops.ts';
import { createUtilOps } from './util/util-ops.ts';
import { createFetchOps } from './fetch/fetch-ops.ts';
import { createWasmOps } from './wasm/wasm-ops.ts';
import { createMcpOps } from './mcp/mcp-ops.ts';
import { createFsOps } from './fs/fs-ops.ts';
import { createWebSocketOps } from './websocket/websocket-ops.ts';
import { createHttp2Ops } from './http2/http2-ops.ts';
import { createSubprocessOps } from './subprocess/subprocess-ops.ts';
import { HeaderInjector } from '../network/header-injection.ts';

/**
 * The network capabilities (fetch, WebSocket, HTTP/2), built together: they share the worker's one header
 * injector, so each OAuth rule has one token cache per worker process.
 */
const createNetworkOps: OpFactory = (settings) => {
  const injector = new HeaderInjector(settings.headerRules, { timeoutMs: settings.limits.fetch.requestTimeoutMs });
  return { ...createFetchOps(settings, injector), ...createWebSocketOps(settings, injector), ...createHttp2Ops(settings, injector) };
};

export const CAPABILITIES: readonly OpFactory[] = [
  createConsoleOps, createTimerOps, createRunOps, createPlatformOps, createClockOps, createUrlOps, createEncodingOps,
  createCryptoOps, createHashOps, createZlibOps, createZlibStreamOps, createIntlOps, createArtifactOps, createPathOps, createUtilOps, createNetworkOps,
  createWasmOps, createMcpOps, createSubprocessOps, createFsOps,
];

/**
 * Every capability's ops for a worker with `settings`; two capabilities may not define one op.
 * `overrides` replace ops by name (test workers only: test/fixtures/workers/).
 */
export function createOps(settings: WorkerSettings, overrides: readonly OpFactory[] = []): OpTable {
  const table: Record<string, OpTable[string]> = {};
  for (const factory of CAPABILITIES) {
    for (const [name, op] of Object.entries(factory(settings))) {
      if (Object.hasOwn(table, name)) throw new Error(`runjs: op '${name}' is defined by two capabilities`);
      table[name] = op;
    }
  }
  for (const factory of overrides) Object.assign(table, factory(settings));
  return Object.freeze(table);
}
