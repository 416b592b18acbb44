// Filesystem snapshot labels over REST (MCP: fs_ls, fs_pull, fs_label, fs_log, fs_push,
// fs_reset, fs_merge). Routes are always mounted; without --fs-store they answer 400 with the
// "not configured" text. Each handler parses, calls one FsService method and maps the result.
import { RunjsError } from '../../shared/errors.ts';
import type { FsService } from '../fs/index.ts';
import { readJsonBody } from './json-body.ts';
import { parseNonNegativeInt, singleValues } from './query-params.ts';
import type { ParameterDoc, RouteContext, RouteSpec } from './route-types.ts';
import type { SchemaName } from '../../shared/schemas/index.ts';

const FS = 'fs';
/** Label bodies are small: ids, a name and a message of at most 4 KiB. */
const MAX_FS_BODY = 64 * 1024;

const LABEL_PARAMETER: ParameterDoc = { name: 'label', in: 'path', required: true, description: 'Label name.', schema: { type: 'string' } };
const NOT_CONFIGURED = 'or no filesystem store (`--fs-store`).';
const DENIED = {
  description: 'Denied by the `fs_snapshot` policy (`fs_snapshot <op> denied by policy (label=…, ca_id=…)`), or the Host header or Origin is not allowed (`--allowed-hosts`, `--allowed-origins`).',
  schema: 'ApiError',
} as const;

function fs(ctx: RouteContext, what: 'labels' | 'snapshots' = 'labels'): FsService {
  const f = ctx.deps.fs;
  if (!f?.enabled) throw new RunjsError(what === 'labels' ? 'FS_LABELS_NOT_ENABLED' : 'FS_SNAPSHOTS_NOT_ENABLED');
  return f;
}


const body = (schema: SchemaName) => ({ required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } });
const bad = (what: string) => ({ description: `${what}, ${NOT_CONFIGURED}`, schema: 'ApiError' } as const);

/** A blank body names the schema it should have been. */
const fsBodyEmpty = (schema: SchemaName) => (): RunjsError => new RunjsError('INVALID_BODY', `the body is empty: send a JSON ${schema}`);

