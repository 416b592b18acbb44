// Heap tags and the session log as MCP tools: get_heap_tags, set_heap_tags, delete_heap_tags,
// query_heaps_by_tags (listed when the server has a heap store), list_sessions and
// list_session_snapshots (listed in every stateful server, as the spec's stateful tool set has
// them; without a store they answer "sessions are not configured"). Session tools default to the caller's session (X-MCP-Session-Id at
// initialize, else --session-id) and accept a named one.
import { z } from 'zod';
import type { HeapService } from '../heaps/index.ts';
import { defineTool, jsonResult, type ToolDef } from './tool-kit.ts';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const heapKey = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .describe('Heap snapshot key (the `heap` of a completed execution).');
const tagMap = z.record(z.string(), z.string('tag values must be strings'));
const TAGS_OUTPUT = z.object({ heap: z.string(), tags: tagMap });
const ENTRY = z.object({
  index: z.int(), code: z.string(), input_heap: z.string().nullable(), output_heap: z.string().nullable(),
  output_fs: z.string().nullable(), timestamp: z.string(),
});
const SNAPSHOT_FIELDS = ['index', 'code', 'input_heap', 'output_heap', 'output_fs', 'timestamp'] as const;

export function heapTools(heaps: HeapService, sessionName: () => string | undefined): ToolDef[] {
  return heaps.enabled ? [...tagTools(heaps), ...sessionTools(heaps, sessionName)] : sessionTools(heaps, sessionName);
}

function tagTools(heaps: HeapService): ToolDef[] {
  return [
    defineTool({
      name: 'get_heap_tags',
      title: 'Get heap tags',
      description: 'The tags of a heap snapshot ({} when it has none).',
      annotations: READ_ONLY,
      input: z.strictObject({ heap: heapKey }),
      output: TAGS_OUTPUT,
      handle: ({ heap }) => jsonResult({ heap, tags: heaps.getTags(heap) }),
    }),
    defineTool({
      name: 'set_heap_tags',
      title: 'Set heap tags',
      description: 'Replace all tags of a heap snapshot (string names to string values; {} clears them). '
        + 'Tags also come from run_js `tags`, attached to the heap the run produces.',
      annotations: { idempotentHint: true, openWorldHint: false },
      input: z.strictObject({ heap: heapKey, tags: tagMap.describe('The new tags; they replace the old ones.') }),
      output: TAGS_OUTPUT,
      handle: ({ heap, tags }) => jsonResult({ heap, tags: heaps.setTags(heap, tags) }),
    }),
    defineTool({
      name: 'delete_heap_tags',
      title: 'Delete heap tags',
      description: 'Delete the named tags of a heap snapshot, or all of them when `keys` is omitted. Returns the tags left.',
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      input: z.strictObject({
        heap: heapKey,
        keys: z.union([z.array(z.string()), z.string()]).optional().describe('Tag names: an array, or one comma-separated string.'),
      }),
      output: TAGS_OUTPUT,
      handle: ({ heap, keys }) => {
        const names = keys === undefined ? undefined : (Array.isArray(keys) ? keys : keys.split(',')).map((k) => k.trim()).filter((k) => k !== '');
        return jsonResult({ heap, tags: heaps.deleteTags(heap, names) });
      },
    }),
    defineTool({
      name: 'query_heaps_by_tags',
      title: 'Find heaps by tags',
      description: 'Heap snapshots whose tags include every given pair with an equal value (case-sensitive), with all their tags. '
        + '{} lists every tagged heap.',
      annotations: READ_ONLY,
      input: z.strictObject({ tags: tagMap.describe('Pairs that must all match.') }),
      output: z.object({ results: z.array(TAGS_OUTPUT) }),
      handle: ({ tags }) => jsonResult({ results: heaps.queryByTags(tags) }),
    }),
  ];
}

function sessionTools(heaps: HeapService, sessionName: () => string | undefined): ToolDef[] {
  return [
    defineTool({
      name: 'list_sessions',
      title: 'List sessions',
      description: 'Sessions that have a session log (at least one completed run), sorted by name.',
      annotations: READ_ONLY,
      input: z.strictObject({}),
      output: z.object({ sessions: z.array(z.string()) }),
      handle: () => jsonResult({ sessions: heaps.sessions() }),
    }),
    defineTool({
      name: 'list_session_snapshots',
      title: 'List session snapshots',
      description: 'The session log, oldest first: one entry per completed run with its code, the heap it started from '
        + '(input_heap) and the heap it produced (output_heap). Your own session unless `session` names another. '
        + 'Pass an output_heap as run_js `heap` to go back to that point.',
      annotations: READ_ONLY,
      input: z.strictObject({
        session: z.string().optional().describe('Session to list (default: this connection\'s session).'),
        fields: z.string().optional().describe(`Comma-separated subset of ${SNAPSHOT_FIELDS.join(', ')} (default all).`),
      }),
      output: z.object({ session: z.string(), entries: z.array(ENTRY.partial()) }),
      handle: ({ session, fields }) => {
        const name = session ?? sessionName();
        const entries = heaps.snapshots(name);
        const wanted = fields === undefined ? undefined : new Set(fields.split(',').map((f) => f.trim()));
        return jsonResult({
          session: name!,
          entries: wanted === undefined ? entries : entries.map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => wanted.has(k)))),
        });
      },
    }),
  ];
}
