// MCP over Streamable HTTP at /mcp, both protocol generations on the one endpoint. A POST whose
// body carries the 2026-07-28 per-request `_meta` envelope (the SDK v2's own classifier,
// isLegacyRequest) goes to the stateless 2026 handler (modern-http.ts); everything else is the
// 2025 protocol (2025-03-26, 2025-06-18, 2025-11-25), served as before by SDK v1:
// one SDK transport and one MCP server per MCP session
// (`Mcp-Session-Id`, issued by the SDK at initialize). Requests without a session id get a fresh
// transport; the SDK accepts only `initialize` there, and a transport that did not start a session
// is dropped after its reply. Responses stream as SSE (progress notifications need a stream) with
// a 15 s keep-alive comment, and streams are resumable (event-store.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpConnection, type McpConnection, type McpSurfaceOptions } from '../mcp/mcp-server.ts';
import { checkSessionName, SESSION_HEADER } from '../mcp/session-name.ts';
import { BoundedEventStore } from './event-store.ts';
import { KEEP_ALIVE_MS } from './http-common.ts';
import { RunjsError } from '../../shared/errors.ts';
import { sendError } from '../rest/api-error.ts';
import { ModernHttpEndpoint } from './modern-http.ts';
import { readBody } from '../rest/read-body.ts';
import { requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';

/** How long a client whose stream broke waits before reconnecting (sent as the SSE `retry` field). */
export const RETRY_MS = 1_000;
/** Open MCP sessions at most: each holds a server object and its resumable events (event-store.ts). */
export const MAX_SESSIONS = 1000;
/** A session with no request in flight for this long is closed (clients that never send DELETE). */
export const SESSION_IDLE_MS = 30 * 60_000;
const SWEEP_MS = 60_000;

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly connection: McpConnection;
  inFlight: number;
  lastSeen: number;
}

export interface StreamableHttpOptions {
  readonly surface: McpSurfaceOptions;
  /** `--session-id`: the session name when initialize carries no X-MCP-Session-Id. */
  readonly defaultSessionName: string | undefined;
  readonly maxRequestBody: number;
}

export class StreamableHttpEndpoint {
  readonly #opts: StreamableHttpOptions;
  readonly #sessions = new Map<string, Session>();
  readonly #sweeper: NodeJS.Timeout;
  readonly #modern: ModernHttpEndpoint;

  constructor(opts: StreamableHttpOptions) {
    this.#opts = opts;
    this.#modern = new ModernHttpEndpoint({ surface: opts.surface, defaultSessionName: opts.defaultSessionName, maxRequestBody: opts.maxRequestBody });
    this.#sweeper = setInterval(() => this.#sweep(), SWEEP_MS);
    this.#sweeper.unref();
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  router(): Router {
    const router = express.Router();
    router.all('/mcp', (req, res, next) => {
      this.#handle(req, res).catch(next);
    });
    return router;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Only a POST can carry the 2026 envelope; GET and DELETE are 2025 session operations.
    let body: unknown;
    if (req.method === 'POST') {
      const read = await this.#readJson(req, res);
      if (!read.ok) return;
      body = read.body;
      if (await this.#modern.claims(req, body)) {
        await this.#modern.handle(req, res, body);
        return;
      }
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.#sessions.get(id);
      if (session === undefined) {
        // 404 tells a client its session is gone and it should initialize again (MCP spec).
        sendError(res, new RunjsError('MCP_SESSION_NOT_FOUND'));
        return;
      }
      this.#watch(session, res);
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, new RunjsError('MCP_SESSION_REQUIRED'));
      return;
    }
    if (this.#sessions.size >= MAX_SESSIONS) {
      sendError(res, new RunjsError('MCP_TOO_MANY_SESSIONS', MAX_SESSIONS));
      return;
    }
    const name = checkSessionName(req.headers[SESSION_HEADER]);
    if (!name.ok) {
      sendError(res, new RunjsError('MCP_SESSION_HEADER_INVALID', name.error));
      return;
    }
    await this.#open(req, res, body, name.value ?? this.#opts.defaultSessionName);
  }

  /**
   * The body, read here (under --max-request-body) because the generation is decided by its
   * content. What SDK v1 would answer for a body too large or not JSON is answered the same way.
   */
  async #readJson(req: IncomingMessage, res: ServerResponse): Promise<{ ok: true; body: unknown } | { ok: false }> {
    let raw: Buffer;
    try {
      raw = await readBody(req, this.#opts.maxRequestBody);
    } catch (e) {
      if (!(e instanceof RunjsError) || e.code !== 'BODY_TOO_LARGE') throw e;
      jsonRpcError(res, 413, -32000, requestBodyTooLargeMessage(this.#opts.maxRequestBody));
      return { ok: false };
    }
    try {
      return { ok: true, body: JSON.parse(raw.toString('utf8')) as unknown };
    } catch {
      jsonRpcError(res, 400, -32700, 'Parse error: Invalid JSON');
      return { ok: false };
    }
  }

  /** A request without a session: only an initialize makes it a session. */
  async #open(req: IncomingMessage, res: ServerResponse, body: unknown, sessionName: string | undefined): Promise<void> {
    const connection = createMcpConnection(this.#opts.surface, 'streamable-http', { value: sessionName });
    let session: Session | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      keepAliveMs: KEEP_ALIVE_MS,
      maxRequestBodySize: this.#opts.maxRequestBody,
      // Resumable streams: event ids, a priming event and `retry` on every stream.
      eventStore: new BoundedEventStore(),
      retryInterval: RETRY_MS,
      onsessioninitialized: (sid) => {
        session = { transport, connection, inFlight: 0, lastSeen: Date.now() };
        this.#sessions.set(sid, session);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
      void connection.close();
    };
    await connection.server.connect(transport);
    await transport.handleRequest(req, res, body);
    if (session === undefined) await connection.close();
  }

  /** Counts the request as in flight until its response closes (long SSE streams keep a session alive). */
  #watch(session: Session, res: ServerResponse): void {
    session.inFlight++;
    session.lastSeen = Date.now();
    res.once('close', () => {
      session.inFlight--;
      session.lastSeen = Date.now();
    });
  }

  #sweep(): void {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, s] of this.#sessions) {
      if (s.inFlight === 0 && s.lastSeen < cutoff) {
        this.#sessions.delete(id);
        void s.connection.close();
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await this.#modern.close();
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(all.map((s) => s.connection.close()));
  }
}

/** A JSON-RPC error response without an id, as the SDK's transport writes its own. */
function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
