// The stateful tools around an execution: get_execution, get_execution_output, cancel_execution,
// list_executions, get_execution_decisions. Thin: narrow the arguments, call the service, shape the result. The MCP edge
// is 1-based for lines (`line_offset` default 1, and every line field of the result); the service
// and REST are 0-based, so the conversion happens here and nowhere else.
import { z } from 'zod';
import type { ExecutionService } from '../executions/execution-service.ts';
import type { ExecutionOutput } from '../executions/execution-types.ts';
import type { PageRequest } from '../executions/output-log.ts';
import { MAX_BYTE_LIMIT, MAX_LINE_LIMIT } from '../rest/output-query.ts';
import { RunjsError } from '../../shared/errors.ts';
import { defineTool, jsonResult, type ToolDef } from './tool-kit.ts';

export type McpExecutionsApi = Pick<ExecutionService, 'submit' | 'get' | 'list' | 'cancel' | 'output' | 'wait' | 'decisions'> & Partial<Pick<ExecutionService, 'sessionExecutionIds'>>;

const status = z.enum(['running', 'completed', 'failed', 'cancelled', 'timed_out']);
const executionId = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).min(1, 'must not be empty').describe('The id run_js returned.');
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const INFO_OUTPUT = z.object({
  execution_id: z.string(),
  status,
  result: z.string().nullable().describe('When completed: the JSON of the value of the last top-level expression ("" when none).'),
  heap: z.string().nullable().describe('Heap snapshot key produced (heap store only).'),
  error: z.string().nullable().describe('Why the run failed, timed out or was cancelled.'),
  started_at: z.string(),
  completed_at: z.string().nullable(),
});

const OUTPUT_PAGE = z.object({
  execution_id: z.string(),
  data: z.string().describe('The text of this page.'),
  start_line: z.int().describe('First line of the page, 1-based.'),
  end_line: z.int().describe('Line after the last one of the page, 1-based (exclusive).'),
  next_line_offset: z.int().describe('line_offset for the next page.'),
  total_lines: z.int(),
  start_byte: z.int().describe('First byte of the page, 0-based.'),
  end_byte: z.int().describe('Byte after the page (exclusive).'),
  next_byte_offset: z.int().describe('byte_offset for the next page.'),
  total_bytes: z.int(),
  has_more: z.boolean().describe('More output exists beyond this page (a running execution may still add more).'),
  status,
});

const CANCEL_OUTPUT = z.object({ ok: z.boolean(), error: z.string().optional() });

const LIST_OUTPUT = z.object({
  executions: z.array(z.object({ execution_id: z.string(), status, started_at: z.string(), completed_at: z.string().nullable() })),
});

const DECISION_STEP = z.object({
  stage: z.enum(['pre', 'policy', 'stack', 'post']),
  source: z.string().describe('The source\'s configured URL.'),
  verdict: z.enum(['allow', 'deny', 'abstain', 'ask', 'error']),
  reason: z.string().optional(),
  rewrote: z.boolean().optional(),
  prints: z.array(z.string()).optional(),
  ms: z.number(),
});

const DECISIONS_OUTPUT = z.object({
  execution_id: z.string(),
  status,
  decisions: z.array(z.object({
    seq: z.int(),
    at: z.string(),
    category: z.string().describe('fetch, websocket, http2, modules, filesystem, fs_snapshot, mcp_tools, subprocess or run_js_file.'),
    phase: z.enum(['decide', 'post']),
    configured: z.boolean(),
    input: z.unknown().describe('Summary of the input (or output, for post) document, secrets redacted.'),
    steps: z.array(DECISION_STEP),
    verdict: z.enum(['allow', 'deny', 'error']),
    reason: z.string().optional(),
    ms: z.number(),
  })),
  dropped: z.int().describe('Decisions made but not kept (beyond 1000 entries or 256 KiB).'),
  egress: z.record(z.string(), z.object({ requests: z.int(), sent_bytes: z.int(), received_bytes: z.int() }))
    .describe('Network traffic per category (fetch, websocket): requests made, body bytes sent and received; {} when none.'),
});

