// Raw HTTP requests for the e2e suites, where fetch cannot go: a chosen Host header (fetch
// forbids setting it), and reading an event stream for a while.
import { request } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

export function httpRequest(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: headers['Host'] === undefined && headers['host'] === undefined }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => {
        let json: unknown;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** An MCP initialize request body (for raw POST /mcp). */
export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});

export const MCP_POST_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } as const;

/** Reads an event stream for `ms`, then aborts it; resolves with the status and the text received. */
export function readStream(port: number, path: string, ms: number, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'GET', path, headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      const timer = setTimeout(() => { req.destroy(); resolve({ status: res.statusCode ?? 0, text }); }, ms);
      res.on('end', () => { clearTimeout(timer); resolve({ status: res.statusCode ?? 0, text }); });
    });
    req.on('error', (e) => { if (!req.destroyed) reject(e); });
    req.end();
  });
}

export interface SseFrame {
  readonly id?: string;
  readonly event?: string;
  readonly retry?: string;
  readonly data: string;
}

export interface EventStream {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The next complete frame (comments skipped); rejects when the stream ends first. */
  next(timeoutMs?: number): Promise<SseFrame>;
  close(): void;
}

/** Sends a request whose response is an event stream, and reads it frame by frame. */
export function openEventStream(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let buffer = '';
      const frames: SseFrame[] = [];
      let ended = false;
      let wake: (() => void) | undefined;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let i = buffer.indexOf('\n\n'); i !== -1; i = buffer.indexOf('\n\n')) {
          const lines = buffer.slice(0, i).split('\n');
          buffer = buffer.slice(i + 2);
          if (lines.every((l) => l.startsWith(':'))) continue;
          const field = (name: string): string | undefined => lines.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trimStart();
          const id = field('id');
          const event = field('event');
          const retry = field('retry');
          frames.push({ data: field('data') ?? '', ...(id === undefined ? {} : { id }), ...(event === undefined ? {} : { event }), ...(retry === undefined ? {} : { retry }) });
        }
        wake?.();
      });
      res.on('end', () => { ended = true; wake?.(); });
      res.on('error', () => { ended = true; wake?.(); });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        next: async (timeoutMs = 10_000) => {
          const until = Date.now() + timeoutMs;
          while (frames.length === 0) {
            if (ended) throw new Error('the stream ended');
            if (Date.now() > until) throw new Error('no frame in time');
            await new Promise<void>((r) => { wake = r; setTimeout(r, 50); });
          }
          return frames.shift()!;
        },
        close: () => { req.destroy(); },
      });
    });
    req.on('error', (e) => { if (!req.destroyed) reject(e); });
    if (body !== undefined) req.write(body);
    req.end();
  });
}
