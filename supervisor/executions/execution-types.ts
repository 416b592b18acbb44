// Wire shapes of the execution resources (interface spec: "Resources and their fields").
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

export interface ExecutionOutput {
  readonly execution_id: string;
  readonly data: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly next_line_offset: number;
  readonly total_lines: number;
  readonly start_byte: number;
  readonly end_byte: number;
  readonly next_byte_offset: number;
  readonly total_bytes: number;
  readonly has_more: boolean;
  readonly status: ExecutionStatus;
}

/** A validated request to run code (REST body / MCP arguments after their schemas). */
export interface ExecRequest {
  readonly code: string;
  readonly heap?: string | null;
  readonly fs?: string | null;
  readonly session?: string | null;
  readonly tags?: Readonly<Record<string, string>> | null;
  readonly heapMemoryMaxMb?: number | null;
  readonly executionTimeoutSecs?: number | null;
}