const OUTPUT_INPUT = z.strictObject({
  execution_id: executionId,
  line_offset: z.int('must be an integer').min(1, 'must be at least 1 (lines are 1-based)').optional()
    .describe('First line to return, 1-based (default 1). Ignored when byte_offset is given.'),
  line_limit: z.int('must be an integer').min(1, 'must be at least 1').optional()
    .describe(`Lines to return (default 100; at most ${MAX_LINE_LIMIT}, larger values are capped).`),
  byte_offset: z.int('must be an integer').min(0, 'must be at least 0').optional()
    .describe('First byte to return, 0-based. Giving it selects byte mode (line parameters are ignored).'),
  byte_limit: z.int('must be an integer').min(1, 'must be at least 1').optional()
    .describe(`Bytes to return in byte mode (default 4096; at most ${MAX_BYTE_LIMIT}, larger values are capped).`),
});

export function pageRequest(args: z.output<typeof OUTPUT_INPUT>): PageRequest {
  return args.byte_offset === undefined
    ? { mode: 'line', offset: (args.line_offset ?? 1) - 1, limit: Math.min(args.line_limit ?? 100, MAX_LINE_LIMIT) }
    : { mode: 'byte', offset: args.byte_offset, limit: Math.min(args.byte_limit ?? 4096, MAX_BYTE_LIMIT) };
}

/** The service's 0-based line fields, as the 1-based ones MCP clients pass back. */
export function oneBasedLines(page: ExecutionOutput): ExecutionOutput {
  return { ...page, start_line: page.start_line + 1, end_line: page.end_line + 1, next_line_offset: page.next_line_offset + 1 };
}

export function executionTools(executions: McpExecutionsApi): ToolDef[] {
  return [
    defineTool({
      name: 'get_execution',
      title: 'Get execution',
      description: 'Status of an execution: running, completed, failed, cancelled or timed_out, with `result` (completed) or `error`, '
        + 'and its start and completion times. Console output is read separately with get_execution_output.',
      annotations: READ_ONLY,
      input: z.strictObject({ execution_id: executionId }),
      output: INFO_OUTPUT,
      handle: ({ execution_id }) => {
        const { artifacts: _artifacts, fs: _fs, ...info } = executions.get(execution_id);
        return jsonResult(info);
      },
    }),
    defineTool({
      name: 'get_execution_output',
      title: 'Read execution output',
      description: 'One page of an execution\'s console output, readable while it runs. Line mode by default: line_offset '
        + '(1-based, default 1) and line_limit (default 100). Byte mode when byte_offset is given: byte_offset (0-based) and '
        + 'byte_limit (default 4096); windows never split a UTF-8 character. Continue with next_line_offset or '
        + 'next_byte_offset while has_more is true.',
      annotations: READ_ONLY,
      input: OUTPUT_INPUT,
      output: OUTPUT_PAGE,
      handle: (args) => jsonResult(oneBasedLines(executions.output(args.execution_id, pageRequest(args)))),
    }),
    defineTool({
      name: 'cancel_execution',
      title: 'Cancel execution',
      description: 'Stop a running execution at once; its status becomes cancelled with error "Cancelled by user". '
        + 'Returns {ok: true}, or an error result {ok: false, error} when the execution is unknown or not running.',
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      input: z.strictObject({ execution_id: executionId }),
      output: CANCEL_OUTPUT,
      handle: ({ execution_id }) => {
        try {
          const result = executions.cancel(execution_id);
          return jsonResult(result.ok ? { ok: true } : { ok: false, error: result.error ?? 'not cancelled' }, !result.ok);
        } catch (e) {
          // An unknown id is a failed cancel too, in the tool's own shape.
          if (RunjsError.is(e, 'EXECUTION_NOT_FOUND')) return jsonResult({ ok: false, error: e.message }, true);
          throw e;
        }
      },
    }),
    defineTool({
      name: 'list_executions',
      title: 'List executions',
      description: 'Running executions and the most recently finished ones (a bounded number is retained), newest first.',
      annotations: READ_ONLY,
      input: z.strictObject({}),
      output: LIST_OUTPUT,
      handle: () => jsonResult({ executions: executions.list() }),
    }),
    defineTool({
      name: 'get_execution_decisions',
      title: 'Read policy decisions',
      description: 'The policy decisions an execution made (network, modules, filesystem, … under --policies-json): for each, '
        + 'the category, a redacted summary of the input, every policy source\'s verdict and reason, the final verdict and '
        + 'timings. Recorded when the run ends: empty while it runs.',
      annotations: READ_ONLY,
      input: z.strictObject({ execution_id: executionId }),
      output: DECISIONS_OUTPUT,
      handle: ({ execution_id }) => jsonResult(executions.decisions(execution_id)),
    }),
  ];
}
