// Routes of the execution resources (interface spec: "REST: executions").
import { ref, withoutNull, type JsonSchema } from '../../shared/schemas/json-schema.ts';
import { SCHEMAS } from '../../shared/schemas/index.ts';
import { RAW_EXEC_QUERY, readExecRequest } from './exec-request.ts';
import { OUTPUT_QUERY_PARAMETERS, parseOutputQuery } from './output-query.ts';
import type { ParameterDoc, RouteContext, RouteSpec } from './route-types.ts';
import { parseWaitQuery, WAIT_QUERY_PARAMETERS, waitForExecution } from './wait-query.ts';

const TAG = 'executions';

const ID_PARAMETER: ParameterDoc = { name: 'id', in: 'path', required: true, description: 'Execution id (from `POST /api/exec`).', schema: { type: 'string' } };
const NOT_FOUND = { description: "Unknown execution: `Execution '<id>' not found`.", schema: 'ApiError' } as const;

const execRequestProperties = SCHEMAS.ExecRequest['properties'] as Readonly<Record<string, JsonSchema>>;

/** The raw form's query parameters carry the same rules as the JSON fields they stand for. */
const RAW_QUERY_PARAMETERS: readonly ParameterDoc[] = RAW_EXEC_QUERY.map((name) => {
  const { description, ...schema } = withoutNull(execRequestProperties[name] ?? {});
  return { name, in: 'query', description: `Raw-source form only (400 with a JSON body). ${String(description)}`, schema };
});

function id(ctx: RouteContext): string {
  return ctx.params['id'] ?? '';
}

export const EXECUTION_ROUTES: readonly RouteSpec[] = [
  {
    method: 'post',
    path: '/api/exec',
    operationId: 'exec',
    tag: TAG,
    summary: 'Submit code to run',
    description: 'Registers an execution and returns its id at once (status `running`); poll `GET /api/executions/{id}` '
      + '(with `?wait_ms=` to wait for the end in one request). '
      + 'The body is a JSON ExecRequest when the Content-Type is `application/json` (or `application/*+json`, or absent); '
      + 'for any other Content-Type the raw body is the source, and the options come from the query. Bodies must be UTF-8 '
      + 'and at most `--max-request-body` bytes. Script errors (including TypeScript parse errors) do not fail the request: '
      + 'the execution ends `failed` with the error.',
    parameters: RAW_QUERY_PARAMETERS,
    requestBody: {
      required: true,
      description: 'A JSON ExecRequest, or the script source (any non-JSON, non-multipart Content-Type).',
      content: {
        'application/json': { schema: ref('ExecRequest') },
        'text/plain': { schema: { type: 'string' } },
        'application/javascript': { schema: { type: 'string' } },
        'application/typescript': { schema: { type: 'string' } },
      },
    },
    responses: {
      202: { description: 'Accepted: the execution is registered and running (or queued for a worker).', schema: 'ExecAccepted' },
      400: { description: 'Malformed body or query: invalid JSON, a schema violation (the message names the field), non-UTF-8 body, an out-of-range limit, or `heap`/`fs` without their store.', schema: 'ApiError' },
      413: { description: 'Body larger than `--max-request-body`.', schema: 'ApiError' },
      415: { description: 'Unsupported Content-Type (multipart), charset (not UTF-8) or Content-Encoding.', schema: 'ApiError' },
      503: { description: 'The execution queue is full (`--max-queued-executions`); retry later.', schema: 'ApiError' },
    },
    async handle(ctx) {
      const request = await readExecRequest(ctx.req, ctx.query, ctx.deps.maxRequestBody);
      return { status: 202, json: { execution_id: ctx.deps.executions.submit(request) } };
    },
  },
  {
    method: 'get',
    path: '/api/executions',
    operationId: 'listExecutions',
    tag: TAG,
    summary: 'List executions',
    description: 'Running executions and the most recent finished ones (`--execution-retention`, default 1000), newest first.',
    responses: { 200: { description: 'The executions.', schema: 'ExecutionList' } },
    handle: (ctx) => ({ status: 200, json: { executions: ctx.deps.executions.list() } }),
  },
  {
    method: 'get',
    path: '/api/executions/{id}',
    operationId: 'getExecution',
    tag: TAG,
    summary: 'Get one execution',
    description: 'With `wait_ms`, a long-poll: the response comes as soon as the execution reaches a terminal status, '
      + 'or when the wait elapses (then still `running`), so a client needs one request instead of a polling loop.',
    parameters: [ID_PARAMETER, ...WAIT_QUERY_PARAMETERS],
    responses: {
      200: { description: 'The execution.', schema: 'ExecutionInfo' },
      400: { description: 'A query parameter is unknown, repeated, or `wait_ms` is not an integer from 0 to 30000.', schema: 'ApiError' },
      404: NOT_FOUND,
    },
    async handle(ctx) {
      const waitMs = parseWaitQuery(ctx.query);
      return { status: 200, json: await waitForExecution(ctx, id(ctx), waitMs) };
    },
  },
  {
    method: 'post',
    path: '/api/executions/{id}/cancel',
    operationId: 'cancelExecution',
    tag: TAG,
    summary: 'Cancel a running execution',
    description: 'Terminates the run; its status is `cancelled` (final, error `Cancelled by user`) before the response is sent.',
    parameters: [ID_PARAMETER],
    responses: {
      200: { description: 'Cancelled: `{"ok": true}`.', schema: 'CancelResult' },
      400: { description: "Not running: `{\"ok\": false, \"error\": \"Execution '<id>' is not running (status: <status>)\"}`.", schema: 'CancelResult' },
      404: NOT_FOUND,
    },
    handle(ctx) {
      const result = ctx.deps.executions.cancel(id(ctx));
      return { status: result.ok ? 200 : 400, json: result };
    },
  },
  {
    method: 'get',
    path: '/api/executions/{id}/output',
    operationId: 'getExecutionOutput',
    tag: TAG,
    summary: 'Read one page of console output',
    description: 'Readable while the execution runs. Line mode by default (0-based `line_offset`, `line_limit` 100); '
      + 'byte mode when `byte_offset` is given (`byte_limit` 4096). Iterate with `has_more` and `next_line_offset` / `next_byte_offset`.',
    parameters: [ID_PARAMETER, ...OUTPUT_QUERY_PARAMETERS],
    responses: {
      200: { description: 'The page.', schema: 'ExecutionOutput' },
      400: { description: 'A query parameter is unknown, repeated, or not a non-negative integer.', schema: 'ApiError' },
      404: NOT_FOUND,
    },
    handle(ctx) {
      const page = parseOutputQuery(ctx.query);
      return { status: 200, json: ctx.deps.executions.output(id(ctx), page) };
    },
  },
  {
    method: 'get',
    path: '/api/executions/{id}/decisions',
    operationId: 'getExecutionDecisions',
    tag: TAG,
    summary: 'Read the policy decision log',
    description: 'Every policy decision the execution made (category, a redacted summary of the input, each source\'s verdict '
      + 'and reason, the final verdict, timings), in order; retained and pruned with the execution. The log is recorded '
      + 'when the run ends, so it is empty while the execution is running. See docs/policies.md.',
    parameters: [ID_PARAMETER],
    responses: {
      200: { description: 'The decision log.', schema: 'ExecutionDecisions' },
      404: NOT_FOUND,
    },
    handle: (ctx) => ({ status: 200, json: ctx.deps.executions.decisions(id(ctx)) }),
  },
];
