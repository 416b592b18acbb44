// Heap tag and session-log resources (interface spec: "SessionSnapshotEntry"; heap tag bodies are
// "not shown" there, so these mirror the MCP tools' shapes).
import { ref, type JsonSchema } from './json-schema.ts';

const HEAP_KEY: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Heap snapshot key (64 lowercase hex characters).' };

export const TagMap: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: 1024 },
  maxProperties: 64,
  propertyNames: { minLength: 1, maxLength: 128 },
  description: 'Tags: string names (1-128 characters) to string values (up to 1024 characters), at most 64.',
};

export const HeapTags: JsonSchema = {
  type: 'object',
  required: ['heap', 'tags'],
  properties: { heap: HEAP_KEY, tags: ref('TagMap') },
};

export const HeapTagsRequest: JsonSchema = {
  type: 'object',
  required: ['tags'],
  additionalProperties: false,
  properties: { tags: ref('TagMap', 'The new tags; they replace all of the heap\'s tags (an empty object clears them).') },
};

export const HeapQueryRequest: JsonSchema = {
  type: 'object',
  required: ['tags'],
  additionalProperties: false,
  properties: { tags: ref('TagMap', 'Every pair must be present with an equal value (case-sensitive); empty matches every tagged heap.') },
};

export const HeapQueryResult: JsonSchema = {
  type: 'object',
  required: ['results'],
  properties: { results: { type: 'array', items: ref('HeapTags'), description: 'Matching heaps ordered by key, with all their tags.' } },
};

export const SessionSnapshotEntry: JsonSchema = {
  type: 'object',
  required: ['index', 'code', 'input_heap', 'output_heap', 'output_fs', 'timestamp'],
  properties: {
    index: { type: 'integer', format: 'int64', minimum: 0, description: '0-based position in the session.' },
    code: { type: 'string', description: 'The code that ran (as submitted).' },
    input_heap: { type: ['string', 'null'], description: 'Heap the run started from; null for a fresh start.' },
    output_heap: { type: ['string', 'null'], description: 'Heap the run produced; null on a server without a heap store (filesystem persistence alone).' },
    output_fs: { type: ['string', 'null'], description: 'Filesystem snapshot the run produced (its /work); null without a filesystem store.' },
    timestamp: { type: 'string', format: 'date-time', description: 'When the run completed.' },
  },
};

export const SessionSnapshotList: JsonSchema = { type: 'array', items: ref('SessionSnapshotEntry') };

export const SessionList: JsonSchema = {
  type: 'object',
  required: ['sessions'],
  properties: { sessions: { type: 'array', items: { type: 'string' }, description: 'Sessions with at least one snapshot, sorted.' } },
};

export const SessionDirListing: JsonSchema = {
  type: 'object',
  required: ['names'],
  properties: { names: { type: 'array', items: { type: 'string' }, description: 'Direct children, sorted.' } },
};

export const SessionFileEntry: JsonSchema = {
  type: 'object',
  required: ['kind', 'mode', 'readonly', 'size', 'modified_ms'],
  properties: {
    kind: { type: 'string', enum: ['file', 'directory', 'symlink', 'other'] },
    mode: { type: 'integer', description: 'Unix mode bits including the type bits.' },
    readonly: { type: 'boolean' },
    size: { type: 'integer', format: 'int64' },
    modified_ms: { type: ['number', 'null'], description: 'Snapshots keep no times: always null.' },
  },
};

export const SessionFsOpRequest: JsonSchema = {
  type: 'object',
  required: ['op', 'path'],
  additionalProperties: false,
  properties: {
    op: { type: 'string', description: '`mkdir`, `rename`, `exists`, `readlink` or `canonical`.' },
    path: { type: 'string' },
    recursive: { type: ['boolean', 'null'], description: 'mkdir only: create missing parents.' },
    to: { type: ['string', 'null'], description: 'rename only: the destination.' },
  },
};

export const SessionFsOpResult: JsonSchema = {
  type: 'object',
  description: '`exists`: `{exists}`; `readlink`: `{target}`; `canonical`: `{path}`; `mkdir`: `{path, created}`; `rename`: `{ca_id}`.',
  properties: {
    exists: { type: 'boolean' }, target: { type: 'string' }, path: { type: 'string' }, created: { type: 'boolean' }, ca_id: { type: ['string', 'null'] },
  },
};
