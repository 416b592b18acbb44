// Filesystem snapshot labels as MCP tools, listed when the server has a filesystem store:
// fs_ls, fs_pull, fs_label, fs_log, fs_push, fs_reset, fs_merge (REST: /api/fs/*). Thin over
// FsService; a push rejected because the label moved is a normal result (`status: rejected`,
// with the head to merge against), not a tool error.
import { z } from 'zod';
import type { FsService } from '../fs/index.ts';
import { defineTool, jsonResult, type ToolDef } from './tool-kit.ts';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const required = (what: string) => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).describe(what);
const caId = (what = 'Snapshot id (64 hex digits).') => required(what);
const label = (what = 'Label name.') => required(what);
const message = z.string().nullish().describe('Reflog message (at most 4096 bytes).');
const HEAD = z.object({ label: z.string(), ca_id: z.string() });
const ENTRY = z.object({ at: z.number(), from: z.string().nullable(), to: z.string(), op: z.enum(['create', 'push', 'reset']), message: z.string().optional() });
const CONFLICT = z.object({
  path: z.string(), kind: z.string(), base: z.string().nullable(), ours: z.string().nullable(), theirs: z.string().nullable(),
  markers: z.string().optional(), diff_ours: z.string().optional(), diff_theirs: z.string().optional(),
});

export function fsTools(fs: FsService): ToolDef[] {
  if (!fs.enabled) return [];
  return [
    defineTool({
      name: 'fs_ls',
      title: 'List filesystem labels',
      description: 'Every filesystem snapshot label with its head id, by name.',
      annotations: READ_ONLY,
      input: z.strictObject({}),
      output: z.object({ labels: z.array(z.object({ name: z.string(), ca_id: z.string() })) }),
      handle: () => jsonResult(fs.list()),
    }),
    defineTool({
      name: 'fs_pull',
      title: 'Resolve a filesystem label',
      description: 'The head id of a label: what you pass as `expected` when you push, and as `base` when you merge after a rejected push.',
      annotations: READ_ONLY,
      input: z.strictObject({ label: label() }),
      output: HEAD,
      handle: ({ label: l }) => jsonResult(fs.resolve(l)),
    }),
    defineTool({
      name: 'fs_label',
      title: 'Create or repoint a filesystem label',
      description: 'Points a label at a snapshot unconditionally (creating it if needed). To move a shared label safely use fs_push with `expected`.',
      annotations: { idempotentHint: true, openWorldHint: false },
      input: z.strictObject({ name: label(), ca_id: caId(), message }),
      output: HEAD,
      handle: async ({ name, ca_id, message: m }) => jsonResult(await fs.setLabel(name, ca_id, m)),
    }),
    defineTool({
      name: 'fs_log',
      title: 'Filesystem label reflog',
      description: 'Every move of a label, oldest first (`create`, `push`, `reset`), with the previous and new head. `limit` keeps the newest N.',
      annotations: READ_ONLY,
      input: z.strictObject({ label: label(), limit: z.int().min(0).optional().describe('Newest N entries only.') }),
      output: z.object({ label: z.string(), log: z.array(ENTRY) }),
      handle: ({ label: l, limit }) => jsonResult(fs.log(l, limit)),
    }),
    defineTool({
      name: 'fs_push',
      title: 'Push a snapshot to a label',
      description: 'Moves `label` to `ca_id` only if its head is still `expected` (the id you pulled; omit when creating the label). '
        + 'If someone pushed in between, the result is `{status: "rejected", current}`: merge with fs_merge (ours = your id, theirs = current, '
        + 'base = what you pulled) and push the merged id with expected = current. `force` moves it anyway; `detach` moves no label.',
      annotations: { openWorldHint: false },
      input: z.strictObject({
        ca_id: caId(), label: z.string().nullish(), expected: z.string().nullish(),
        force: z.boolean().nullish(), detach: z.boolean().nullish(), message,
      }),
      output: z.object({ status: z.enum(['advanced', 'rejected', 'detached']), label: z.string().optional(), ca_id: z.string().optional(), current: z.string().nullable().optional() }),
      handle: async (args) => jsonResult(await fs.push(args)),
    }),
    defineTool({
      name: 'fs_reset',
      title: 'Reset a filesystem label',
      description: 'Moves a label back to an id from its reflog (fs_log); `allow_unlogged` allows any stored snapshot.',
      annotations: { destructiveHint: true, openWorldHint: false },
      input: z.strictObject({ label: label(), ca_id: caId(), allow_unlogged: z.boolean().nullish(), message }),
      output: HEAD,
      handle: async (args) => jsonResult(await fs.reset(args)),
    }),
    defineTool({
      name: 'fs_merge',
      title: 'Merge filesystem snapshots',
      description: 'Merges `theirs` into `ours` (3-way with `base`, else 2-way). Text files merge line by line; a clean merge returns '
        + '`{status: "merged", ca_id}` (no label moves: push it). Otherwise `{status: "conflict", conflicts}`, each with `path` and `kind` '
        + '(text, binary, sqlite, modify/delete, type, symlink) and, for text, diff3 `markers` and unified diffs. '
        + '`prefer` (`ours` or `theirs`) resolves every conflict to that side.',
      annotations: { idempotentHint: true, openWorldHint: false },
      input: z.strictObject({ ours: caId(), theirs: caId(), base: z.string().nullish(), prefer: z.string().nullish() }),
      output: z.object({ status: z.enum(['merged', 'conflict']), ca_id: z.string().optional(), conflicts: z.array(CONFLICT).optional() }),
      handle: async (args) => jsonResult(await fs.merge(args)),
    }),
  ];
}
