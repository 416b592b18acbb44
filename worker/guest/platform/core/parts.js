// Lazy platform parts: each is a function body kept on the host (worker/guest/generated/parts/)
// and evaluated in a realm the first time something needs it, so a run pays only for what it uses.
/* global __runjs_P */ // the captured primordials (a parameter of the generated wrapper)
import { op, compilePart } from './host.js';
import { shapeInterfaces } from './webidl-shape.js';

const loaded = new Map();
const loading = new Set();
/**
 * Parts whose evaluation threw (user code had broken a builtin the part needs at load): later
 * requests get that same error again. Evaluating a part twice could leave half of the first
 * attempt's globals behind, and re-entering them reports "requires itself" instead of the cause.
 */
const failed = new Map();
/** Part sources handed over by preloadParts (while it runs), so no op is needed. */
let given;
/** A part's factory compiled by the engine ahead of time, handed over by preloadCompiled (while it runs). */
let givenFactory;
/**
 * Parts the realm's own code asked for (loaded by then or not), not counting preloading: the
 * V8 engine reads this when the run is over, to learn which parts to load into its spare realm
 * ahead of the next run (worker/engines/v8/part-preload.ts).
 */
const used = new Set();

export function registerPart(name, exports) {
  loaded.set(name, exports);
}

/** The exports of platform part `name`, evaluating it on first use. */
export function requirePart(name) {
  if (given === undefined && givenFactory === undefined) used.add(name);
  const done = loaded.get(name);
  if (done !== undefined) return done;
  if (failed.has(name)) throw failed.get(name);
  if (loading.has(name)) throw new Error(`runjs: platform part '${name}' requires itself`);
  loading.add(name);
  try {
    // V8 compiles a part on the host from its code cache (no parse, no lazy compile per run);
    // elsewhere, or when that is not possible, the part's source is evaluated here.
    const compiled = givenFactory !== undefined && givenFactory.name === name ? givenFactory.fn : given === undefined ? compilePart(name) : undefined;
    let fn = compiled;
    if (fn === undefined) {
      const body = given !== undefined && given[name] !== undefined ? given[name] : op('platform.part', name);
      // The sourceURL keeps the part's frames out of user-facing stacks (they contain "runjs:prelude").
      fn = new Function('__runjs_P', '__runjs_require', `${body}\n//# sourceURL=runjs:prelude/${name}`);
    }
    let exports;
    try {
      exports = fn(__runjs_P, requirePart);
    } catch (e) {
      failed.set(name, e);
      throw e;
    }
    shapeInterfaces(exports?.globals);
    loaded.set(name, exports);
    return exports;
  } finally {
    loading.delete(name);
  }
}

/**
 * Evaluates the parts in `json` ({name: body}, in dependency order) now. The engines call this
 * while they build a QuickJS base image or a V8 startup snapshot, after the prelude and before
 * any run, so that no run pays for loading these parts (their globals stay lazy accessors, and
 * resolve to the already-loaded part). It runs no op: a part that needs one fails the build.
 */
export function preloadParts(json) {
  given = JSON.parse(json);
  try {
    for (const name of Object.keys(given)) requirePart(name);
  } finally {
    given = undefined;
  }
}

/**
 * Evaluates parts from their factories the engine compiled ahead of time (V8's spare realm, before
 * any run: worker/engines/v8/part-preload.ts), given as name, factory, name, factory… in load order
 * (one call for all). Like preloadParts it runs no op, and the parts' globals stay lazy accessors.
 * A part that throws here leaves the realm unusable: the engine discards it.
 */
export function preloadCompiled(...pairs) {
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    givenFactory = { name: pairs[i], fn: pairs[i + 1] };
    try {
      requirePart(pairs[i]);
    } finally {
      givenFactory = undefined;
    }
  }
}

/** The parts this realm's code asked for (see `used`). */
export function usedParts() {
  return [...used];
}

/**
 * Loads, before a run's code starts, the parts `names` lists: those the run's main module names
 * (found by the V8 engine on the host, worker/engines/v8/named-parts.ts). V8 only: a part compiled
 * on the host during a run (compilePart) enters the isolate while the run waits, and isolated-vm
 * ends that entry with a microtask checkpoint — the script's pending promise jobs ran in the middle
 * of its synchronous code (`Promise.resolve().then(f); new URL(u)` ran `f` before the next
 * statement; testharness.js took that for "all tests loaded" after the first one). Loaded here, at
 * the start, nothing of the script's is pending yet.
 */
export function preloadNamed(names) {
  if (!Array.isArray(names)) return;
  for (let i = 0; i < names.length; i++) {
    try {
      requirePart(names[i]);
    } catch {
      // Reported where the script uses the global (requirePart keeps the error: see `failed`).
    }
  }
}
