// Where runjs knowingly differs from Node 24 in the differential corpora, per module and engine,
// with the reason. The harness fails when a listed case agrees (remove it) or an unlisted one
// differs (fix it, or list it with a reason).
import type { EngineName } from '../../../shared/protocol.ts';

type Known = Record<string, string>; // case name → why it differs

const both = (k: Known): Record<EngineName, Known> => ({ v8: k, quickjs: k });

const BUFFER: Known = {
  'transcode bad encoding': "transcode goes through strings: an unknown encoding is ERR_UNKNOWN_ENCODING, not ICU's U_ILLEGAL_ARGUMENT_ERROR",
};

const UTIL: Known = {
  'inspect: map iterator': "iterator entries cannot be previewed without the engine (Node's previewEntries is native)",
  'inspect: weak collections with showHidden': "a WeakMap's or WeakSet's entries cannot be previewed without the engine (Node's previewEntries is native): <items unknown> also with showHidden",
  'inspect: long-running structure': "Node's inspect stops a 1000-deep structure at its native stack limit; the engines' limits differ",
};

// QuickJS tells the platform a promise's state (quickjs-realm.ts); isolated-vm has no such call.
const NO_STATE = 'isolated-vm gives the platform no way to read a promise\'s state: every promise shows as <pending>';
const V8_PROMISE_STATE: Known = {
  'inspect: promise': NO_STATE,
  'inspect: promise rejected': NO_STATE,
  'inspect: promise rejected primitive': NO_STATE,
  'inspect: async function result': NO_STATE,
  'inspect: promise settled later': NO_STATE,
  'types.isPromise: the brand, not the prototype': "isolated-vm gives the platform no promise brand check without side effects (then() would mark a rejection handled): V8's isPromise reads the prototype chain, and the state is unknown",
};

const VM: Known = {
  "builtins are the realm's own": "a run has one realm: a vm context is the object seen through a scope, with the run's own builtins (docs/script-environment.md, node:vm)",
  'function declarations reach the context': 'a function declaration in vm code stays local to the call (a direct eval inside a scope; Node declares it on the context global)',
  'Script top-level return': 'a Script is checked for syntax errors by compiling it as a function body (without running it), where a top-level `return` parses; it is the SyntaxError when the script runs',
  'reading an undeclared name': 'every name resolves through the context scope so that assignments land on the context: an undeclared read is undefined, not a ReferenceError',
};

export const KNOWN: Record<string, Partial<Record<EngineName, Known>>> = {
  buffer: {
    v8: BUFFER,
    quickjs: { ...BUFFER, 'writeBigInt64LE not bigint': "QuickJS's own TypeError text for mixing BigInt and Number" },
  },
  util: {
    v8: { ...UTIL, ...V8_PROMISE_STATE },
    quickjs: {
      ...UTIL,
      'deprecate: not a function': "QuickJS's own TypeError text where Node shows V8's (`Object prototype may only be an Object or null: 1`)",
      'inspect: a null-prototype instance names the class that made it': "Node reads V8's internal constructor name (runjs asks V8 through a stack frame's type name); QuickJS keeps none, so the tag's `Object` shows",
    },
  },
  vm: {
    v8: VM,
    quickjs: { ...VM, 'syntax error at construction': "QuickJS's own SyntaxError text (`expecting ';'`) where Node shows V8's" },
  },
  url: both({
    'URLPattern: exec relative string without base': "the URL Pattern standard's match() returns null when a string input does not parse as a URL without a base (urlpattern-polyfill); Node 24 matches `/a` as a path",
  }),
};

/**
 * Cases whose runjs result depends on how the host's event loop and the engine's thread
 * interleave, so a run may agree with Node or not: each lists the only other result it may give
 * (the harness still fails on anything else) and counts as differing in the pass rates.
 */
export const VARIES: Record<string, Record<string, { readonly reason: string; readonly otherwise: string }>> = {};

/** `passed/total (percent)` for one module on one engine. */
export function passRateRow(module: string, engine: EngineName, total: number): string {
  const failed = Object.keys(KNOWN[module]?.[engine] ?? {}).length + Object.keys(VARIES[module] ?? {}).length;
  const passed = total - failed;
  return `${passed}/${total} (${Math.floor((passed / total) * 100)} %)`;
}
