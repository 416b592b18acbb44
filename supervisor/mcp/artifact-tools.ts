// The artifact tools, in both modes: get_artifact (metadata block, then the payload as a content
// block or, above the inline budget, a resource_link), list_artifacts, delete_artifact, and
// get_artifact_upload_url (a one-time URL a client PUTs a file to; see upload-tokens.ts).
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ArtifactService } from '../artifacts/artifact-service.ts';
import { RunjsError } from '../../shared/errors.ts';
import { MAX_ARTIFACT_BYTES } from '../artifacts/artifact-rules.ts';
import { DEFAULT_UPLOAD_TTL_SECS, MAX_UPLOAD_TTL_SECS, type UploadTokens } from '../artifacts/upload-tokens.ts';
import { uploadUrl } from '../artifacts/upload-url.ts';
import { downloadUrl, INLINE_BUDGET_BYTES, linkBlock, payloadBlock, requestOrigin } from './artifact-blocks.ts';
import { defineTool, jsonResult, type ToolDef } from './tool-kit.ts';

export interface McpArtifactsApi {
  readonly service: ArtifactService;
  /**
   * Whether the artifact tools are listed: always in stateful mode, in stateless mode only with
   * --stateless-artifact-tools (the spec's stateless mode exposes run_js alone, and its results
   * already carry the artifacts). Without them, texts point at the REST download instead.
   */
  readonly tools: boolean;
  /** Absent: no get_artifact_upload_url (stdio without --public-url: nothing could receive the PUT). */
  readonly uploads?: UploadTokens | undefined;
  /** `--public-url`: upload and download URLs are absolute on it, else paths. */
  readonly publicBaseUrl?: string | undefined;
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const key = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).min(1, 'must not be empty')
  .describe('Artifact key: 1-128 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit.');

const META = z.object({
  key: z.string(),
  mime_type: z.string(),
  size_bytes: z.int(),
  created_at: z.string(),
  execution_id: z.string().nullable(),
});

const GET_OUTPUT = META.extend({
  encoding: z.enum(['image', 'audio', 'utf-8', 'base64', 'link']).describe('How the second content block carries the payload; `link`: a resource_link to the REST download (payload over the inline budget).'),
  url: z.string().describe('REST download URL (absolute on --public-url, else the path).'),
});

const UPLOAD_OUTPUT = z.object({
  url: z.string().describe('PUT the raw file here (no bearer token needed). Absolute when the server has --public-url, else a path on this server.'),
  expires_at: z.string().describe('When the URL stops working (RFC 3339).'),
  key: z.string(),
  mime_type: z.string().nullable().describe('Fixed mime type, or null: the upload request\'s Content-Type decides.'),
});

export function artifactTools(api: McpArtifactsApi): ToolDef[] {
  const getArtifact = defineTool({
    name: 'get_artifact',
    title: 'Get an artifact',
    description: `Fetch an artifact a script stored with artifact(key, mime, bytes) or a client uploaded. Returns a metadata JSON block, then the payload: image/* as an image block, audio/* as an audio block, UTF-8 text as text, other bytes as base64 text. Payloads over ${INLINE_BUDGET_BYTES} bytes come as a resource_link to the REST download instead.`,
    annotations: { title: 'Get an artifact', ...READ_ONLY },
    input: z.strictObject({ key }),
    output: GET_OUTPUT,
    async handle({ key: k }, ctx): Promise<CallToolResult> {
      const meta = api.service.meta(k);
      if (meta === undefined) throw new RunjsError('ARTIFACT_NOT_FOUND', k);
      const url = downloadUrl(k, api.publicBaseUrl);
      if (meta.size_bytes > INLINE_BUDGET_BYTES) {
        const head = { ...meta, encoding: 'link' as const, url };
        const base = api.publicBaseUrl ?? requestOrigin(ctx.requestUrl);
        return { content: [{ type: 'text', text: JSON.stringify(head) }, linkBlock(meta, base)], structuredContent: head };
      }
      const found = await api.service.get(k);
      if (found === undefined) throw new RunjsError('ARTIFACT_NOT_FOUND', k);
      const { block, encoding } = payloadBlock(found.meta, found.bytes);
      const head = { ...found.meta, encoding, url };
      return { content: [{ type: 'text', text: JSON.stringify(head) }, block], structuredContent: head };
    },
  });

  const listArtifacts = defineTool({
    name: 'list_artifacts',
    title: 'List artifacts',
    description: 'All stored artifacts (metadata only), sorted by key.',
    annotations: { title: 'List artifacts', ...READ_ONLY },
    input: z.strictObject({}),
    output: z.object({ artifacts: z.array(META) }),
    handle: () => jsonResult({ artifacts: api.service.list() }),
  });

  const deleteArtifact = defineTool({
    name: 'delete_artifact',
    title: 'Delete an artifact',
    description: 'Delete a stored artifact (its payload too, unless another artifact has the same content). Returns the deleted artifact\'s metadata. Executions that emitted it still list it.',
    annotations: { title: 'Delete an artifact', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    input: z.strictObject({ key }),
    output: META,
    async handle({ key: k }): Promise<CallToolResult> {
      const deleted = await api.service.delete(k);
      if (deleted === undefined) throw new RunjsError('ARTIFACT_NOT_FOUND', k);
      return jsonResult(deleted);
    },
  });

  const uploadUrlTool = defineTool({
    name: 'get_artifact_upload_url',
    title: 'Get a one-time artifact upload URL',
    description: `A URL a user or client can PUT one file to (raw body, at most ${MAX_ARTIFACT_BYTES} bytes, no bearer token); the file is stored as the artifact \`key\`, which a later script reads with \`await artifact.get(key)\`. The URL works once and expires after expires_in_secs (default ${DEFAULT_UPLOAD_TTL_SECS}, at most ${MAX_UPLOAD_TTL_SECS}). With mime_type the stored type is fixed; without it the upload's Content-Type is used.`,
    annotations: { title: 'Get a one-time artifact upload URL', readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    input: z.strictObject({
      key,
      mime_type: z.string().nullable().optional().describe('Mime type to store the upload as (e.g. "text/csv"); overrides the upload\'s Content-Type.'),
      expires_in_secs: z.int('must be an integer').min(1, `must be from 1 to ${MAX_UPLOAD_TTL_SECS}`).max(MAX_UPLOAD_TTL_SECS, `must be from 1 to ${MAX_UPLOAD_TTL_SECS}`)
        .nullable().optional().describe(`Lifetime of the URL in seconds (default ${DEFAULT_UPLOAD_TTL_SECS}, at most ${MAX_UPLOAD_TTL_SECS}).`),
    }),
    output: UPLOAD_OUTPUT,
    handle({ key: k, mime_type, expires_in_secs }) {
      const issued = api.uploads!.issue(k, mime_type, expires_in_secs);
      return jsonResult({ url: uploadUrl(issued.token, api.publicBaseUrl), expires_at: issued.expiresAt, key: issued.key, mime_type: issued.mimeType });
    },
  });

  const always = [getArtifact, listArtifacts, deleteArtifact];
  return api.uploads === undefined ? always : [...always, uploadUrlTool];
}
