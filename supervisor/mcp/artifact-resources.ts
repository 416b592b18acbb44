// Artifacts as MCP resources (beyond the spec; issue 19): `resources/list` pages through the
// stored artifacts as `runjs://artifacts/{key}`, `resources/templates/list` names that template,
// and `resources/read` returns the payload — text when it is UTF-8, base64 `blob` otherwise. A
// missing artifact is JSON-RPC -32602 with the URI in `data` (SEP-2164). With an MCP session name
// (X-MCP-Session-Id / --session-id), the list holds only the artifacts that session's executions
// made (any key can still be read by URI, as get_artifact can).
import { ErrorCode, McpError, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { ArtifactService } from '../artifacts/artifact-service.ts';
import type { ArtifactMeta } from '../executions/execution-types.ts';

export const ARTIFACT_URI_PREFIX = 'runjs://artifacts/';
const PAGE = 100;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export const ARTIFACT_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${ARTIFACT_URI_PREFIX}{key}`,
  name: 'artifact',
  title: 'An artifact',
  description: 'A file a script stored with artifact(key, mime, bytes) or a client uploaded. The key is URI-encoded.',
};

export const artifactUri = (key: string): string => `${ARTIFACT_URI_PREFIX}${encodeURIComponent(key)}`;

function resourceOf(m: ArtifactMeta): Resource {
  return {
    uri: artifactUri(m.key), name: m.key, mimeType: m.mime_type, size: m.size_bytes,
    ...(m.execution_id !== null ? { description: `Made by execution ${m.execution_id}` } : {}),
  };
}

export interface ArtifactResourcesOptions {
  readonly service: ArtifactService;
  /** The executions of a session (for the list's scope); absent: every artifact is listed. */
  readonly sessionExecutions?: (session: string) => ReadonlySet<string>;
}

/** One page of artifacts from `cursor` (an offset), and the next cursor when more remain. */
export function listArtifactResources(opts: ArtifactResourcesOptions, cursor: string | undefined, session: string | undefined): { resources: Resource[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isSafeInteger(offset) || offset < 0) throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);
  let all = opts.service.list();
  if (session !== undefined && opts.sessionExecutions !== undefined) {
    const mine = opts.sessionExecutions(session);
    all = all.filter((m) => m.execution_id != null && mine.has(m.execution_id));
  }
  const page = all.slice(offset, offset + PAGE).map(resourceOf);
  return offset + PAGE < all.length ? { resources: page, nextCursor: String(offset + PAGE) } : { resources: page };
}

/** How long changes are gathered into one list-changed notification (a run may store many artifacts at once). */
const CHANGE_COALESCE_MS = 50;

/**
 * Calls `notify` when the artifact list changed (stored, replaced, deleted), at most once per
 * CHANGE_COALESCE_MS; returns the unsubscribe. Every subscriber hears every change: a session's
 * list is a view of the one store, and "the list may have changed" is only a hint to re-list.
 */
export function watchArtifactResources(service: ArtifactService, notify: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const off = service.onChange(() => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      notify();
    }, CHANGE_COALESCE_MS);
    timer.unref();
  });
  return () => {
    off();
    clearTimeout(timer);
  };
}

/** The artifact under `uri`, or undefined when `uri` is not an artifact URI. */
export async function readArtifactResource(service: ArtifactService, uri: string): Promise<{ contents: ({ uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string })[] } | undefined> {
  if (!uri.startsWith(ARTIFACT_URI_PREFIX)) return undefined;
  let key: string;
  try {
    key = decodeURIComponent(uri.slice(ARTIFACT_URI_PREFIX.length));
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
  }
  const found = await service.get(key);
  if (found === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
  const { meta, bytes } = found;
  try {
    return { contents: [{ uri, mimeType: meta.mime_type, text: utf8.decode(bytes) }] };
  } catch {
    return { contents: [{ uri, mimeType: meta.mime_type, blob: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') }] };
  }
}
