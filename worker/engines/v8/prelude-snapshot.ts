// The V8 startup snapshot of the booted prelude (see v8-engine.ts): what goes into it and how.
//
// Every run deserialises this snapshot twice over (isolated-vm makes a default context in each new
// isolate besides the one the run gets), so its size is paid by every run. Three choices keep it
// small and its code ready (docs/benchmarks.md, "Changes of 2026-11-24, branch `workercpu`"):
// - the prelude is compiled as a script of the snapshot, not evaluated from a string: a boot
//   script that evals the source keeps the source twice (its string literal and the evaluated
//   script), and eval'd code shares no compiled functions with the warm-up below;
// - characters beyond Latin-1 in the prelude's comments become one ASCII character each, so V8
//   stores the source one byte per character instead of two (positions stay the same);
// - after the boot, a warm-up runs a trivial run's path (track, run.settle, the result's
//   serialisation) in a second, throw-away context of the snapshot isolate: the functions it
//   calls are compiled there, and the snapshot keeps their bytecode (isolated-vm keeps compiled
//   code), so a run no longer compiles them lazily in every fresh isolate. The snapshot's own
//   context never runs them: no state of the warm-up (its clock origin, op ids) is baked in.
import ivm from 'isolated-vm';
import { parse } from 'acorn';
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

/** Stands in for a character beyond Latin-1 in a comment (one character, so no position moves). */
function latin1(c: string): string {
  if (c === '\u2014' || c === '\u2013') return '-';
  if (c === '\u2026') return '.';
  if (c === '\u2192') return '>';
  return '?';
}

/**
 * The prelude as a snapshot script that stores its completion value (the internal object) in
 * INTERNAL_GLOBAL: its statements become the body of a function that returns the last one's
 * value (the prelude declares nothing at its top level: every file is one function expression
 * called at once), on the same lines and, but for the first and the last statement's line, the
 * same columns. Undefined when the prelude does not end with an expression statement.
 */
export function preludeScript(source: string): string | undefined {
  const chars = [...source].length === source.length ? source.split('') : undefined;
  const program = parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    onComment: (_block, _text, start, end) => {
      if (chars === undefined) return; // astral characters: positions would not map one to one
      for (let i = start; i < end; i++) if (source.charCodeAt(i) > 0xff) chars[i] = latin1(source[i]!);
    },
  });
  const last = program.body.at(-1);
  if (last?.type !== 'ExpressionStatement') return undefined;
  const text = chars === undefined ? source : chars.join('');
  return `globalThis.${INTERNAL_GLOBAL} = (function () {${text.slice(0, last.start)}return ${text.slice(last.start)}\n})();`;
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

/**
 * The snapshot of preludeSnapshotScripts, warmed up with WARM_UP; without the warm-up should it
 * fail. Undefined when no snapshot can be made (realms then boot the prelude from source).
 */
export function buildPreludeSnapshot(): ivm.ExternalCopy<ArrayBuffer> | undefined {
  const scripts = preludeSnapshotScripts();
  if (scripts === undefined) {
    process.stderr.write('runjs: the prelude does not end with an expression; booting realms from source\n');
    return undefined;
  }
  try {
    return ivm.Isolate.createSnapshot(scripts, WARM_UP);
  } catch (e) {
    process.stderr.write(`runjs: warming up the V8 startup snapshot failed, building it cold: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  try {
    return ivm.Isolate.createSnapshot(scripts);
  } catch (e) {
    process.stderr.write(`runjs: V8 startup snapshot of the prelude failed, booting realms from source: ${e instanceof Error ? e.message : String(e)}\n`);
    return undefined;
  }
}
