// The composition root: from a Config to a running server (database, worker pool, execution
// service, one transport) and back down again. Nothing else wires components together, and
// nothing here holds logic a transport or the service should own.
import path from 'node:path';
import { sourceOf, type Config } from './config/load-config.ts';
import { culpritOf, SPEC_BY_NAME } from './config/describe-flag.ts';
import { ConfigError } from './config/config-error.ts';
import { parsePolicyConfig } from './config/policy-config.ts';
import { headerRulesOf } from './config/header-config.ts';
import { readCaCerts } from './config/tls-config.ts';
import { RunJsFileReader } from './executions/run-js-file.ts';
import { loadWasmModules, wasmSettings, WasmConfigError, type LoadedWasmModule } from './wasm/load-wasm.ts';
import { MAX_SOURCE_BYTES } from '../worker/source/source-limits.ts';
import { ExecutionService } from './executions/execution-service.ts';
import { WorkerPool, WorkerStartError } from './pool/worker-pool.ts';
import { openMetadataDb } from './stores/metadata-db.ts';
import { openHeaps } from './heaps/index.ts';
import { openFs } from './fs/index.ts';
import { artifactOpRoutes, openArtifacts } from './artifacts/index.ts';
import { OpRouter } from './pool/op-router.ts';
import { openUpstreams } from './upstream-mcp/open-upstreams.ts';
import { openModules } from './modules/open-modules.ts';
import { SessionFiles } from './fs/session-files.ts';
import { SupervisorPolicy } from './policy/supervisor-policy.ts';
import { policyApproval } from './mcp/run-js-approval.ts';
import { createRestRouter, openApiJson, packageVersion } from './rest/index.ts';
import type { McpSurfaceOptions } from './mcp/mcp-server.ts';
import type { TransportKind } from './mcp/mcp-texts.ts';
import { checkSessionName } from './mcp/session-name.ts';
import { createHttpApp } from './transports/http-app.ts';
import { listen } from './transports/http-listener.ts';
import type { JwtAuth } from './transports/jwt-auth.ts';
import { lazyMcpEndpoint } from './transports/lazy-mcp-endpoint.ts';
import { maxHeapMb, QUICKJS_MAX_HEAP_MB, type ExecutionLimits } from '../shared/execution-contract.ts';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

export interface Logger {
  error(line: string): void;
  warn(line: string): void;
  info(line: string): void;
  debug(line: string): void;
}

