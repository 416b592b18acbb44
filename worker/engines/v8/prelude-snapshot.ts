// The V8 startup snapshot of the booted prelude (see v8-engine.ts): what goes into it and how.
//
// Every run deserialises this snapshot twice over (isolated-vm makes a default context in each new
// isolate besides the one the run gets), so its size is paid by every run. Two choices keep it
// small and its code ready (docs/benchmarks.md, "Changes of 2026-11-24, branch `workercpu`"):
// - the prelude is compiled as a script of the snapshot, not evaluated from a string: a boot
//   script that evals the source keeps the source twice (its string literal and the evaluated
//   script), and eval'd code shares no compiled functions with the warm-up below;
// - after the boot, a warm-up runs a trivial run's path (track, run.settle, the result's
//   serialisation) in a second, throw-away context of the snapshot isolate: the functions it
//   calls are compiled there, and the snapshot keeps their bytecode (isolated-vm keeps compiled
//   code), so a run no longer compiles them lazily in every fresh isolate. The snapshot's own
//   context never runs them: no state of the warm-up (its clock origin, op ids) is baked in.
// The source is kept one byte per character when it is all Latin-1 (oneByte).
import ivm from 'isolated-vm';
import { PRELUDE_FILENAME, PRELUDE_SOURCE } from '../../guest/prelude-source.ts';

/** Globals that exist only between snapshot restore and the realm's hand-over (deleted before). */
export const BIND_GLOBAL = '__runjs_bind_host';
export const INTERNAL_GLOBAL = '__runjs_boot_internal';

/**
 * Installs `__runjs_host` for the prelude to capture: a stub that forwards to the host callback
 * bound after restore. Its file name contains PRELUDE_FILENAME, so guest stacks drop its frame.
 */
const HOST_STUB = `(function () {
  'use strict';
  const g = globalThis;
  let target;
  g.__runjs_host = function (op, argsJson, bytes) { return target(op, argsJson, bytes); };
  g.${BIND_GLOBAL} = function (fn) { target = fn; delete g.${BIND_GLOBAL}; };
})();`;

/**
 * A trivial run as the engine drives one, in the warm-up context: the host answers every op
 * (`clock.now` with 0, the rest with undefined), the main function completes with a number, and
 * the engine asks for the parts the run used (V8Realm.dispose does after every run).
 */
const WARM_UP = `(function () {
  'use strict';
  const internal = globalThis.${INTERNAL_GLOBAL};
  globalThis.${BIND_GLOBAL}(function (op) { return op === 'clock.now' ? 'v0' : 'v'; });
  internal.track(async () => ({ __proto__: null, k: 1, v: 2 }));
  internal.usedParts();
})();`;

/**
 * The prelude as a snapshot script that stores its completion value (the internal object) in
 * INTERNAL_GLOBAL: its statements become the body of a function that returns the last one's
 * value (the prelude declares nothing at its top level: every file is one function expression
 * called at once), on the same lines and, but for the first and the last statement's line, the
 * same columns. The last statement is prelude-end.js's, the last line that opens with
 * `(function`: found by text, not by parsing (acorn's tokenizer over the whole prelude grew a
 * worker's memory by ≈ 13 MB for good, its optimised code), so buildPreludeSnapshot checks the
 * result. Undefined when no line opens so.
 */
export function preludeScript(source: string): string | undefined {
  const last = source.lastIndexOf('\n(function') + 1;
  if (last === 0) return undefined;
  return oneByte(`globalThis.${INTERNAL_GLOBAL} = (function () {${source.slice(0, last)}return ${source.slice(last)}\n})();`);
}

/**
 * `text` stored one byte per character when every character is Latin-1. V8 keeps the
 * representation a string was built with (a slice of a two-byte string stays two-byte), and the
 * snapshot stores the prelude's source as it is: one byte per character made every isolate
 * ≈ 0.5-1 ms cheaper to create (docs/benchmarks.md). The prelude's files are kept Latin-1 (their
 * comments write "-", "..." and "->", not typographic dashes and arrows; a test checks it).
 */
export function oneByte(text: string): string {
  return /[^\u0000-\u00ff]/.test(text) ? text : Buffer.from(text, 'latin1').toString('latin1');
}

/** What the snapshot runs, in order: HOST_STUB, then the prelude (undefined: see preludeScript). */
export function preludeSnapshotScripts(): ivm.SnapshotScriptInfo[] | undefined {
  const prelude = preludeScript(PRELUDE_SOURCE);
  if (prelude === undefined) return undefined;
  return [
    { code: HOST_STUB, filename: `${PRELUDE_FILENAME}-host` },
    { code: prelude, filename: PRELUDE_FILENAME },
  ];
}

/** The prelude evaluated from a string: no warm-up can reach its functions (see above); the fallback. */
const EVAL_BOOT = `globalThis.${INTERNAL_GLOBAL} = (0, eval)(${JSON.stringify(`${PRELUDE_SOURCE}\n//# sourceURL=${PRELUDE_FILENAME}`)});`;

/** Whether a realm restored from `snapshot` finds the prelude's internal object where the engine looks for it. */
function boots(snapshot: ivm.ExternalCopy<ArrayBuffer>): boolean {
  const isolate = new ivm.Isolate({ memoryLimit: 8, snapshot });
  try {
    return isolate.createContextSync().evalSync(`typeof globalThis.${INTERNAL_GLOBAL}?.track`) === 'function';
  } catch {
    return false;
  } finally {
    isolate.dispose();
  }
}

/**
 * The snapshot of preludeSnapshotScripts warmed up with WARM_UP, checked by booting a realm from
 * it; else (a prelude whose last statement was not found, a failed warm-up) the prelude
 * evaluated from a string, unwarmed. Undefined when no snapshot can be made (realms then boot the
 * prelude from source).
 */
export function buildPreludeSnapshot(): ivm.ExternalCopy<ArrayBuffer> | undefined {
  const scripts = preludeSnapshotScripts();
  if (scripts !== undefined) {
    try {
      const snapshot = ivm.Isolate.createSnapshot(scripts, WARM_UP);
      if (boots(snapshot)) return snapshot;
      process.stderr.write('runjs: the warmed V8 startup snapshot does not boot the prelude; building it from an eval\n');
    } catch (e) {
      process.stderr.write(`runjs: warming up the V8 startup snapshot failed, building it from an eval: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
  try {
    return ivm.Isolate.createSnapshot([{ code: HOST_STUB, filename: `${PRELUDE_FILENAME}-host` }, { code: EVAL_BOOT, filename: `${PRELUDE_FILENAME}-boot` }]);
  } catch (e) {
    process.stderr.write(`runjs: V8 startup snapshot of the prelude failed, booting realms from source: ${e instanceof Error ? e.message : String(e)}\n`);
    return undefined;
  }
}
