// A session's files as MCP tools (REST: /api/sessions/{s}/dir|entries|files/{path}, POST
// /api/sessions/{s}/fs): fs_list_dir, fs_stat, fs_read_file, fs_write_file, fs_delete, fs_session_op.
// They act on the snapshot the session's latest run produced; writes commit a new snapshot and
// append it to the session log, so the session's next run sees them. Listed with a filesystem store.
import { z } from 'zod';
import { RunjsError } from '../../shared/errors.ts';
import { checkSession } from '../heaps/index.ts';
import type { SessionFiles } from '../fs/session-files.ts';
import { defineTool, jsonResult, type ToolDef } from './tool-kit.ts';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const session = z.string().optional().describe('Session (default: this connection\'s session).');
const path = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).describe('Path under /work (`/work/` prefix optional).');

export function sessionFileTools(files: SessionFiles | undefined, sessionName: () => string | undefined): ToolDef[] {
  if (files === undefined) return [];
  const name = (s: string | undefined): string => {
    const n = s ?? sessionName();
    if (n === undefined) throw new RunjsError('NO_SESSION');
    return checkSession(n);
  };
  return [
    defineTool({
      name: 'fs_list_dir',
      title: 'List a directory of the session\'s files',
      description: 'The names in a directory of /work as the session\'s latest run left it.',
      annotations: READ_ONLY,
      input: z.strictObject({ path, session }),
      output: z.object({ names: z.array(z.string()) }),
      handle: async (a) => jsonResult(await files.dir(name(a.session), a.path)),
    }),
    defineTool({
      name: 'fs_stat',
      title: 'Stat a path of the session\'s files',
      description: 'Kind, mode (with type bits) and size of a path; `follow: false` describes a symlink itself.',
      annotations: READ_ONLY,
      input: z.strictObject({ path, follow: z.boolean().optional(), session }),
      output: z.object({ kind: z.string(), mode: z.number(), readonly: z.boolean(), size: z.number(), modified_ms: z.number().nullable() }),
      handle: async (a) => jsonResult(await files.entry(name(a.session), a.path, a.follow !== false)),
    }),
    defineTool({
      name: 'fs_read_file',
      title: 'Read a file of the session\'s files',
      description: 'A file\'s content: UTF-8 text, or base64 (`encoding: "base64"`) when it is not valid UTF-8. `offset`/`max_bytes` read a range.',
      annotations: READ_ONLY,
      input: z.strictObject({ path, offset: z.int().min(0).optional(), max_bytes: z.int().min(0).optional(), session }),
      output: z.object({ content: z.string(), encoding: z.enum(['utf8', 'base64']), size: z.number() }),
      handle: async (a) => {
        const bytes = await files.read(name(a.session), a.path, a.offset ?? 0, a.max_bytes);
        let text: string | undefined;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch { /* binary */ }
        return jsonResult(text !== undefined ? { content: text, encoding: 'utf8' as const, size: bytes.length } : { content: Buffer.from(bytes).toString('base64'), encoding: 'base64' as const, size: bytes.length });
      },
    }),
    defineTool({
      name: 'fs_write_file',
      title: 'Write a file of the session\'s files',
      description: 'Writes (or appends to) a file; the new snapshot is appended to the session log and the session\'s next run sees it.',
      annotations: { openWorldHint: false },
      input: z.strictObject({ path, content: z.string(), encoding: z.enum(['utf8', 'base64']).optional(), append: z.boolean().optional(), session }),
      output: z.object({ ca_id: z.string() }),
      handle: async (a) => {
        const bytes = a.encoding === 'base64' ? Buffer.from(a.content, 'base64') : Buffer.from(a.content, 'utf8');
        return jsonResult({ ca_id: await files.write(name(a.session), a.path, new Uint8Array(bytes), a.append === true) });
      },
    }),
    defineTool({
      name: 'fs_delete',
      title: 'Delete a path of the session\'s files',
      description: 'Removes a file, symlink or (with `recursive`) a directory; the new snapshot is appended to the session log.',
      annotations: { destructiveHint: true, openWorldHint: false },
      input: z.strictObject({ path, recursive: z.boolean().optional(), session }),
      output: z.object({ ca_id: z.string() }),
      handle: async (a) => jsonResult({ ca_id: await files.remove(name(a.session), a.path, a.recursive === true) }),
    }),
    defineTool({
      name: 'fs_session_op',
      title: 'mkdir, rename, exists, readlink or canonical on the session\'s files',
      description: '`exists` → {exists}; `readlink` → {target}; `canonical` → {path}; `mkdir` → {path, created: false} (directories exist through what they hold); `rename` (with `to`) → {ca_id}.',
      annotations: { openWorldHint: false },
      input: z.strictObject({ op: z.enum(['mkdir', 'rename', 'exists', 'readlink', 'canonical']), path, recursive: z.boolean().nullish(), to: z.string().nullish(), session }),
      output: z.object({ exists: z.boolean().optional(), target: z.string().optional(), path: z.string().optional(), created: z.boolean().optional(), ca_id: z.string().nullable().optional() }),
      handle: async ({ session: s, ...req }) => jsonResult(await files.op(name(s), req)),
    }),
  ];
}