export const FS_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/api/fs/labels',
    operationId: 'listFsLabels',
    tag: FS,
    summary: 'Labels and their heads',
    responses: { 200: { description: 'Every label, by name.', schema: 'FsLabelList' }, 400: { description: `No labels: ${NOT_CONFIGURED}`, schema: 'ApiError' } },
    handle: (ctx) => ({ status: 200, json: fs(ctx).list() }),
  },
  {
    method: 'post',
    path: '/api/fs/labels',
    operationId: 'setFsLabel',
    tag: FS,
    summary: 'Create or repoint a label',
    description: 'Moves the label unconditionally (reflog `create` when new, else `reset`). `ca_id` must name a stored snapshot. '
      + 'For a move that must not lose someone else\'s push, use `POST /api/fs/push` with `expected`.',
    requestBody: body('FsLabelRequest'),
    responses: { 200: { description: 'The label and its new head.', schema: 'FsLabelHead' }, 400: bad('Malformed name, id or message, or an id that is not a stored snapshot'), 403: DENIED },
    async handle(ctx) {
      const f = fs(ctx);
      const b = await readJsonBody<{ name: string; ca_id: string; message?: string | null }>(ctx, 'FsLabelRequest', MAX_FS_BODY, fsBodyEmpty('FsLabelRequest'));
      return { status: 200, json: await f.setLabel(b.name, b.ca_id, b.message) };
    },
  },
  {
    method: 'get',
    path: '/api/fs/labels/{label}',
    operationId: 'getFsLabel',
    tag: FS,
    summary: 'The head of a label',
    parameters: [LABEL_PARAMETER],
    responses: {
      200: { description: 'The label and its head.', schema: 'FsLabelHead' },
      400: bad('Malformed label name'),
      404: { description: 'Unknown label: `unknown label: <label>`.', schema: 'ApiError' },
    },
    handle: (ctx) => ({ status: 200, json: fs(ctx).resolve(ctx.params['label'] ?? '') }),
  },
  {
    method: 'get',
    path: '/api/fs/labels/{label}/log',
    operationId: 'getFsLabelLog',
    tag: FS,
    summary: 'The reflog of a label, oldest first',
    description: 'An unknown label has an empty log.',
    parameters: [LABEL_PARAMETER, {
      name: 'limit', in: 'query', description: 'Only the newest N entries (still oldest first); omit for all.', schema: { type: 'integer', minimum: 0 },
    }],
    responses: { 200: { description: 'The entries.', schema: 'FsReflog' }, 400: bad('Malformed label name or `limit`') },
    handle: (ctx) => {
      const f = fs(ctx);
      const raw = singleValues(ctx.query, ['limit']).get('limit');
      return { status: 200, json: f.log(ctx.params['label'] ?? '', raw === undefined ? undefined : parseNonNegativeInt('limit', raw)) };
    },
  },
  {
    method: 'post',
    path: '/api/fs/push',
    operationId: 'pushFs',
    tag: FS,
    summary: 'Advance a label (compare-and-set)',
    description: 'Moves `label` to `ca_id` only if its head is still `expected` (omitted: the label must not exist). '
      + 'When someone pushed in between the answer is 409 with the head found: pull it, merge (`POST /api/fs/merge` with it as '
      + '`theirs` and what you pulled as `base`) and push the result with the new `expected`. `force` skips the check; `detach` moves no label.',
    requestBody: body('FsPushRequest'),
    responses: {
      200: { description: '`advanced` (label moved) or `detached`.', schema: 'FsPushResult' },
      400: bad('Malformed id, label, `expected` or message; no label without `detach`; an id that is not a stored snapshot'),
      403: DENIED,
      409: { description: '`rejected`: the label moved since the caller pulled; `current` is its head now.', schema: 'FsPushResult' },
    },
    async handle(ctx) {
      const f = fs(ctx);
      const r = await f.push(await readJsonBody(ctx, 'FsPushRequest', MAX_FS_BODY, fsBodyEmpty('FsPushRequest')));
      return { status: r.status === 'rejected' ? 409 : 200, json: r };
    },
  },
  {
    method: 'post',
    path: '/api/fs/reset',
    operationId: 'resetFs',
    tag: FS,
    summary: 'Move a label back to an id from its reflog',
    description: 'The id must appear in the label\'s reflog (as `to` or `from`) unless `allow_unlogged` is true. Recorded as `reset`.',
    requestBody: body('FsResetRequest'),
    responses: { 200: { description: 'The label and its new head.', schema: 'FsLabelHead' }, 400: bad('Malformed label, id or message; an id not in the reflog without `allow_unlogged`'), 403: DENIED },
    async handle(ctx) {
      const f = fs(ctx);
      return { status: 200, json: await f.reset(await readJsonBody(ctx, 'FsResetRequest', MAX_FS_BODY, fsBodyEmpty('FsResetRequest'))) };
    },
  },
  {
    method: 'post',
    path: '/api/fs/merge',
    operationId: 'mergeFs',
    tag: FS,
    summary: 'Merge two snapshots (2-way, or 3-way with a base)',
    description: 'Text files merge at line level; other divergent paths are conflicts with a `kind`. A clean merge stores the result and returns its id; '
      + 'no label moves. With conflicts nothing is stored.',
    requestBody: body('FsMergeRequest'),
    responses: { 200: { description: '`merged` with `ca_id`, or `conflict` with `conflicts`.', schema: 'FsMergeResult' }, 400: bad('Malformed or unknown id, or a bad `prefer`'), 403: DENIED },
    async handle(ctx) {
      const f = fs(ctx, 'snapshots');
      return { status: 200, json: await f.merge(await readJsonBody(ctx, 'FsMergeRequest', MAX_FS_BODY, fsBodyEmpty('FsMergeRequest'))) };
    },
  },
  {
    method: 'post',
    path: '/api/fs/gc',
    operationId: 'collectFsGarbage',
    tag: FS,
    summary: 'Garbage-collect the filesystem store (mark and sweep)',
    description: 'Deletes objects no label, reflog entry or session log reaches and that nobody wrote or used within `grace_secs` '
      + '(default 3600). Safe while other requests write (docs/filesystem.md#garbage-collection). Send `{}` for the defaults. '
      + 'Decided by the `fs_snapshot` policy with `{op: "gc", label: null, ca_id: null}`.',
    requestBody: body('FsGcRequest'),
    responses: {
      200: { description: 'What was kept and deleted.', schema: 'FsGcReport' },
      400: bad('Malformed body; a blob directory shared with another store; a collection already running'),
      403: DENIED,
    },
    async handle(ctx) {
      const f = fs(ctx);
      return { status: 200, json: await f.gc(await readJsonBody(ctx, 'FsGcRequest', MAX_FS_BODY, fsBodyEmpty('FsGcRequest'))) };
    },
  },
];
