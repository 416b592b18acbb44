// One upstream MCP server, held by the supervisor for every run: one SDK client over the SDK's
// own transport for the entry (stdio child, legacy SSE, Streamable HTTP), its tool list, and the
// connection's life. A server that cannot be reached — at startup or later — is retried in the
// background (0.5 s, doubling to 30 s) while calls fail at once with a clear error; a call that
// meets a dead connection reconnects once and retries (the reference's behaviour, whose error then
// ends in "(after reconnect)"). A ping every 20 s notices connections nobody is using.
// An `http` entry with `auth` (oauth-browser.ts) may wait for the operator to authorize it: then
// nothing retries, calls fail with "needs authorization: open <url>", and the redirect's code
// completes the flow and connects.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { RunjsError } from '../../shared/errors.ts';
import type { McpCatalogTool } from '../../shared/mcp-catalog.ts';
import type { UpstreamConfig } from './upstream-config.ts';
import { OAuthBrowserProvider } from './oauth-browser.ts';

export interface UpstreamTimings {
  /** Connecting and listing tools, per attempt. */
  readonly connectTimeoutMs: number;
  /** One tool call (the run's own timeout usually ends it first). */
  readonly callTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly retryMinMs: number;
  readonly retryMaxMs: number;
}

export const DEFAULT_UPSTREAM_TIMINGS: UpstreamTimings = Object.freeze({
  connectTimeoutMs: 10_000,
  callTimeoutMs: 300_000,
  pingIntervalMs: 20_000,
  retryMinMs: 500,
  retryMaxMs: 30_000,
});

export interface UpstreamServerOptions {
  readonly version: string;
  readonly timings: UpstreamTimings;
  readonly log: { info(line: string): void; warn(line: string): void };
  /** The tool list or the connection state changed (the catalogue must be rebuilt). */
  readonly onChange: () => void;
}

/** A connection that lived this long before it died is reconnected at once, and the backoff starts over. */
const STABLE_MS = 10_000;

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * A failure of the connection rather than of the call: anything but a JSON-RPC error the upstream
 * answered (those — an unknown tool, bad arguments — would fail again after a reconnect), and the
 * SDK's "connection closed".
 */
function isConnectionError(e: unknown): boolean {
  return !(e instanceof McpError) || e.code === ErrorCode.ConnectionClosed;
}

function toolOf(t: Tool): McpCatalogTool {
  return {
    name: t.name,
    description: t.description ?? null,
    inputSchema: t.inputSchema,
    ...(t.outputSchema !== undefined ? { outputSchema: t.outputSchema } : {}),
  };
}

export class UpstreamServer {
  readonly config: UpstreamConfig;
  readonly #opts: UpstreamServerOptions;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #tools: readonly McpCatalogTool[] = [];
  #lastError = 'not connected yet';
  #lastFailureAt = 0;
  #connectedAt = 0;
  #retryDelay: number;
  #retryTimer: NodeJS.Timeout | undefined;
  #pingTimer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #oauth: OAuthBrowserProvider | undefined;
  /** The transport of the last attempt: the one whose 401 started a pending authorization finishes it. */
  #lastHttp: StreamableHTTPClientTransport | undefined;

  constructor(config: UpstreamConfig, opts: UpstreamServerOptions) {
    this.config = config;
    this.#opts = opts;
    this.#retryDelay = opts.timings.retryMinMs;
    if (config.transport === 'http' && config.auth !== undefined) {
      this.#oauth = new OAuthBrowserProvider({ name: config.name, url: config.url, config: config.auth, log: opts.log, onCode: (code) => this.#finishAuth(code) });
    }
  }

  get name(): string {
    return this.config.name;
  }

  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** The tools of the last successful listing (kept while disconnected). */
  get tools(): readonly McpCatalogTool[] {
    return this.#tools;
  }

  /** The first attempt: resolves once it connected or failed (then retries go on in the background). */
  async start(): Promise<void> {
    this.#schedulePing();
    await this.#oauth?.listen().catch((e: unknown) => this.#opts.log.warn(`upstream MCP server '${this.name}': ${messageOf(e)}; a browser authorization cannot complete`));
    await this.#connect().catch(() => undefined);
  }

