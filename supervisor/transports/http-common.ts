// Small pieces shared by the HTTP listeners.
import type { ServerResponse } from 'node:http';

/** Keep-alive comment interval on every event stream (spec: 15 s). */
export const KEEP_ALIVE_MS = 15_000;

/** A JSON-RPC error body, for failures on the MCP endpoints before the SDK sees the request. */
export function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The REST error body `{"error": ...}`. */
export function apiError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: message }));
}
