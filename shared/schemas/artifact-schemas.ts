// Artifact resources (interface spec: "ArtifactMeta"). The routes come with the artifact issue;
// ExecutionInfo already lists an execution's artifacts with this shape.
import { ref, type JsonSchema } from './json-schema.ts';

export const ArtifactMeta: JsonSchema = {
  type: 'object',
  required: ['key', 'mime_type', 'size_bytes', 'created_at'],
  properties: {
    key: { type: 'string', description: 'Caller-chosen key.' },
    mime_type: { type: 'string', description: 'Mime type, `type/subtype`.' },
    size_bytes: { type: 'integer', format: 'int64', minimum: 0, description: 'Payload size.' },
    created_at: { type: 'string', format: 'date-time', description: 'Time last written.' },
    execution_id: { type: ['string', 'null'], description: 'Execution that last wrote it, when known.' },
  },
};

export const ArtifactList: JsonSchema = {
  type: 'object',
  required: ['artifacts'],
  properties: { artifacts: { type: 'array', items: ref('ArtifactMeta') } },
};
