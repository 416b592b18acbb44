// Artifact routes (interface spec: "REST: artifacts", "Artifact upload token"). Payloads are
// raw bytes both ways — never JSON, never base64 — and request bodies stream into the blob store
// chunk by chunk with the 16 MiB cap enforced while reading (artifact-body.ts), so no upload is
// ever held whole in memory.
import type { Request } from 'express';
import type { ArtifactMeta } from '../executions/execution-types.ts';
import type { ArtifactService } from '../artifacts/artifact-service.ts';
import { errorMessage, RunjsError } from '../../shared/errors.ts';
import { checkKey, checkMime, MAX_ARTIFACT_BYTES } from '../artifacts/artifact-rules.ts';
import { bodyChunks } from './artifact-body.ts';
import { checkDeclaredLength } from './read-body.ts';
import type { RouteContext, RouteSpec } from './route-types.ts';

const TAG = 'artifacts';
const DEFAULT_MIME = 'application/octet-stream';

function service(ctx: RouteContext) {
  const s = ctx.deps.artifacts;
  if (s === undefined) throw new RunjsError('ARTIFACT_STORE_UNAVAILABLE');
  return s;
}

/**
 * Streams the body into the store under `key`. A body over the artifact limit is the route's
 * `tooLarge` error (the two routes answer it differently); rule violations are 400s, store
 * trouble propagates (500).
 */
async function storeBody(artifacts: ArtifactService, req: Request, key: string, mime: string, tooLarge: 'ARTIFACT_TOO_LARGE' | 'UPLOAD_TOO_LARGE'): Promise<ArtifactMeta> {
  try {
    checkDeclaredLength(req, MAX_ARTIFACT_BYTES);
    return await artifacts.putStream(key, mime, bodyChunks(req, MAX_ARTIFACT_BYTES), null);
  } catch (e) {
    if (RunjsError.is(e, 'BODY_TOO_LARGE', 'ARTIFACT_PAYLOAD_TOO_LARGE')) throw new RunjsError(tooLarge, MAX_ARTIFACT_BYTES);
    throw e;
  }
}

function requestMime(req: Request): string {
  const raw = req.headers['content-type'];
  return raw === undefined || raw.trim() === '' ? DEFAULT_MIME : raw;
}

const keyParam = { name: 'key', in: 'path' as const, required: true, description: "Artifact key: 1-128 characters from `A-Z a-z 0-9 . _ -`, starting with a letter or digit.", schema: { type: 'string' } };
const rawBody = (what: string) => ({
  required: true,
  description: `${what} At most ${MAX_ARTIFACT_BYTES} bytes (16 MiB).`,
  content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
});

