// Every component schema by name: the one table the request validator and the OpenAPI document
// share. Adding a resource = a schema in one of the *-schemas.ts files + one line here.
import type { JsonSchema } from './json-schema.ts';
import { CancelResult, ExecAccepted, ExecRequest, ExecutionInfo, ExecutionList, ExecutionOutput, ExecutionStatus, ExecutionSummary } from './execution-schemas.ts';
import { ArtifactList, ArtifactMeta } from './artifact-schemas.ts';
import { ApiError, Capabilities, CliAsset, CliIndex, CliPlatformName, Version } from './server-schemas.ts';

export const SCHEMAS = {
  ExecRequest,
  ExecAccepted,
  ExecutionStatus,
  ExecutionInfo,
  ExecutionSummary,
  ExecutionList,
  ExecutionOutput,
  CancelResult,
  ArtifactMeta,
  ArtifactList,
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
