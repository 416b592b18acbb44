// The platform parts a V8 run's main module names, found on the host before the run starts, so
// the guest loads them before any of the script's code (core/parts.js, preloadNamed). A part
// compiled on the host during a run enters the isolate while the run waits, and isolated-vm ends
// that entry with a microtask checkpoint: the script's pending promise jobs then ran in the middle
// of its synchronous code (`Promise.resolve().then(f); new URL(u)` ran `f` before the next
// statement). The scan runs here, in the worker's warm JIT, not in the fresh isolate: there the
// same search cost ≈ 0.6 ms of every run, a trivial one included (docs/benchmarks.md).
import { GLOBAL_PARTS, MODULE_PARTS } from '../../guest/platform/core/lazy-table.js';

/** Longest source scanned (bigger ones load their parts on first use only). */
export const NAMED_SCAN_MAX_CHARS = 256 * 1024;

const globals: Readonly<Record<string, string>> = GLOBAL_PARTS;
const modules: Readonly<Record<string, string>> = MODULE_PARTS;
/** Every lazy global's name as a whole identifier (longest first, so no name stops at a prefix of another). */
const NAMED = new RegExp(`(?<![\\w$])(?:${Object.keys(globals).sort((a, b) => b.length - a.length).map((n) => n.replace(/\$/g, '\\$')).join('|')})(?![\\w$])`, 'g');
const SUBTLE = /\.\s*subtle(?![\w$])/;
const REQUIRED = /(?<![\w$.])(?:require|import)\s*\(\s*['"](?:node:)?([\w/]+)['"]/g;
const CONSOLE_EXTRA = /(?<![\w$])console\s*\.\s*(?:dir|dirxml|group|groupCollapsed|groupEnd|clear|count|countReset|assert|time|timeLog|timeEnd|table)(?![\w$])/;

/**
 * The parts providing the lazy globals `source` names and the builtin modules it requires or
 * imports by a literal (static imports load while the module graph links), plus the parts a
 * named global's members load on first use: `crypto.subtle` and the console methods the prelude
 * does not define. Not every part a use may reach: util (console.dir's inspect) and the streams
 * behind bodies still load on first use, so that a run with a small heap does not hold parts it
 * may never touch. A global reached only by a computed name loads on first use too.
 */
export function partsNamedIn(source: string): string[] {
  if (source.length > NAMED_SCAN_MAX_CHARS) return [];
  const wanted = new Set<string>();
  // NAMED matches the table's own keys only.
  for (const m of source.matchAll(NAMED)) wanted.add(globals[m[0]]!);
  for (const m of source.matchAll(REQUIRED)) if (Object.hasOwn(modules, m[1]!)) wanted.add(modules[m[1]!]!);
  if (SUBTLE.test(source)) wanted.add('webcrypto');
  if (CONSOLE_EXTRA.test(source)) wanted.add('web');
  return [...wanted];
}
