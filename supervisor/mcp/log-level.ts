// logging/setLevel on the 2025 server, and the filter it sets for the connection's log messages
// (docs/mcp-protocol.md, Logging). The SDK v1 Server's own handler parses the request with the
// level enum before it runs, so an unknown level failed as a ZodError, which the SDK answers as
// -32603 (internal error); an unknown level is the client's invalid params, -32602 in JSON-RPC.
// This handler replaces the SDK's and keeps the level itself: one Server per connection.
import { z } from 'zod';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, LoggingLevelSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

const LEVELS: readonly LoggingLevel[] = LoggingLevelSchema.options;

// Only the method: the level is checked in the handler, where a bad one can be answered as such.
const SetLevelRequest = z.object({ method: z.literal('logging/setLevel'), params: z.record(z.string(), z.unknown()).optional() });

/** Serves logging/setLevel on `server`; the answer says whether a message at a level is sent. */
export function serveLogLevel(server: Server): (level: LoggingLevel) => boolean {
  // No level set: every message is sent (the SDK's rule too).
  let lowest = 0;
  server.setRequestHandler(SetLevelRequest, (request) => {
    const level = LoggingLevelSchema.safeParse(request.params?.['level']);
    // Not an McpError, whose text would carry its own `MCP error -32602:` into the answer's message.
    if (!level.success) throw Object.assign(new Error(`logging/setLevel: level must be one of ${LEVELS.join(', ')}`), { code: ErrorCode.InvalidParams });
    lowest = LEVELS.indexOf(level.data);
    return {};
  });
  return (level) => LEVELS.indexOf(level) >= lowest;
}
