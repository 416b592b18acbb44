// Every component schema by name: the one table the request validator and the OpenAPI document
// share. Adding a resource = a schema in one of the *-schemas.ts files + one line here.
import type { JsonSchema } from './json-schema.ts';
import {
  CancelResult, ExecAccepted, ExecRequest, ExecutionDecisions, ExecutionInfo, ExecutionList, ExecutionOutput, ExecutionStatus, ExecutionSummary,
  PolicyDecision, PolicyDecisionStep,
} from './execution-schemas.ts';
import { ArtifactList, ArtifactMeta } from './artifact-schemas.ts';
import { HeapQueryRequest, HeapQueryResult, HeapTags, HeapTagsRequest, SessionDirListing, SessionFileEntry, SessionFsOpRequest, SessionFsOpResult, SessionList, SessionSnapshotEntry, SessionSnapshotList, TagMap } from './heap-schemas.ts';
import {
  FsLabelHead, FsLabelList, FsLabelRequest, FsMergeConflict, FsMergeRequest, FsMergeResult, FsPushRequest, FsPushResult, FsReflog, FsReflogEntry, FsResetRequest, FsGcRequest, FsGcReport,
} from './fs-schemas.ts';
import { ApiError, Capabilities, CliAsset, CliIndex, CliPlatformName, Version } from './server-schemas.ts';

export const SCHEMAS = {
  ExecRequest,
  ExecAccepted,
  ExecutionStatus,
  ExecutionInfo,
  ExecutionSummary,
  ExecutionList,
  ExecutionOutput,
  ExecutionDecisions,
  PolicyDecision,
  PolicyDecisionStep,
  CancelResult,
  ArtifactMeta,
  ArtifactList,
  TagMap,
  HeapTags,
  HeapTagsRequest,
  HeapQueryRequest,
  HeapQueryResult,
  SessionSnapshotEntry,
  SessionSnapshotList,
  SessionDirListing,
  SessionFileEntry,
  SessionFsOpRequest,
  SessionFsOpResult,
  SessionList,
  FsLabelRequest,
  FsPushRequest,
  FsResetRequest,
  FsMergeRequest,
  FsGcRequest,
  FsGcReport,
  FsLabelHead,
  FsLabelList,
  FsReflogEntry,
  FsReflog,
  FsPushResult,
  FsMergeConflict,
  FsMergeResult,
  Capabilities,
  Version,
  CliPlatformName,
  CliAsset,
  CliIndex,
  ApiError,
} as const satisfies Record<string, JsonSchema>;

export type SchemaName = keyof typeof SCHEMAS;

export { CLI_PLATFORMS, type CliPlatform } from './server-schemas.ts';
export type { JsonSchema } from './json-schema.ts';
