// The legacy HTTP+SSE transport (MCP 2024-11-05): `GET /sse` opens the event stream (one MCP
// server per stream), `POST /message?sessionId=…` carries client messages to it. The SDK's
// transport has no keep-alive, so a comment frame is written every 15 s here. No MCP tasks on
// this transport (the server does not advertise them).
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Request, type Response, type Router } from 'express';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpConnection, type McpConnection, type McpSurfaceOptions } from '../mcp/mcp-server.ts';
import { checkSessionName, SESSION_HEADER } from '../mcp/session-name.ts';
import { KEEP_ALIVE_MS } from './http-common.ts';
import { RunjsError } from '../../shared/errors.ts';
import { sendError } from '../rest/api-error.ts';

export const MESSAGE_PATH = '/message';

interface Stream {
  readonly transport: SSEServerTransport;
  readonly connection: McpConnection;
}

export interface LegacySseOptions {
  readonly surface: McpSurfaceOptions;
  readonly defaultSessionName: string | undefined;
  readonly maxRequestBody: number;
}

export class LegacySseEndpoint {
  readonly #opts: LegacySseOptions;
  readonly #streams = new Map<string, Stream>();

  constructor(opts: LegacySseOptions) {
    this.#opts = opts;
  }

  get streamCount(): number {
    return this.#streams.size;
  }

  router(): Router {
    const router = express.Router();
    router.get('/sse', (req, res, next) => {
      this.#open(req, res).catch(next);
    });
    router.post(MESSAGE_PATH, express.json({ limit: this.#opts.maxRequestBody }), (req, res, next) => {
      this.#message(req, res).catch(next);
    });
    return router;
  }

  async #open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const name = checkSessionName(req.headers[SESSION_HEADER]);
    if (!name.ok) {
      sendError(res, new RunjsError('SSE_SESSION_HEADER_INVALID', name.error));
      return;
    }
    const transport = new SSEServerTransport(MESSAGE_PATH, res);
    const connection = createMcpConnection(this.#opts.surface, 'sse', { value: name.value ?? this.#opts.defaultSessionName });
    const sid = transport.sessionId;
    this.#streams.set(sid, { transport, connection });
    const keepAlive = setInterval(() => { res.write(': ping\n\n'); }, KEEP_ALIVE_MS);
    keepAlive.unref();
    res.once('close', () => {
      clearInterval(keepAlive);
      this.#streams.delete(sid);
      void connection.close();
    });
    await connection.server.connect(transport);
  }

  async #message(req: Request, res: Response): Promise<void> {
    const sid = req.query['sessionId'];
    if (typeof sid !== 'string' || sid === '') {
      sendError(res, new RunjsError('SSE_SESSION_ID_MISSING'));
      return;
    }
    const stream = this.#streams.get(sid);
    if (stream === undefined) {
      sendError(res, new RunjsError('SSE_STREAM_NOT_FOUND', sid));
      return;
    }
    const body: unknown = req.body;
    // The session name may also come with the initialize message itself (the header wins over --session-id).
    if (isInitializeRequest(body)) {
      const name = checkSessionName(req.headers[SESSION_HEADER]);
      if (!name.ok) {
        sendError(res, new RunjsError('SSE_SESSION_HEADER_INVALID', name.error));
        return;
      }
      if (name.value !== undefined) stream.connection.session.value = name.value;
    }
    await stream.transport.handlePostMessage(req, res, body);
  }

  async close(): Promise<void> {
    const all = [...this.#streams.values()];
    this.#streams.clear();
    await Promise.allSettled(all.map((s) => s.connection.close()));
  }
}
