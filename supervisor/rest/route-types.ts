// One REST route = one RouteSpec: its OpenAPI description (parameters, body, responses by
// status) and its handler, side by side. The router and the OpenAPI document are both built from
// the route table, so a route cannot exist without being documented, or the other way round.
import type { SessionFiles } from '../fs/session-files.ts';
import type { Request } from 'express';
import type { ExecutionService } from '../executions/execution-service.ts';
import type { Capabilities } from './resource-types.ts';
import type { HeapService } from '../heaps/index.ts';
import type { FsService } from '../fs/index.ts';
import type { ArtifactService } from '../artifacts/artifact-service.ts';
import type { UploadTokens } from '../artifacts/upload-tokens.ts';
import type { CliPlatform, JsonSchema, SchemaName } from '../../shared/schemas/index.ts';
import type { UpstreamSurface } from '../upstream-mcp/open-upstreams.ts';

/** The part of the execution service the REST routes use. */
export type ExecutionsApi = Pick<ExecutionService, 'submit' | 'get' | 'list' | 'cancel' | 'output' | 'wait' | 'decisions'>;

export interface RestDeps {
  readonly executions: ExecutionsApi;
  /** Server version, as `GET /api/version` reports it (package.json `version`). */
  readonly version: string;
  readonly capabilities: () => Capabilities;
  /** Largest accepted request body in bytes (`--max-request-body`). */
  readonly maxRequestBody: number;
  /** Externally reachable base URL (`--public-url`); absolute URLs are built from the request otherwise. */
  readonly publicBaseUrl?: string | undefined;
  /** An embedded CLI binary, when the build has one; none are embedded yet. */
  readonly cliBinary?: ((platform: CliPlatform) => Uint8Array | undefined) | undefined;
  /** Artifact store and one-time upload tokens; the artifact routes answer 500 without them. */
  readonly artifacts?: ArtifactService | undefined;
  readonly uploads?: UploadTokens | undefined;
  /** Heap tags and the session log; absent (or without a store) the heap and session routes answer 400. */
  readonly heaps?: HeapService | undefined;
  /** Filesystem snapshot labels and merge; absent (or without a store) the fs routes answer 400. */
  readonly fs?: FsService | undefined;
  /** A session's files (GET/PUT/DELETE /api/sessions/{s}/files/…); absent without an fs store. */
  readonly sessionFiles?: SessionFiles | undefined;
  /** Upstream MCP servers (the `mcp` global's types); absent when none is configured. */
  readonly upstream?: UpstreamSurface | undefined;
  /** Diagnostics (stderr by default: stdout may carry the stdio MCP protocol). */
  readonly log?: ((line: string) => void) | undefined;
}

export interface RouteContext {
  readonly deps: RestDeps;
  readonly req: Request;
  /** Decoded path parameters by their OpenAPI names. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
}

export type Reply =
  | { readonly status: number; readonly json: unknown }
  | { readonly status: number; readonly bytes: Uint8Array; readonly contentType: string; readonly headers?: Readonly<Record<string, string>> };

export interface ParameterDoc {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required?: boolean;
  readonly description: string;
  readonly schema: JsonSchema;
}

/** A documented response: a component schema (JSON) or a raw media type. */
export type ResponseDoc =
  | { readonly description: string; readonly schema: SchemaName }
  | { readonly description: string; readonly mediaType: string; readonly schema: JsonSchema };

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

export interface RouteSpec {
  readonly method: HttpMethod;
  /** Full path in OpenAPI template form, e.g. `/api/executions/{id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly parameters?: readonly ParameterDoc[];
  /** An OpenAPI Request Body Object, verbatim. */
  readonly requestBody?: Readonly<Record<string, unknown>>;
  /** Route-specific responses; the common ones (401, 403, 500) are added by the document builder. */
  readonly responses: Readonly<Record<number, ResponseDoc>>;
  /** Not behind bearer auth (its own credential is in the path); the document shows no security and no 401. */
  readonly noBearerAuth?: boolean;
  readonly handle: (ctx: RouteContext) => Reply | Promise<Reply>;
}
