// A session's files over REST: the snapshot its latest run produced, read by path, and native
// mutations that commit a new snapshot and append it to the session log (supervisor/fs/
// session-files.ts). `{path}` spans slashes (`/api/sessions/s/files/src/a.txt`).
import { RunjsError } from '../../shared/errors.ts';
import { checkSession } from '../heaps/index.ts';
import type { SessionFiles, SessionFsOp } from '../fs/session-files.ts';
import { readBody } from './read-body.ts';
import { readJsonBody } from './json-body.ts';
import { parseNonNegativeInt, singleValues } from './query-params.ts';
import type { ParameterDoc, RouteContext, RouteSpec } from './route-types.ts';

const SESSIONS = 'sessions';
const SESSION_PARAMETER: ParameterDoc = { name: 'session', in: 'path', required: true, description: 'Session name.', schema: { type: 'string' } };
const PATH_PARAMETER: ParameterDoc = { name: 'path', in: 'path', required: true, description: 'Path under /work (slashes allowed; `/work/` prefix optional).', schema: { type: 'string' } };
const BAD = { description: 'No filesystem store (`--fs-store`), a malformed session or path, or the wrong kind of entry.', schema: 'ApiError' } as const;
const NOT_FOUND = { description: 'No such file or directory in the session\'s latest snapshot.', schema: 'ApiError' } as const;
const MAX_OP_BODY = 64 * 1024;
const EMPTY_204 = (description: string) => ({ description, mediaType: 'text/plain', schema: { type: 'string', maxLength: 0 } }) as const;

function files(ctx: RouteContext): { files: SessionFiles; session: string } {
  const f = ctx.deps.sessionFiles;
  if (!f) throw new RunjsError('FS_SNAPSHOTS_NOT_ENABLED');
  return { files: f, session: checkSession(ctx.params['session'] ?? '') };
}