export const ARTIFACT_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/api/artifacts',
    operationId: 'listArtifacts',
    tag: TAG,
    summary: 'List stored artifacts',
    description: 'Every artifact, sorted by key.',
    responses: { 200: { description: 'The artifacts.', schema: 'ArtifactList' } },
    handle: (ctx) => ({ status: 200, json: { artifacts: service(ctx).list() } }),
  },
  {
    method: 'get',
    path: '/api/artifacts/{key}',
    operationId: 'getArtifact',
    tag: TAG,
    summary: 'Download an artifact',
    description: 'The raw payload; Content-Type is the stored mime type. Served as an attachment with `X-Content-Type-Options: nosniff`, so a stored `text/html` is never rendered as this origin\'s page.',
    parameters: [keyParam],
    responses: {
      200: { description: 'The payload bytes.', mediaType: '*/*', schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
      404: { description: `Unknown key (\`${errorMessage('ARTIFACT_NOT_FOUND', '<key>')}\`).`, schema: 'ApiError' },
    },
    async handle(ctx) {
      const key = ctx.params['key'] ?? '';
      const found = await service(ctx).get(key);
      if (found === undefined) throw new RunjsError('ARTIFACT_NOT_FOUND', key);
      return {
        status: 200,
        bytes: found.bytes,
        contentType: found.meta.mime_type,
        headers: { 'X-Content-Type-Options': 'nosniff', 'Content-Disposition': `attachment; filename="${key}"` },
      };
    },
  },
  {
    method: 'put',
    path: '/api/artifacts/{key}',
    operationId: 'putArtifact',
    tag: TAG,
    summary: 'Store an artifact',
    description: 'The raw body is stored under the key (an existing artifact with that key is replaced). The request Content-Type becomes the mime type, `application/octet-stream` when absent.',
    parameters: [keyParam],
    requestBody: rawBody('The payload.'),
    responses: {
      200: { description: 'The stored artifact.', schema: 'ArtifactMeta' },
      400: { description: 'Invalid key, mime type (Content-Type), or a payload over 16 MiB.', schema: 'ApiError' },
    },
    async handle(ctx) {
      const key = ctx.params['key'] ?? '';
      const artifacts = service(ctx);
      checkKey(key);
      const mime = checkMime(requestMime(ctx.req));
      // The interface spec answers an oversized payload on this route with 400 (413 is the token route's).
      return { status: 200, json: await storeBody(artifacts, ctx.req, key, mime, 'ARTIFACT_TOO_LARGE') };
    },
  },
  {
    method: 'delete',
    path: '/api/artifacts/{key}',
    operationId: 'deleteArtifact',
    tag: TAG,
    summary: 'Delete an artifact',
    description: 'Removes the artifact and, when no other artifact has the same content, its payload. Executions that emitted it still list it (as it was when emitted). Upload URLs already issued for the key stay valid and create it anew.',
    parameters: [keyParam],
    responses: {
      200: { description: 'The deleted artifact\'s metadata.', schema: 'ArtifactMeta' },
      404: { description: `Unknown key (\`${errorMessage('ARTIFACT_NOT_FOUND', '<key>')}\`).`, schema: 'ApiError' },
    },
    async handle(ctx) {
      const key = ctx.params['key'] ?? '';
      const deleted = await service(ctx).delete(key);
      if (deleted === undefined) throw new RunjsError('ARTIFACT_NOT_FOUND', key);
      return { status: 200, json: deleted };
    },
  },
  {
    method: 'put',
    path: '/api/artifact-uploads/{token}',
    operationId: 'uploadArtifact',
    tag: TAG,
    noBearerAuth: true,
    summary: 'Upload through a one-time URL',
    description: 'No bearer token: the path token (from the MCP tool `get_artifact_upload_url`) is the credential. The body is stored under the key the URL was issued for; the mime type fixed at issue wins, else the request Content-Type, else `application/octet-stream`. A token is used once: while an upload with it is in progress other requests get 404, after a successful one every request does; a rejected or interrupted upload leaves it usable until it expires.',
    parameters: [{ name: 'token', in: 'path', required: true, description: 'The token from the upload URL.', schema: { type: 'string' } }],
    requestBody: rawBody('The payload.'),
    responses: {
      200: { description: 'The stored artifact.', schema: 'ArtifactMeta' },
      400: { description: 'Invalid mime type (Content-Type, when none was fixed at issue), or the body ended early or stalled (no data for 30 seconds).', schema: 'ApiError' },
      404: { description: 'Unknown, expired, used or in-use token.', schema: 'ApiError' },
      413: { description: 'Payload over 16 MiB.', schema: 'ApiError' },
    },
    async handle(ctx) {
      const artifacts = service(ctx);
      const uploads = ctx.deps.uploads;
      if (uploads === undefined) throw new RunjsError('ARTIFACT_STORE_UNAVAILABLE');
      const claim = uploads.claim(ctx.params['token'] ?? '');
      if (claim === undefined) throw new RunjsError('UPLOAD_TOKEN_NOT_FOUND');
      // From here every way out either completes the claim or returns the token to `issued`.
      try {
        const mime = claim.mimeType ?? checkMime(requestMime(ctx.req));
        const meta = await storeBody(artifacts, ctx.req, claim.key, mime, 'UPLOAD_TOO_LARGE');
        claim.complete();
        return { status: 200, json: meta };
      } finally {
        claim.release(); // no-op after complete()
      }
    },
  },
];
