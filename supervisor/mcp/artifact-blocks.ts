// How an artifact appears in an MCP result (reference mcp-v8 §1.5): `image/*` → image block,
// `audio/*` → audio block, other payloads that are valid UTF-8 text → text block with the text,
// anything else → text block with base64. Declared binary (`application/octet-stream`) and bytes
// with control characters other than tab and line breaks count as binary even when they happen
// to decode as UTF-8 (a buffer of zeros is not text). A payload above the inline budget is not inlined:
// the result carries its metadata and a resource_link to the REST download instead.
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ArtifactMeta } from '../executions/execution-types.ts';
import { artifactPath } from '../artifacts/upload-url.ts';

/** Largest payload inlined into one result (get_artifact), and total per stateless run_js result. */
export const INLINE_BUDGET_BYTES = 1024 * 1024;

export type ArtifactEncoding = 'image' | 'audio' | 'utf-8' | 'base64' | 'link';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** C0 controls and DEL, except tab, line feed and carriage return. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  return CONTROL.test(text) ? undefined : text;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The mime type without parameters (`image/png; x=y` → `image/png`). */
function essence(mime: string): string {
  return mime.split(';', 1)[0]!.trim();
}

/** The absolute download URL on --public-url, else the path. */
export function downloadUrl(key: string, publicBaseUrl: string | undefined): string {
  const base = publicBaseUrl === undefined || publicBaseUrl === '' ? '' : publicBaseUrl.replace(/\/+$/, '');
  return `${base}${artifactPath(key)}`;
}

/** The payload as one content block, with the encoding the metadata block names. */
export function payloadBlock(meta: ArtifactMeta, bytes: Uint8Array): { block: ContentBlock; encoding: ArtifactEncoding } {
  const type = essence(meta.mime_type);
  if (type.startsWith('image/')) return { block: { type: 'image', data: base64(bytes), mimeType: type }, encoding: 'image' };
  if (type.startsWith('audio/')) return { block: { type: 'audio', data: base64(bytes), mimeType: type }, encoding: 'audio' };
  const text = type === 'application/octet-stream' ? undefined : asText(bytes);
  if (text !== undefined) return { block: { type: 'text', text }, encoding: 'utf-8' };
  return { block: { type: 'text', text: base64(bytes) }, encoding: 'base64' };
}

/**
 * A resource_link to the REST download. `baseUrl` (--public-url, else the origin the MCP request
 * came in on) makes the URI absolute, as MCP expects; without one (stdio, no --public-url) it is
 * the path, and the description says what it is relative to.
 */
export function linkBlock(meta: ArtifactMeta, baseUrl: string | undefined): ContentBlock {
  const uri = downloadUrl(meta.key, baseUrl);
  const relative = uri.startsWith('/') ? ` The URI is a path on this server's HTTP listener (REST under /api).` : '';
  return {
    type: 'resource_link',
    uri,
    name: meta.key,
    mimeType: essence(meta.mime_type),
    description: `Artifact '${meta.key}' (${meta.size_bytes} bytes): too large to inline (over ${INLINE_BUDGET_BYTES} bytes); download it over REST.${relative}`,
  };
}

/** The origin (`http://host:port`) of the HTTP request an MCP message arrived on; undefined on stdio. */
export function requestOrigin(url: URL | undefined): string | undefined {
  if (url === undefined) return undefined;
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}
