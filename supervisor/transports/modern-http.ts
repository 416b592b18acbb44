// MCP 2026-07-28 over Streamable HTTP (official SDK v2): createMcpHandler builds one server
// object per request from the factory below and owns the generation's HTTP rules (the envelope,
// the MCP-Protocol-Version / Mcp-Method / Mcp-Name header checks with -32020, the 400/404 status
// mapping, JSON or SSE responses). `legacy: 'reject'`: 2025 traffic never reaches it, the
// Streamable HTTP endpoint routes that to the SDK v1 sessions (streamable-http.ts).
//
// There are no sessions: the session name (`X-MCP-Session-Id`, else --session-id) is read from
// every request, and the run_js tasks live in one store for the endpoint.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler, toWebRequest, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { createModernServer } from '../mcp/mcp-server-2026.ts';
import { onResourcesChanged, type McpSurfaceOptions } from '../mcp/mcp-surface.ts';
import { checkSessionName, SESSION_HEADER } from '../mcp/session-name.ts';
import { RunJsTaskStore2026 } from '../mcp/run-js-tasks-2026.ts';
import { RunjsError } from '../../shared/errors.ts';
import { sendError } from '../rest/api-error.ts';
import { KEEP_ALIVE_MS } from './http-common.ts';
import { withTaskListen, type TaskListenHandler } from './task-listen-http.ts';
import { SERVER_NAME } from '../mcp/mcp-server.ts';

export interface ModernHttpOptions {
  readonly surface: McpSurfaceOptions;
  readonly defaultSessionName: string | undefined;
  readonly maxRequestBody: number;
}

export class ModernHttpEndpoint {
  readonly tasks: RunJsTaskStore2026;
  readonly #handler: McpHttpHandler;
  /** The handler with task status subscriptions (task-listen-http.ts) in front. */
  readonly #listen: TaskListenHandler;
  readonly #node: NodeMcpRequestHandler;
  readonly #maxRequestBody: number;
  readonly #unwatch: () => void;

  constructor(opts: ModernHttpOptions) {
    this.tasks = new RunJsTaskStore2026(opts.surface.executions, opts.surface.log);
    this.#maxRequestBody = opts.maxRequestBody;
    const tasks = this.tasks;
    this.#handler = createMcpHandler((ctx) => {
      // Checked before dispatch (handle below); a second header here would have been refused there.
      const header = ctx.requestInfo?.headers.get(SESSION_HEADER) ?? undefined;
      return createModernServer({ surface: opts.surface, transport: 'streamable-http', sessionName: header ?? opts.defaultSessionName, tasks });
    }, {
      legacy: 'reject',
      keepAliveMs: KEEP_ALIVE_MS,
      maxRequestBodySize: opts.maxRequestBody,
      // Rejected requests are the client's business (they get the error); only log our failures.
      onerror: (e) => { if (!(e.name === 'ProtocolError' || /Invalid|Unsupported|Header|not found/i.test(e.message))) opts.surface.log(`MCP 2026-07-28: ${e.message}`); },
    });
    this.#listen = withTaskListen(this.#handler, {
      tasks, keepAliveMs: KEEP_ALIVE_MS, log: opts.surface.log,
      serverInfo: { name: SERVER_NAME, title: 'runjs', version: opts.surface.version },
    });
    this.#node = toNodeHandler(this.#listen, { maxRequestBodySize: opts.maxRequestBody });
    // Artifact changes reach the subscriptions/listen streams that asked for resourcesListChanged.
    this.#unwatch = onResourcesChanged(opts.surface, () => this.#handler.notify.resourcesChanged());
  }

  /** Whether a POST body is 2026-07-28 traffic (it carries the per-request envelope claim). */
  async claims(req: IncomingMessage, body: unknown): Promise<boolean> {
    const web = await toWebRequest(req, body);
    return !(await isLegacyRequest(web, body, { maxRequestBodySize: this.#maxRequestBody }));
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const name = checkSessionName(req.headers[SESSION_HEADER]);
    if (!name.ok) {
      sendError(res, new RunjsError('MCP_SESSION_HEADER_INVALID', name.error));
      return;
    }
    await this.#node(req, res, body);
  }

  async close(): Promise<void> {
    this.#unwatch();
    this.#listen.closeAll();
    this.tasks.close();
    await this.#handler.close();
  }
}