  /**
   * Calls `tool`; a dead connection is reconnected once and the call retried. `signal` (the run
   * ended) cancels the call: the SDK tells the upstream (notifications/cancelled).
   */
  async callTool(tool: string, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<CallToolResult> {
    const first = await this.#clientForCall();
    try {
      return await this.#call(first, tool, args, signal);
    } catch (e) {
      if (signal?.aborted === true) throw new RunjsError('MCP_CALL_FAILED', this.name, tool, 'cancelled: the run has ended');
      if (!isConnectionError(e)) throw new RunjsError('MCP_CALL_FAILED', this.name, tool, messageOf(e));
      this.#dropped(first, e);
      let second: Client;
      try {
        second = await this.#connect();
      } catch (e2) {
        if (RunjsError.is(e2, 'MCP_SERVER_NEEDS_AUTH')) throw e2;
        throw new RunjsError('MCP_CALL_FAILED', this.name, tool, `${messageOf(e)}; reconnecting failed: ${messageOf(e2)}`);
      }
      try {
        return await this.#call(second, tool, args, signal);
      } catch (e2) {
        throw new RunjsError('MCP_CALL_FAILED', this.name, tool, `${messageOf(e2)} (after reconnect)`);
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#pingTimer);
    const client = this.#client;
    this.#client = undefined;
    await this.#connecting?.catch(() => undefined);
    await client?.close().catch(() => undefined);
    await this.#oauth?.close();
  }

  async #call(client: Client, tool: string, args: Record<string, unknown> | undefined, signal: AbortSignal | undefined): Promise<CallToolResult> {
    const options = { timeout: this.#opts.timings.callTimeoutMs, ...(signal !== undefined ? { signal } : {}) };
    const result = await client.callTool({ name: tool, ...(args !== undefined ? { arguments: args } : {}) }, undefined, options);
    return result as CallToolResult;
  }

  /** The live client; while disconnected, one reconnect attempt now (not more than once a second). */
  async #clientForCall(): Promise<Client> {
    if (this.#client !== undefined) return this.#client;
    this.#throwIfAwaitingAuth();
    if (this.#connecting === undefined && Date.now() - this.#lastFailureAt < 1000) throw new RunjsError('MCP_SERVER_UNAVAILABLE', this.name, this.#lastError);
    try {
      return await this.#connect();
    } catch {
      this.#throwIfAwaitingAuth();
      throw new RunjsError('MCP_SERVER_UNAVAILABLE', this.name, this.#lastError);
    }
  }

  #throwIfAwaitingAuth(): void {
    const url = this.#oauth?.pendingAuthorization;
    if (url !== undefined) throw new RunjsError('MCP_SERVER_NEEDS_AUTH', this.name, url);
  }

  /** The operator's browser came back with `code`: the tokens for it, then a connection that uses them. */
  async #finishAuth(code: string): Promise<void> {
    const transport = this.#lastHttp;
    if (transport === undefined) throw new Error('no connection attempt is waiting for authorization');
    await transport.finishAuth(code);
    this.#opts.log.info(`upstream MCP server '${this.name}' is authorized`);
    this.#retryDelay = this.#opts.timings.retryMinMs;
    await this.#connect();
  }

  /** One connection attempt (shared by everyone who asks while it runs). */
  #connect(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error('runjs is shutting down'));
    // Waiting for the operator: a new attempt would only start another authorization.
    const url = this.#oauth?.pendingAuthorization;
    if (url !== undefined) return Promise.reject(new RunjsError('MCP_SERVER_NEEDS_AUTH', this.name, url));
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#connecting ??= this.#attempt().finally(() => { this.#connecting = undefined; });
    return this.#connecting;
  }

  async #attempt(): Promise<Client> {
    const client = new Client({ name: 'runjs', version: this.#opts.version }, { capabilities: {} });
    const timeout = this.#opts.timings.connectTimeoutMs;
    try {
      await withTimeout(client.connect(this.#transport(), { timeout }), timeout, 'connecting');
      const tools = await this.#listTools(client, timeout);
      if (this.#closed) throw new Error('runjs is shutting down');
      client.onclose = () => this.#dropped(client, new Error('the connection closed'));
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => { void this.#refreshTools(client); });
      const wasDown = this.#lastFailureAt !== 0;
      this.#client = client;
      this.#tools = tools;
      this.#connectedAt = Date.now();
      this.#lastError = '';
      this.#opts.log.info(`upstream MCP server '${this.name}' ${wasDown ? 'reconnected' : 'connected'} (${this.config.transport}, ${tools.length} tools)`);
      this.#opts.onChange();
      return client;
    } catch (e) {
      await client.close().catch(() => undefined);
      this.#lastError = messageOf(e);
      this.#lastFailureAt = Date.now();
      const url = this.#oauth?.pendingAuthorization;
      if (url !== undefined && e instanceof UnauthorizedError) {
        // The provider logged the URL; the redirect connects (#finishAuth), nothing retries meanwhile.
        this.#lastError = 'waiting for authorization';
        throw new RunjsError('MCP_SERVER_NEEDS_AUTH', this.name, url);
      }
      if (!this.#closed) {
        this.#opts.log.warn(`upstream MCP server '${this.name}' is unreachable: ${this.#lastError}; retrying in ${this.#retryDelay} ms`);
        this.#scheduleRetry();
      }
      throw e;
    }
  }

  async #listTools(client: Client, timeout: number): Promise<McpCatalogTool[]> {
    const tools: McpCatalogTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
      tools.push(...page.tools.map(toolOf));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  async #refreshTools(client: Client): Promise<void> {
    try {
      const tools = await this.#listTools(client, this.#opts.timings.connectTimeoutMs);
      if (this.#client !== client) return;
      this.#tools = tools;
      this.#opts.onChange();
    } catch (e) {
      this.#opts.log.warn(`upstream MCP server '${this.name}': listing its changed tools failed: ${messageOf(e)}`);
    }
  }

  /** `client`'s connection is gone: forget it and reconnect in the background. */
  #dropped(client: Client, why: unknown): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#lastError = messageOf(why);
    this.#lastFailureAt = Date.now();
    client.onclose = undefined;
    void client.close().catch(() => undefined);
    if (this.#closed) return;
    this.#opts.onChange();
    // A connection that lived a while is reconnected at once; one that keeps dying soon after it
    // is made (a stdio server crashing at its first request) backs off like a failed attempt.
    if (Date.now() - this.#connectedAt >= STABLE_MS) {
      this.#retryDelay = this.#opts.timings.retryMinMs;
      this.#opts.log.warn(`upstream MCP server '${this.name}' disconnected: ${this.#lastError}; reconnecting`);
      void this.#connect().catch(() => undefined);
    } else {
      this.#opts.log.warn(`upstream MCP server '${this.name}' disconnected: ${this.#lastError}; reconnecting in ${this.#retryDelay} ms`);
      this.#scheduleRetry();
    }
  }

  #scheduleRetry(): void {
    if (this.#retryTimer !== undefined || this.#oauth?.pendingAuthorization !== undefined) return;
    const delay = this.#retryDelay;
    this.#retryDelay = Math.min(this.#retryDelay * 2, this.#opts.timings.retryMaxMs);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.#connect().catch(() => undefined);
    }, delay);
    this.#retryTimer.unref();
  }

  #schedulePing(): void {
    this.#pingTimer = setInterval(() => {
      const client = this.#client;
      if (client === undefined) return;
      client.ping({ timeout: this.#opts.timings.connectTimeoutMs }).catch((e: unknown) => this.#dropped(client, e));
    }, this.#opts.timings.pingIntervalMs);
    this.#pingTimer.unref();
  }

  #transport(): Transport {
    const c = this.config;
    switch (c.transport) {
      case 'stdio': return new StdioClientTransport({ command: c.command, args: [...c.args], env: { ...c.env }, stderr: 'inherit' });
      case 'sse': return new SSEClientTransport(new URL(c.url));
      case 'http': {
        if (this.#oauth === undefined) return new StreamableHTTPClientTransport(new URL(c.url));
        this.#lastHttp = new StreamableHTTPClientTransport(new URL(c.url), { authProvider: this.#oauth });
        return this.#lastHttp;
      }
    }
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