/** Log lines go to stderr, always: stdout belongs to the stdio transport. */
export function createLogger(level: LogLevel): Logger {
  const max = LEVELS.indexOf(level);
  const at = (l: LogLevel) => (line: string): void => {
    if (LEVELS.indexOf(l) <= max) process.stderr.write(`runjs: ${l === 'info' ? '' : `${l}: `}${line}\n`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** Startup failed for a reason outside the configuration (exit code 1). */
function loadWasmOrFail(config: Config): LoadedWasmModule[] {
  try {
    return loadWasmModules(config, process.cwd());
  } catch (e) {
    if (!(e instanceof WasmConfigError)) throw e;
    const culprit = culpritOf(SPEC_BY_NAME.get('wasm-config')!, sourceOf(config, 'wasm-config'));
    // A message that names no module or flag came from the --wasm-config value's shape.
    throw new ConfigError(/^(WASM module|--wasm-)/.test(e.message) ? e.message : `invalid ${culprit}: ${e.message}`);
  }
}

export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export interface RunningApp {
  readonly transport: TransportKind;
  /** Base URL of the HTTP listener; undefined on stdio. */
  readonly url: string | undefined;
  close(): Promise<void>;
}

export interface AppHooks {
  /** The stdio client closed stdin. */
  readonly onStdioEnd: () => void;
}

function transportOf(config: Config): TransportKind {
  if (config.httpPort !== undefined) return 'streamable-http';
  if (config.ssePort !== undefined) return 'sse';
  return 'stdio';
}

async function loadAuth(config: Config, transport: TransportKind, log: Logger): Promise<JwtAuth | undefined> {
  if (config.jwksUrl === undefined) return undefined;
  if (transport === 'stdio') {
    log.warn('--jwks-url protects the HTTP transports only; it has no effect on stdio');
    return undefined;
  }
  // Loaded only when configured: jwks-rsa and express-jwt cost ≈ 20 MB and ≈ 0.3 s at startup.
  const { createJwtAuth, JwksUnavailableError } = await import('./transports/jwt-auth.ts');
  try {
    return await createJwtAuth(config.jwksUrl);
  } catch (e) {
    if (e instanceof JwksUnavailableError) throw new StartupError(e.message);
    throw e;
  }
}

export async function startApp(config: Config, log: Logger, hooks: AppHooks): Promise<RunningApp> {
  const sessionName = checkSessionName(config.sessionId, '--session-id');
  if (!sessionName.ok) throw new ConfigError(sessionName.error);
  if (config.heapStore !== 'none' && config.heapMemoryMax > QUICKJS_MAX_HEAP_MB) {
    throw new ConfigError(`--heap-memory-max ${config.heapMemoryMax} is above ${QUICKJS_MAX_HEAP_MB}, the largest heap the QuickJS engine (used with --heap-store) can address`);
  }
  // Read, validated and held to their budgets before anything is opened: a bad module stops
  // startup (exit 2, naming it).
  const wasmModules = loadWasmOrFail(config);
  const transport = transportOf(config);
  // Before anything is spawned: a key set that cannot be loaded aborts the start cheaply.
  const auth = await loadAuth(config, transport, log);
  // A misconfigured heap bucket fails the start, not every heap-mode run afterwards.
  // Loaded only here: the probe pulls in the AWS SDK, which servers without an s3 heap store never need.
  if (config.heapStore === 's3' && !config.stateless) await (await import('./heaps/probe-heap-bucket.ts')).probeHeapBucket(config).catch((e: unknown) => { throw new StartupError(e instanceof Error ? e.message : String(e)); });

  const db = openMetadataDb(config.sessionDbPath);
  const artifacts = openArtifacts(db, config, (line) => log.warn(line));
  const heaps = openHeaps(config, db, log);
  // Checked when the config was loaded; parsed again here into what workers (and run_js `file`) use.
  const policies = config.policiesJson === undefined ? {} : parsePolicyConfig(config.policiesJson);
  // Independent of the heap store: labels, push and merge work with or without --heap-store.
  const fs = openFs(config, log, policies);
  // The session file routes are decided by the `filesystem` policy in the supervisor (runs decide it in their worker).
  const sessionFilesPolicy = new SupervisorPolicy(policies, ['filesystem']);
  // MCP run_js calls: the policy may allow, deny or ask a human (mcp/run-js-approval.ts).
  const runJsPolicy = new SupervisorPolicy(policies, ['mcp_run_js']);
  if (fs.service.enabled) {
    heaps.enableFsSessions();
    fs.service.useSessionRoots(() => heaps.log.allFs());
  }
  const version = packageVersion();
  // Upstream MCP servers: connecting starts now; serving waits for each first attempt (below).
  const upstreams = await openUpstreams(config, version, log);
  // External modules: resolved, fetched and bundled here; the cache sits beside the session database.
  const opened = openModules(config, (line) => log.warn(line));
  const modules = opened?.service;
  if (opened !== undefined) log.info(`external modules: ${opened.describe}`);
  const pool = new WorkerPool({
    size: config.maxConcurrentExecutions, maxQueued: config.maxQueuedExecutions, log: (line) => log.warn(line),
    // Heap-mode runs use QuickJS, all others V8: warm only the engine this server will use.
    warmEngines: heaps.enabled ? ['quickjs'] : ['v8'],
    ops: new OpRouter([artifactOpRoutes(artifacts.service), upstreams.routes, ...(modules === undefined ? [] : [modules.routes()])], (line) => log.error(line)),
    externalModules: modules !== undefined,
    fsPassthrough: config.fsPassthrough,
    mcpCatalog: upstreams.hub === undefined ? undefined : () => upstreams.hub?.catalogJson(),
    policies,
    network: { fetchDefault: config.fetchDefault, caCerts: readCaCerts(config.fetchCaFile) },
    headerRules: headerRulesOf(config.fetchHeader, config.fetchHeaderConfig),
    wasm: wasmSettings(wasmModules),
  });
  // --heap-memory-max is within the ceiling (a conflict rule checks).
  const limits: ExecutionLimits = {
    defaultTimeoutSecs: config.executionTimeout,
    defaultHeapMb: config.heapMemoryMax,
    maxHeapMb: maxHeapMb(config.heapMemoryCeiling, heaps.enabled),
  };
  const executions = new ExecutionService({
    db, pool, limits,
    maxOutputBytes: config.maxOutputBytes,
    retention: config.executionRetention,
    // Without a heap store the service rejects `heap` and `tags` with a message naming the flag.
    // With an fs store, a run's `fs` is mounted at /work (independent of the heap store).
    heapEnabled: heaps.enabled,
    heaps,
    fsEnabled: fs.service.enabled,
    fs: fs.service,
    artifacts: artifacts.service,
    warn: (line) => log.warn(line),
  });
  // run_js `file`: decided here, at submission (the worker never sees the path).
  const files = new RunJsFileReader({ allowAll: config.allowRunJsFile, policies, maxBytes: MAX_SOURCE_BYTES, cwd: process.cwd() });
  const sessionFiles = fs.service.enabled ? new SessionFiles(fs.service, heaps.log, { policy: sessionFilesPolicy }) : undefined;
  const surface: McpSurfaceOptions = {
    executions,
    heaps,
    fs: fs.service,
    sessionFiles,
    // Upload URLs need an HTTP listener to PUT to: this one, or whatever --public-url points at.
    artifacts: {
      service: artifacts.service, publicBaseUrl: config.publicUrl,
      // The spec's stateless mode lists run_js alone; the artifact tools there are an opt-in.
      tools: !config.stateless || config.statelessArtifactTools,
      uploads: transport !== 'stdio' || config.publicUrl !== undefined ? artifacts.uploads : undefined,
    },
    mode: config.stateless ? 'stateless' : 'stateful',
    limits,
    version,
    instructions: config.instructions,
    runJsDescription: config.runJsDescription,
    files,
    ...(config.wasmStubs && wasmModules.length > 0 ? {
      wasmStubs: {
        prefix: config.wasmStubPrefix,
        modules: wasmModules.map((m) => ({ name: m.name, description: m.description, bound: !m.imports, exports: m.exports, functions: m.functions })),
      },
    } : {}),
    upstream: upstreams.surface,
    approval: policyApproval(runJsPolicy),
    log: (line) => log.warn(line),
  };
  let closeTransport: () => Promise<void>;
  let url: string | undefined;
  if (transport === 'stdio') {
    // Serving should mean "ready to run code": wait for the workers' first warm realms.
    await poolReady(pool);
    await upstreams.started;
    const { startStdio } = await import('./transports/stdio.ts');
    const stdio = await startStdio({ surface, sessionName: sessionName.value, onEnd: hooks.onStdioEnd });
    closeTransport = () => stdio.close();
    log.info(`MCP over stdio (${surface.mode} mode)`);
  } else {
    // The MCP layer loads at the first MCP request (transports/lazy-mcp-endpoint.ts says why).
    const endpointOptions = { surface, defaultSessionName: sessionName.value, maxRequestBody: config.maxRequestBody };
    const endpoint = transport === 'streamable-http'
      ? lazyMcpEndpoint(['/mcp'], async () => new (await import('./transports/streamable-http.ts')).StreamableHttpEndpoint(endpointOptions))
      : lazyMcpEndpoint(['/sse', '/message'], async () => new (await import('./transports/legacy-sse.ts')).LegacySseEndpoint(endpointOptions));
    const app = createHttpApp({
      guard: { allowedHosts: config.allowedHosts, allowedOrigins: config.allowedOrigins },
      auth,
      mcp: endpoint.router(),
      rest: createRestRouter({
        executions, version, maxRequestBody: config.maxRequestBody, publicBaseUrl: config.publicUrl,
        artifacts: artifacts.service, uploads: artifacts.uploads,
        heaps,
        fs: fs.service,
        sessionFiles,
        capabilities: () => ({ filesystem: fs.service.enabled, heap: heaps.enabled, sessions: heaps.sessionsEnabled }),
        upstream: upstreams.surface,
        log: (line) => log.error(line),
      }),
      openApiJson: openApiJson(version),
      maxRequestBody: config.maxRequestBody,
      log: (line) => log.error(line),
    });
    const port = (transport === 'streamable-http' ? config.httpPort : config.ssePort) ?? 0;
    let listening;
    try {
      listening = await listen(app, port, config.bindHost);
    } catch (e) {
      await pool.close();
      await fs.close();
      await upstreams.hub?.close();
      db.close();
      throw new StartupError(`cannot listen on ${config.bindHost}:${port}: ${e instanceof Error ? e.message : String(e)}`);
    }
    // Bind first (a port in use fails fast), announce once the workers can run code.
    await poolReady(pool);
    await upstreams.started;
    url = listening.url;
    closeTransport = async () => {
      await endpoint.close();
      await listening.close();
    };
    const paths = transport === 'streamable-http' ? `MCP at ${url}/mcp` : `MCP (legacy SSE) at ${url}/sse and ${url}/message`;
    log.info(`listening: ${paths}, REST at ${url}/api, OpenAPI at ${url}/api-doc/openapi.json (${surface.mode} mode${auth ? ', JWT required' : ''})`);
  }

  let closing: Promise<void> | undefined;
  return {
    transport,
    url,
    close: () => closing ??= (async () => {
      await closeTransport().catch((e: unknown) => log.error(`closing the transport failed: ${String(e)}`));
      executions.close();
      files.dispose();
      sessionFilesPolicy.dispose();
      runJsPolicy.dispose();
      await pool.close();
      await upstreams.hub?.close();
      await heaps.store?.close().catch((e: unknown) => log.error(`closing the heap store failed: ${String(e)}`));
      await fs.close().catch((e: unknown) => log.error(`closing the filesystem store failed: ${String(e)}`));
      db.close();
    })(),
  };
}

/** Waits for the workers; workers that cannot start make the server fail to start, saying why. */
async function poolReady(pool: WorkerPool): Promise<void> {
  try {
    await pool.ready();
  } catch (e) {
    if (e instanceof WorkerStartError) throw new StartupError(e.message);
    throw e;
  }
}
