// Filesystem snapshot label resources (interface spec: "Filesystem snapshot requests"; response
// bodies are "not shown" there, so they follow mcp-v8's shapes). Ids and label names are checked
// by the service, not by patterns here, so each gets its exact error text.
import { ref, type JsonSchema } from './json-schema.ts';

const CA_ID: JsonSchema = { type: 'string', description: 'Snapshot content-address id: 64 hex digits (either case; answered in lowercase).' };
const LABEL: JsonSchema = {
  type: 'string',
  description: 'Label name: 1-128 letters, digits, `.`, `_`, `-`, `+` or `@`, starting with a letter or digit, and not 64 hex digits.',
};
const MESSAGE: JsonSchema = { type: ['string', 'null'], description: 'Reflog message (at most 4096 bytes of UTF-8).' };
const NULLABLE_BOOL: JsonSchema = { type: ['boolean', 'null'] };

export const FsLabelRequest: JsonSchema = {
  type: 'object',
  required: ['name', 'ca_id'],
  additionalProperties: false,
  properties: { name: LABEL, ca_id: CA_ID, message: MESSAGE },
};

export const FsPushRequest: JsonSchema = {
  type: 'object',
  required: ['ca_id'],
  additionalProperties: false,
  properties: {
    ca_id: CA_ID,
    label: { type: ['string', 'null'], description: 'Label to advance; omit only with `detach`.' },
    expected: { type: ['string', 'null'], description: 'The head the caller pulled; omitted means "the label must not exist yet". Ignored with `force`.' },
    force: { ...NULLABLE_BOOL, description: 'Move the label whatever its head (reflog op `reset`).' },
    detach: { ...NULLABLE_BOOL, description: 'Touch no label; echo the id (after checking it names a stored snapshot).' },
    message: MESSAGE,
  },
};

export const FsResetRequest: JsonSchema = {
  type: 'object',
  required: ['label', 'ca_id'],
  additionalProperties: false,
  properties: {
    label: LABEL, ca_id: CA_ID,
    allow_unlogged: { ...NULLABLE_BOOL, description: 'Reset to an id that is not in the label\'s reflog.' },
    message: MESSAGE,
  },
};

export const FsGcRequest: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    grace_secs: { type: 'integer', minimum: 0, maximum: 31536000, description: 'Keep unreachable objects written or used within this many seconds (default 3600).' },
    dry_run: { type: ['boolean', 'null'], description: 'Count what would be deleted; delete nothing.' },
  },
};

export const FsGcReport: JsonSchema = {
  type: 'object',
  required: ['dry_run', 'grace_secs', 'cutoff', 'roots', 'reachable', 'scanned', 'kept_recent', 'deleted', 'deleted_bytes', 'missing'],
  additionalProperties: false,
  properties: {
    dry_run: { type: 'boolean' },
    grace_secs: { type: 'integer' },
    cutoff: { type: 'string', description: 'ISO 8601: unreachable objects last written before it were deleted.' },
    roots: { type: 'integer', description: 'Label heads, reflog ids, session log snapshots and pinned ids.' },
    reachable: { type: 'integer', description: 'Objects reachable from the roots.' },
    scanned: { type: 'integer', description: 'Objects the store held when listed.' },
    kept_recent: { type: 'integer', description: 'Unreachable objects kept because they were written or re-used after the cutoff.' },
    deleted: { type: 'integer' },
    deleted_bytes: { type: 'integer' },
    missing: { type: 'integer', description: 'Referenced trees that were not in the store (the server log names them).' },
  },
};

export const FsMergeRequest: JsonSchema = {
  type: 'object',
  required: ['ours', 'theirs'],
  additionalProperties: false,
  properties: {
    ours: CA_ID, theirs: CA_ID,
    base: { type: ['string', 'null'], description: 'Common ancestor id; omit for a 2-way merge.' },
    prefer: { type: ['string', 'null'], description: '`ours` or `theirs` resolves every divergent path to that side; omitted, empty or `none` reports conflicts.' },
  },
};

export const FsLabelHead: JsonSchema = {
  type: 'object',
  required: ['label', 'ca_id'],
  properties: { label: LABEL, ca_id: CA_ID },
};

export const FsLabelList: JsonSchema = {
  type: 'object',
  required: ['labels'],
  properties: {
    labels: {
      type: 'array', description: 'Every label, ordered by name (byte order).',
      items: { type: 'object', required: ['name', 'ca_id'], properties: { name: LABEL, ca_id: CA_ID } },
    },
  },
};

export const FsReflogEntry: JsonSchema = {
  type: 'object',
  required: ['at', 'from', 'to', 'op'],
  properties: {
    at: { type: 'integer', description: 'Unix milliseconds.' },
    from: { type: ['string', 'null'], description: 'The previous head; null when the label was created.' },
    to: CA_ID,
    op: { type: 'string', enum: ['create', 'push', 'reset'], description: '`create`, `push` (compare-and-set), or `reset` (reset, forced push, repoint).' },
    message: { type: 'string', description: 'Present when the move had one.' },
  },
};

export const FsReflog: JsonSchema = {
  type: 'object',
  required: ['label', 'log'],
  properties: { label: LABEL, log: { type: 'array', items: ref('FsReflogEntry'), description: 'Oldest first.' } },
};

export const FsPushResult: JsonSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['advanced', 'rejected', 'detached'] },
    label: LABEL,
    ca_id: CA_ID,
    current: { type: ['string', 'null'], description: '`rejected` only: the head found instead of `expected` (null: no such label).' },
  },
};

export const FsMergeConflict: JsonSchema = {
  type: 'object',
  required: ['path', 'kind', 'base', 'ours', 'theirs'],
  properties: {
    path: { type: 'string', description: 'Relative to the snapshot root, no leading slash.' },
    kind: { type: 'string', enum: ['text', 'binary', 'sqlite', 'modify/delete', 'type', 'symlink'] },
    base: { type: ['string', 'null'], description: 'Content id of the file (or tree id of a directory) on that side; null when absent or a symlink.' },
    ours: { type: ['string', 'null'] },
    theirs: { type: ['string', 'null'] },
    markers: { type: 'string', description: 'Text conflicts: the file with diff3 conflict markers, as `git merge-file --diff3` writes it.' },
    diff_ours: { type: 'string', description: 'Text conflicts: unified diff from the base to ours.' },
    diff_theirs: { type: 'string', description: 'Text conflicts: unified diff from the base to theirs.' },
  },
};

export const FsMergeResult: JsonSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['merged', 'conflict'] },
    ca_id: { ...CA_ID, description: '`merged`: the merged snapshot (no label moved).' },
    conflicts: { type: 'array', items: ref('FsMergeConflict'), description: '`conflict`: every conflicting path; no snapshot was stored.' },
  },
};
