// The op table of a worker: every capability's ops, merged once.
import type { OpTable } from './op-types.ts';
import { consoleOps } from './console/console-ops.ts';
import { timerOps } from './timers/timer-ops.ts';
import { runOps } from './run/run-ops.ts';

export const ALL_OPS: OpTable = Object.freeze({ ...consoleOps, ...timerOps, ...runOps });