function flag(query: Map<string, string>, name: string): boolean {
  const v = query.get(name);
  if (v === undefined || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1' || v === '') return true;
  throw new RunjsError('SESSION_FS_OP_INVALID', `query parameter '${name}' must be true or false, got '${v}'`);
}

/** The `filesystem` policy (the input a run's fs call gets, /work paths) decides every route here. */
const FS_DENIED = {
  description: 'Denied by the `filesystem` policy (`fs.<operation> denied by policy: <path> is not allowed[: <reason>]`), or the Host header or Origin is not allowed (`--allowed-hosts`, `--allowed-origins`).',
  schema: 'ApiError',
} as const;

export const SESSION_FILE_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/api/sessions/{session}/dir/{path}',
    operationId: 'listSessionDir',
    tag: SESSIONS,
    summary: 'The names in a directory of the session\'s filesystem',
    parameters: [SESSION_PARAMETER, PATH_PARAMETER],
    responses: { 200: { description: 'Direct children, sorted.', schema: 'SessionDirListing' }, 400: BAD, 403: FS_DENIED, 404: NOT_FOUND },
    handle: async (ctx) => {
      const { files: f, session } = files(ctx);
      singleValues(ctx.query, []);
      return { status: 200, json: await f.dir(session, ctx.params['path'] ?? '') };
    },
  },
  {
    method: 'get',
    path: '/api/sessions/{session}/entries/{path}',
    operationId: 'statSessionEntry',
    tag: SESSIONS,
    summary: 'What a path of the session\'s filesystem is (stat / lstat)',
    parameters: [SESSION_PARAMETER, PATH_PARAMETER, { name: 'follow', in: 'query', description: 'Follow a final symlink (like stat); false is like lstat. Default true.', schema: { type: 'boolean' } }],
    responses: { 200: { description: 'The entry.', schema: 'SessionFileEntry' }, 400: BAD, 403: FS_DENIED, 404: NOT_FOUND },
    handle: async (ctx) => {
      const { files: f, session } = files(ctx);
      const q = singleValues(ctx.query, ['follow']);
      return { status: 200, json: await f.entry(session, ctx.params['path'] ?? '', q.has('follow') ? flag(q, 'follow') : true) };
    },
  },
  {
    method: 'get',
    path: '/api/sessions/{session}/files/{path}',
    operationId: 'readSessionFile',
    tag: SESSIONS,
    summary: 'A file of the session\'s filesystem',
    parameters: [SESSION_PARAMETER, PATH_PARAMETER,
      { name: 'offset', in: 'query', description: 'First byte to return.', schema: { type: 'integer', minimum: 0 } },
      { name: 'max_bytes', in: 'query', description: 'At most this many bytes (fewer only at the end of the file).', schema: { type: 'integer', minimum: 0 } }],
    responses: { 200: { description: 'The bytes.', mediaType: 'application/octet-stream', schema: { type: 'string', contentMediaType: 'application/octet-stream' } }, 400: BAD, 403: FS_DENIED, 404: NOT_FOUND },
    handle: async (ctx) => {
      const { files: f, session } = files(ctx);
      const q = singleValues(ctx.query, ['offset', 'max_bytes']);
      const offset = q.has('offset') ? parseNonNegativeInt('offset', q.get('offset')!) : 0;
      const max = q.has('max_bytes') ? parseNonNegativeInt('max_bytes', q.get('max_bytes')!) : undefined;
      return { status: 200, bytes: await f.read(session, ctx.params['path'] ?? '', offset, max), contentType: 'application/octet-stream' };
    },
  },
  {
    method: 'put',
    path: '/api/sessions/{session}/files/{path}',
    operationId: 'writeSessionFile',
    tag: SESSIONS,
    summary: 'Write (or append to) a file of the session\'s filesystem',
    description: 'Commits a new snapshot and appends it to the session log (`output_fs`). The raw body is the content.',
    parameters: [SESSION_PARAMETER, PATH_PARAMETER, { name: 'append', in: 'query', description: 'Append instead of replacing.', schema: { type: 'boolean' } }],
    requestBody: { required: false, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
    responses: { 204: EMPTY_204('Written; the new snapshot is the session log\'s latest `output_fs`.'), 400: BAD, 403: FS_DENIED },
    handle: async (ctx) => {
      const { files: f, session } = files(ctx);
      const q = singleValues(ctx.query, ['append']);
      const body = await readBody(ctx.req, ctx.deps.maxRequestBody);
      await f.write(session, ctx.params['path'] ?? '', new Uint8Array(body), flag(q, 'append'));
      return { status: 204, bytes: new Uint8Array(0), contentType: 'application/octet-stream' };
    },
  },
  {
    method: 'delete',
    path: '/api/sessions/{session}/files/{path}',
    operationId: 'deleteSessionFile',
    tag: SESSIONS,
    summary: 'Remove a file or directory of the session\'s filesystem',
    parameters: [SESSION_PARAMETER, PATH_PARAMETER, { name: 'recursive', in: 'query', description: 'Remove a non-empty directory.', schema: { type: 'boolean' } }],
    responses: { 204: EMPTY_204('Removed; the new snapshot is the session log\'s latest `output_fs`.'), 400: BAD, 403: FS_DENIED, 404: NOT_FOUND },
    handle: async (ctx) => {
      const { files: f, session } = files(ctx);
      const q = singleValues(ctx.query, ['recursive']);
      await f.remove(session, ctx.params['path'] ?? '', flag(q, 'recursive'));
      return { status: 204, bytes: new Uint8Array(0), contentType: 'application/octet-stream' };
    },
  },
  {
    method: 'post',
    path: '/api/sessions/{session}/fs',
    operationId: 'sessionFsOp',
    tag: SESSIONS,
    summary: 'mkdir, rename, exists, readlink or canonical on the session\'s filesystem',
    parameters: [SESSION_PARAMETER],
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/SessionFsOpRequest' } } } },
    responses: { 200: { description: '`exists`: `{exists}`; `readlink`: `{target}`; `canonical`: `{path}`; `mkdir`: `{path, created: false}` (directories exist through what they hold); `rename`: `{ca_id}`.', schema: 'SessionFsOpResult' }, 400: BAD, 403: FS_DENIED, 404: NOT_FOUND },
    handle: async (ctx) => {
      const { files: f, session } = files(ctx);
      return { status: 200, json: await f.op(session, await readJsonBody<SessionFsOp>(ctx, 'SessionFsOpRequest', MAX_OP_BODY)) };
    },
  },
];
