// Heap tags and the session log over REST (MCP: get_heap_tags, set_heap_tags, delete_heap_tags,
// query_heaps_by_tags, list_sessions, list_session_snapshots). Without a heap store every route
// answers 400 with the flag that enables it.
import { RunjsError } from '../../shared/errors.ts';
import type { HeapService } from '../heaps/index.ts';
import { readJsonBody } from './json-body.ts';
import { singleValues } from './query-params.ts';
import type { ParameterDoc, RouteContext, RouteSpec } from './route-types.ts';

const HEAPS = 'heaps';
const SESSIONS = 'sessions';
/** Tag bodies are small: 64 tags of at most ~1 KiB. */
const MAX_TAG_BODY = 256 * 1024;

const HEAP_PARAMETER: ParameterDoc = { name: 'heap', in: 'path', required: true, description: 'Heap snapshot key (as returned in `heap`).', schema: { type: 'string' } };
const SESSION_PARAMETER: ParameterDoc = { name: 'session', in: 'path', required: true, description: 'Session name (REST `session`, or the MCP `X-MCP-Session-Id`).', schema: { type: 'string' } };
const BAD_HEAP = { description: 'Malformed heap key or tags, or no heap store (`--heap-store`).', schema: 'ApiError' } as const;

function heaps(ctx: RouteContext): HeapService {
  const h = ctx.deps.heaps;
  if (!h) throw new RunjsError('HEAP_NOT_ENABLED');
  return h;
}


export const HEAP_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/api/heaps/{heap}/tags',
    operationId: 'getHeapTags',
    tag: HEAPS,
    summary: 'Tags of a heap',
    description: 'A heap without tags (or unknown to this server) has `{}`.',
    parameters: [HEAP_PARAMETER],
    responses: { 200: { description: 'The tags.', schema: 'HeapTags' }, 400: BAD_HEAP },
    handle: (ctx) => {
      const heap = ctx.params['heap'] ?? '';
      return { status: 200, json: { heap, tags: heaps(ctx).getTags(heap) } };
    },
  },
  {
    method: 'put',
    path: '/api/heaps/{heap}/tags',
    operationId: 'setHeapTags',
    tag: HEAPS,
    summary: 'Replace the tags of a heap',
    parameters: [HEAP_PARAMETER],
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/HeapTagsRequest' } } } },
    responses: { 200: { description: 'The tags now set.', schema: 'HeapTags' }, 400: BAD_HEAP },
    async handle(ctx) {
      const heap = ctx.params['heap'] ?? '';
      const h = heaps(ctx);
      const body = await readJsonBody<{ tags: Record<string, string> }>(ctx, 'HeapTagsRequest', MAX_TAG_BODY, () => new RunjsError('TAGS_BODY_EMPTY'));
      return { status: 200, json: { heap, tags: h.setTags(heap, body.tags) } };
    },
  },
  {
    method: 'delete',
    path: '/api/heaps/{heap}/tags',
    operationId: 'deleteHeapTags',
    tag: HEAPS,
    summary: 'Delete some or all tags of a heap',
    parameters: [HEAP_PARAMETER, {
      name: 'keys', in: 'query', description: 'Comma-separated tag names to delete (trimmed); omitted deletes all.', schema: { type: 'string' },
    }],
    responses: { 200: { description: 'The tags left.', schema: 'HeapTags' }, 400: BAD_HEAP },
    handle: (ctx) => {
      const heap = ctx.params['heap'] ?? '';
      const keys = singleValues(ctx.query, ['keys']).get('keys');
      const names = keys === undefined ? undefined : keys.split(',').map((k) => k.trim()).filter((k) => k !== '');
      return { status: 200, json: { heap, tags: heaps(ctx).deleteTags(heap, names) } };
    },
  },
  {
    method: 'post',
    path: '/api/heaps/query',
    operationId: 'queryHeapsByTags',
    tag: HEAPS,
    summary: 'Find heaps by tags',
    description: 'A heap matches when every given pair is present with an equal value (case-sensitive). `{"tags": {}}` lists every tagged heap.',
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/HeapQueryRequest' } } } },
    responses: { 200: { description: 'The matching heaps.', schema: 'HeapQueryResult' }, 400: BAD_HEAP },
    async handle(ctx) {
      const h = heaps(ctx);
      const body = await readJsonBody<{ tags: Record<string, string> }>(ctx, 'HeapQueryRequest', MAX_TAG_BODY, () => new RunjsError('TAGS_BODY_EMPTY'));
      return { status: 200, json: { results: h.queryByTags(body.tags) } };
    },
  },
  {
    method: 'get',
    path: '/api/sessions',
    operationId: 'listSessions',
    tag: SESSIONS,
    summary: 'Sessions with a session log',
    responses: { 200: { description: 'The session names.', schema: 'SessionList' }, 400: { description: 'Sessions are not configured (no `--heap-store`).', schema: 'ApiError' } },
    handle: (ctx) => {
      if (!ctx.deps.heaps) throw new RunjsError('SESSIONS_NOT_ENABLED');
      return { status: 200, json: { sessions: ctx.deps.heaps.sessions() } };
    },
  },
  {
    method: 'get',
    path: '/api/sessions/{session}/snapshots',
    operationId: 'listSessionSnapshots',
    tag: SESSIONS,
    summary: 'The session log, oldest first',
    description: 'One entry per completed run in the session, with the heap it started from and the heap it produced. An unknown session has `[]`.',
    parameters: [SESSION_PARAMETER],
    responses: { 200: { description: 'The entries, oldest first.', schema: 'SessionSnapshotList' }, 400: { description: 'Sessions are not configured (no `--heap-store`), or a malformed session name.', schema: 'ApiError' } },
    handle: (ctx) => {
      if (!ctx.deps.heaps) throw new RunjsError('SESSIONS_NOT_ENABLED');
      return { status: 200, json: ctx.deps.heaps.snapshots(ctx.params['session'] ?? '') };
    },
  },
];
