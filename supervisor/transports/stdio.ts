// MCP over standard input/output: one MCP server for the life of the process. stdout carries
// protocol messages only (every log line goes to stderr). When the client closes stdin the
// server has no one left to serve, so `onEnd` shuts the process down.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpConnection, type McpConnection, type McpSurfaceOptions } from '../mcp/mcp-server.ts';

export interface StdioOptions {
  readonly surface: McpSurfaceOptions;
  /** `--session-id`. */
  readonly sessionName: string | undefined;
  readonly onEnd: () => void;
}

export interface StdioEndpoint {
  close(): Promise<void>;
}

export async function startStdio(opts: StdioOptions): Promise<StdioEndpoint> {
  const connection: McpConnection = createMcpConnection(opts.surface, 'stdio', { value: opts.sessionName });
  const transport = new StdioServerTransport();
  process.stdin.once('end', opts.onEnd);
  await connection.server.connect(transport);
  return {
    close: async () => {
      process.stdin.off('end', opts.onEnd);
      await connection.close();
    },
  };
}
