// The words the MCP surface shows an agent: `initialize` instructions per mode and transport, and
// the `run_js` descriptions. They state the limits the server actually runs with, so an agent
// does not have to guess (the reference's texts were stale: "no timers", "minimum heap 4 MB").
// `--instructions` and `--run-js-description` replace them whole.
import { HEAP_MB_FLOOR, TIMEOUT_SECS, type ExecutionLimits } from '../../shared/execution-contract.ts';

export type McpMode = 'stateful' | 'stateless';
export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

const LANGUAGE = 'JavaScript or TypeScript (types are stripped; JSX/TSX is not supported), run as an ES module: top-level await works';

function limitsText(l: ExecutionLimits): string {
  return `Each run has a wall-clock timeout (default ${l.defaultTimeoutSecs} s; execution_timeout_secs ${TIMEOUT_SECS.min}-${TIMEOUT_SECS.max}) `
    + `and an engine heap cap (default ${l.defaultHeapMb} MB; heap_memory_max_mb up to ${l.maxHeapMb}, values below ${HEAP_MB_FLOOR} are raised to ${HEAP_MB_FLOOR}).`;
}

/** Stateful mode with a heap store: what persists, how to continue, and the tools around it. */
export const HEAP_INSTRUCTIONS = 'Heap persistence is on. When a run completes, get_execution returns `heap`: a key naming the whole '
  + 'JavaScript state the run left behind (globals, functions, closures, class instances, Maps...). Pass it as run_js `heap` to '
  + 'continue from that state; without `heap` a run starts fresh, even in a session. A key can be resumed any number of times, '
  + 'each run getting its own copy, and each run produces a new key (use the latest one to keep going). Top-level declarations '
  + '(let, const, var, function, class) and globalThis properties persist, so the next run sees them by name, like a REPL; '
  + 'declarations inside blocks and loops stay local. Pending timers, in-flight fetches and other host operations do not survive. '
  + 'A run that fails, times out or is cancelled produces no heap and leaves its input heap unchanged: resume from the same key. '
  + 'run_js `tags` label the heap a run produces (get_heap_tags, set_heap_tags, delete_heap_tags, query_heaps_by_tags find it again). '
  + 'Completed runs in your session are logged: list_session_snapshots lists each run\'s code with the heap it started from and '
  + 'produced (pass an output_heap as `heap` to go back), list_sessions lists sessions. Heap runs use an engine without WebAssembly. ';

const NO_HEAP_INSTRUCTIONS = 'Globals do not persist between runs (this server has no heap store). ';

export function defaultInstructions(mode: McpMode, transport: TransportKind, limits: ExecutionLimits, heap = false): string {
  const base = mode === 'stateless'
    ? 'runjs runs JavaScript and TypeScript in a sandboxed engine (stateless mode). '
      + 'Call run_js with `code`: it waits for the run to finish (at most 300 s) and returns the console output as '
      + '`output`, plus `error` when the script threw, ran out of memory, timed out or was cancelled. '
      + 'Print what you want to see with console.log. Nothing persists between calls. '
    : 'runjs runs JavaScript and TypeScript in a sandboxed engine (stateful mode: runs are asynchronous). '
      + 'Call run_js with `code`: it returns an `execution_id` at once. Poll get_execution until `status` is no longer '
      + '`running` (completed, failed, cancelled or timed_out; `result` is the JSON of the last expression, `error` explains a failure), '
      + 'read console output with get_execution_output (1-based line_offset, or byte_offset for byte windows; follow has_more), '
      + 'stop a run with cancel_execution, and see running and recent runs with list_executions. ';
  const transportNote = transport === 'sse'
    ? ' This is the legacy HTTP+SSE transport: MCP tasks are not available here (use Streamable HTTP at /mcp for tasks).'
    : ' run_js can also run as an MCP task (tools/call with `task`).';
  const state = mode === 'stateless' ? '' : heap ? HEAP_INSTRUCTIONS : NO_HEAP_INSTRUCTIONS;
  return `${base}${state}${limitsText(limits)}${transportNote}`;
}

/** `artifactTools`: whether get_artifact and the other artifact tools are listed (not in plain stateless mode). */
export function defaultRunJsDescription(mode: McpMode, limits: ExecutionLimits, heap = false, artifactTools = true): string {
  const artifacts = artifactTools
    ? 'at most 16 MiB); fetch it with get_artifact. `await artifact.get(key)` reads an artifact, e.g. a file uploaded through get_artifact_upload_url. '
    : 'at most 16 MiB). `await artifact.get(key)` reads an artifact back. ';
  const common = `Run ${LANGUAGE}. console.log/debug/trace lines are captured as-is, console.info/warn/error with `
    + '[INFO]/[WARN]/[ERROR] prefixes; non-string arguments are printed as JSON. setTimeout/clearTimeout are available. '
    + 'To return a file or image, call `await artifact(key, mime, bytes)` (bytes: Uint8Array, TypedArray, ArrayBuffer or string; '
    + `${artifacts}${limitsText(limits)}`;
  return mode === 'stateless'
    ? `${common} Waits for the run and returns {output} on success, or {output, error} when it failed, timed out or was cancelled; `
      + 'artifacts the run emitted are listed in `artifacts` and attached as content blocks (up to 1 MiB in total'
      + (artifactTools ? ').' : '; the others only by their REST download `url`).')
    : `${common} Returns {execution_id} at once; then poll get_execution and read get_execution_output. `
      + 'As an MCP task the result is the final {execution_id, status, output, error?}.'
      + (heap
        ? ' State persists through heaps: a completed run\'s get_execution `heap` is a key to its whole JavaScript state; pass it as '
          + '`heap` to continue from there (omitted: a fresh start). Top-level let/const/var/function/class declarations and globalThis '
          + 'properties carry over by name; timers and pending host operations do not. `tags` label the heap this run produces. '
          + 'WebAssembly is not available in heap runs.'
        : ' Nothing persists between runs (no heap store).');
}
