// MCP over standard input/output: one MCP server for the life of the process. stdout carries
// protocol messages only (every log line goes to stderr). When the client closes stdin the
// server has no one left to serve, so `onEnd` shuts the process down.
//
// Both protocol generations: the first message decides, as the SDK v2's serveStdio decides. A
// message carrying the 2026-07-28 per-request envelope (`_meta` names a protocol version) opens a
// 2026 connection, served by serveStdio (SDK v2) with one tasks store for the process; anything
// else (`initialize`) is a 2025 connection on the SDK v1 server, exactly as before. The one
// stdin/stdout transport is shared: the chosen server gets a relay over it.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { createMcpConnection, type McpConnection, type McpSurfaceOptions } from '../mcp/mcp-server.ts';
import { createModernServer } from '../mcp/mcp-server-2026.ts';
import { onResourcesChanged } from '../mcp/mcp-surface.ts';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { RunJsTaskStore2026 } from '../mcp/run-js-tasks-2026.ts';
import { SERVER_NAME } from '../mcp/mcp-server.ts';
import { StdioTaskListen } from './task-listen-stdio.ts';

export interface StdioOptions {
  readonly surface: McpSurfaceOptions;
  /** `--session-id`. */
  readonly sessionName: string | undefined;
  readonly onEnd: () => void;
}

export interface StdioEndpoint {
  close(): Promise<void>;
}

/** Whether a message claims the 2026-07-28 generation: its `_meta` carries the protocol version. */
function claimsModern(message: JSONRPCMessage): boolean {
  if (!('method' in message)) return false;
  const meta: unknown = message.params?.['_meta'];
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

/** A transport for the chosen server over the shared stdio transport; `deliver` feeds it what stdin brings. */
class Relay implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly #real: StdioServerTransport;
  #onmessage: Transport['onmessage'];
  /** Messages that arrived before the server set its handler (serveStdio sets it after an await). */
  #held: JSONRPCMessage[] = [];
  /** Task status subscriptions (2026 connections): sees what goes in and out. */
  taskListen: StdioTaskListen | undefined;

  get onmessage(): Transport['onmessage'] {
    return this.#onmessage;
  }
  set onmessage(handler: Transport['onmessage']) {
    this.#onmessage = handler;
    const held = this.#held;
    this.#held = [];
    for (const m of held) handler?.(m);
  }

  constructor(real: StdioServerTransport) {
    this.#real = real;
  }

  async start(): Promise<void> { /* the shared transport is already reading */ }
  send(message: JSONRPCMessage): Promise<void> {
    return this.#real.send(this.taskListen === undefined ? message : this.taskListen.outbound(message));
  }
  /** Writes to stdout past the task subscriptions (their own notifications). */
  sendRaw(message: JSONRPCMessage): Promise<void> {
    return this.#real.send(message);
  }
  close(): Promise<void> {
    return this.#real.close();
  }
  deliver(message: JSONRPCMessage): void {
    if (this.taskListen?.inbound(message) === true) return;
    if (this.#onmessage === undefined) this.#held.push(message);
    else this.#onmessage(message);
  }
}

export async function startStdio(opts: StdioOptions): Promise<StdioEndpoint> {
  const real = new StdioServerTransport();
  const relay = new Relay(real);
  let legacy: McpConnection | undefined;
  let modern: { close(): Promise<void> } | undefined;
  let tasks: RunJsTaskStore2026 | undefined;
  let chosen: Promise<void> | undefined;
  let unwatch = (): void => {};

  const choose = async (first: JSONRPCMessage): Promise<void> => {
    if (claimsModern(first)) {
      tasks = new RunJsTaskStore2026(opts.surface.executions, opts.surface.log);
      const store = tasks;
      relay.taskListen = new StdioTaskListen({
        tasks: store, serverInfo: { name: SERVER_NAME, title: 'runjs', version: opts.surface.version }, log: opts.surface.log,
        send: (m) => relay.sendRaw(m), toSdk: (m) => relay.deliver(m),
      });
      let instance: ModernServer | undefined;
      // Artifact changes: the serving instance's list-changed goes to the listen subscriptions that asked.
      unwatch = onResourcesChanged(opts.surface, () => { instance?.sendResourceListChanged().catch(() => { /* closing */ }); });
      modern = serveStdio(() => instance = createModernServer({ surface: opts.surface, transport: 'stdio', sessionName: opts.sessionName, tasks: store }), {
        legacy: 'reject',
        transport: relay as never,
        onerror: (e) => opts.surface.log(`MCP 2026-07-28 (stdio): ${e.message}`),
      });
    } else {
      legacy = createMcpConnection(opts.surface, 'stdio', { value: opts.sessionName });
      await legacy.server.connect(relay);
    }
  };
  real.onmessage = (message) => {
    // Messages behind the first wait for the choice, in order.
    chosen ??= choose(message);
    void chosen.then(() => relay.deliver(message), (e: unknown) => opts.surface.log(`MCP stdio: ${String(e)}`));
  };
  real.onerror = (e) => relay.onerror?.(e);
  real.onclose = () => relay.onclose?.();
  process.stdin.once('end', opts.onEnd);
  await real.start();
  return {
    close: async () => {
      process.stdin.off('end', opts.onEnd);
      unwatch();
      relay.taskListen?.close();
      tasks?.close();
      if (legacy !== undefined) await legacy.close();
      else if (modern !== undefined) await modern.close();
      else await real.close();
    },
  };
}
