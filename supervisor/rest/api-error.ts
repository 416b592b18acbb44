// The one place a RunjsError becomes an HTTP response: its status and `{"error": message}` (the
// ApiError body), or, for the MCP Streamable HTTP endpoint's own errors, a JSON-RPC error body.
// Used by the REST router, the HTTP app around it and the MCP HTTP endpoints. Anything else
// thrown inside a route is an internal error (500, detail logged, never shown to the client).
import type { ServerResponse } from 'node:http';
import { RunjsError } from '../../shared/errors.ts';

/** Writes `e` as the response: its status, and the body its MCP mapping calls for. */
export function sendError(res: ServerResponse, e: RunjsError, headers: Readonly<Record<string, string>> = {}): void {
  if (e.mcp === 'http-json-rpc') {
    send(res, e.status, 'application/json', { jsonrpc: '2.0', error: { code: e.jsonRpcCode, message: e.message }, id: null }, headers);
  } else {
    send(res, e.status, 'application/json; charset=utf-8', { error: e.message }, headers);
  }
}

/**
 * A status and ApiError text the framework (express, body-parser) chose, for the failures the
 * registry has no code for: passed through as they are.
 */
export function sendFrameworkError(res: ServerResponse, status: number, message: string): void {
  send(res, status, 'application/json; charset=utf-8', { error: message }, {});
}

function send(res: ServerResponse, status: number, type: string, body: object, headers: Readonly<Record<string, string>>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(text)) }).end(text);
}
