// Wire shapes of the execution resources (interface spec: "Resources and their fields").
import type { OutputWindow } from './output-log.ts';
import type { DecisionEntry, DecisionLog, EgressCounts } from '../../shared/decision-log.ts';
export type ExecutionStatus = 'running' | 'completed' | 'failed' | 'cancelled' | 'timed_out';

export interface ArtifactMeta {
  readonly key: string;
  readonly mime_type: string;
  readonly size_bytes: number;
  readonly created_at: string;
  readonly execution_id?: string | null;
}

export interface ExecutionInfo {
  readonly execution_id: string;
  readonly status: ExecutionStatus;
  readonly result: string | null;
  readonly heap: string | null;
  readonly fs: string | null;
  readonly error: string | null;
  readonly started_at: string;
  readonly completed_at: string | null;
  readonly artifacts: readonly ArtifactMeta[];
}

export interface ExecutionSummary {
  readonly execution_id: string;
  readonly status: ExecutionStatus;
  readonly started_at: string;
  readonly completed_at: string | null;
}

export interface CancelResult {
  readonly ok: boolean;
  readonly error?: string;
}

/** One page of console output: the window's cursor fields plus whose output it is and its status. */
export interface ExecutionOutput extends OutputWindow {
  readonly execution_id: string;
  readonly status: ExecutionStatus;
}

/** An execution's policy decisions (GET /api/executions/{id}/decisions, MCP get_execution_decisions). */
export interface ExecutionDecisions {
  readonly execution_id: string;
  readonly status: ExecutionStatus;
  /** In the order they were made; empty while the execution runs (the log arrives with its result). */
  readonly decisions: readonly DecisionEntry[];
  /** Decisions made but not kept: beyond 1000 or 256 KiB per execution. */
  readonly dropped: number;
  /** Network traffic per category (fetch, websocket): requests, body bytes sent and received; `{}` when none. */
  readonly egress: Readonly<Record<string, EgressCounts>>;
}

/** A validated request to run code (REST body / MCP arguments after their schemas). */
export interface ExecRequest {
  readonly code: string;
  readonly heap?: string | null;
  readonly fs?: string | null;
  readonly session?: string | null;
  readonly tags?: Readonly<Record<string, string>> | null;
  /** Policy decisions the server made for this submission before the run (run_js `file`): first in the execution's log. */
  readonly sourceDecisions?: DecisionLog;
  readonly heapMemoryMaxMb?: number | null;
  readonly executionTimeoutSecs?: number | null;
}
