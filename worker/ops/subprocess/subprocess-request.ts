// What the guest's child_process / Deno.Command glue hands the host, checked again: the operation
// (its policy input's `operation`), a command and string arguments, an optional cwd, the child's
// whole environment (the script's `env`, nothing of the worker's), and the Node options the host
// applies (a per-child timeout and its kill signal, whether stdin is a pipe).
import { constants } from 'node:os';
import { OpError } from '../op-types.ts';

export type SubprocessOperation = 'spawn' | 'exec' | 'command_output';

export interface SpawnRequest {
  readonly operation: SubprocessOperation;
  readonly command: string;
  readonly args: readonly string[];
  /** The script's cwd as it gave it; absent: the run's own directory. */
  readonly cwd?: string;
  /** The child's environment, all of it; absent when the script gave none (the child then gets an empty one). */
  readonly env?: Readonly<Record<string, string>>;
  /** Node's `timeout` option: the child is sent `killSignal` after this many ms (0: none). */
  readonly timeoutMs: number;
  readonly killSignal: NodeJS.Signals;
  readonly stdin: boolean;
}

const OPERATIONS: readonly string[] = ['spawn', 'exec', 'command_output'];
const MAX_ARGS = 4096;
const MAX_ARG_BYTES = 1024 * 1024;
const NO_NUL = /^[^\0]*$/;

export function isSignal(v: unknown): v is NodeJS.Signals {
  return typeof v === 'string' && Object.hasOwn(constants.signals, v);
}

function text(v: unknown, what: string): string {
  if (typeof v !== 'string' || !NO_NUL.test(v)) throw new OpError(`subprocess: ${what} must be a string without NUL characters`, 'TypeError', 'ERR_INVALID_ARG_VALUE');
  return v;
}

export function checkSpawn(a: Record<string, unknown>): SpawnRequest {
  const operation = a['operation'];
  if (typeof operation !== 'string' || !OPERATIONS.includes(operation)) throw new OpError('subprocess.spawn: unknown operation', 'TypeError');
  const command = text(a['command'], 'the command');
  if (command === '') throw new OpError("subprocess: the command must not be empty", 'TypeError', 'ERR_INVALID_ARG_VALUE');
  const rawArgs = a['args'] ?? [];
  if (!Array.isArray(rawArgs) || rawArgs.length > MAX_ARGS) throw new OpError(`subprocess: args must be at most ${MAX_ARGS} strings`, 'TypeError', 'ERR_INVALID_ARG_TYPE');
  const args = rawArgs.map((x, i) => text(x, `args[${i}]`));
  let size = command.length;
  for (const x of args) size += x.length;
  const cwd = a['cwd'] === undefined ? undefined : text(a['cwd'], 'cwd');
  let env: Record<string, string> | undefined;
  if (a['env'] !== undefined) {
    const raw = a['env'];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new OpError('subprocess: env must be an object', 'TypeError', 'ERR_INVALID_ARG_TYPE');
    env = {};
    for (const [k, v] of Object.entries(raw)) {
      if (k === '' || k.includes('=')) throw new OpError(`subprocess: the environment variable name ${JSON.stringify(k)} is invalid`, 'TypeError', 'ERR_INVALID_ARG_VALUE');
      env[text(k, 'an environment variable name')] = text(v, `env.${k}`);
      size += k.length + v.length;
    }
  }
  if (size > MAX_ARG_BYTES) throw new OpError(`subprocess: the command, its arguments and environment are larger than ${MAX_ARG_BYTES} characters`, 'RangeError', 'E2BIG');
  const timeout = a['timeoutMs'] ?? 0;
  if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout < 0) throw new OpError('subprocess: timeout must be a non-negative integer', 'TypeError', 'ERR_OUT_OF_RANGE');
  const killSignal = a['killSignal'] ?? 'SIGTERM';
  if (!isSignal(killSignal)) throw new OpError(`subprocess: unknown signal ${JSON.stringify(killSignal)}`, 'TypeError', 'ERR_UNKNOWN_SIGNAL');
  return {
    operation: operation as SubprocessOperation, command, args,
    ...(cwd !== undefined ? { cwd } : {}), ...(env !== undefined ? { env } : {}),
    timeoutMs: timeout, killSignal, stdin: a['stdin'] !== false,
  };
}
