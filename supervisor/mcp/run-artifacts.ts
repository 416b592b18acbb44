// Stateless run_js results carry what the run emitted with artifact(): an `artifacts` list in the
// JSON, and the payloads as extra content blocks while they fit the inline budget (in total);
// the rest are named with `inline: false` and fetched with get_artifact (when listed) or over REST.
// Where artifacts are MCP resources (the artifact tools are listed), every emitted artifact is also
// linked as a `resource_link` to its `runjs://artifacts/{key}` resource, after the payloads.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ArtifactMeta } from '../executions/execution-types.ts';
import type { McpArtifactsApi } from './artifact-tools.ts';
import { downloadUrl, INLINE_BUDGET_BYTES, payloadBlock } from './artifact-blocks.ts';
import { artifactUri } from './artifact-resources.ts';

export interface RunArtifactEntry extends ArtifactMeta {
  readonly inline: boolean;
  readonly url: string;
  readonly note?: string;
}

export async function attachArtifacts(result: CallToolResult, emitted: readonly ArtifactMeta[], api: McpArtifactsApi): Promise<CallToolResult> {
  if (emitted.length === 0) return result;
  let budget = INLINE_BUDGET_BYTES;
  const entries: RunArtifactEntry[] = [];
  const blocks: ContentBlock[] = [];
  for (const meta of emitted) {
    const base = { ...meta, url: downloadUrl(meta.key, api.publicBaseUrl) };
    let block: ContentBlock | undefined;
    if (meta.size_bytes <= budget) {
      const found = await api.service.get(meta.key);
      // Overwritten since (another run, an upload): that is not what this run emitted.
      if (found !== undefined && found.meta.created_at === meta.created_at && found.meta.execution_id === meta.execution_id) {
        block = payloadBlock(found.meta, found.bytes).block;
        budget -= meta.size_bytes;
      }
    }
    if (block === undefined) {
      entries.push({ ...base, inline: false, note: api.tools ? 'not attached inline; fetch with get_artifact' : 'not attached inline; download it from url' });
    } else {
      entries.push({ ...base, inline: true });
      blocks.push(block);
    }
  }
  const links: ContentBlock[] = api.tools ? emitted.map((m) => ({
    type: 'resource_link', uri: artifactUri(m.key), name: m.key, mimeType: m.mime_type, size: m.size_bytes,
    description: `Artifact '${m.key}' as an MCP resource (resources/read)`,
  })) : [];
  const body = { ...(result.structuredContent ?? {}), artifacts: entries };
  return { ...result, content: [{ type: 'text', text: JSON.stringify(body) }, ...result.content.slice(1), ...blocks, ...links], structuredContent: body };
}
