// The platform parts evaluated once into the QuickJS base image, after the prelude: a run that
// uses them restores them with the heap instead of fetching and compiling them
// (worker/guest/platform/core/parts.js, preloadParts). The rest stay lazy: each costs image bytes
// every realm copies. V8's startup snapshot keeps the prelude only: with these parts an isolate's
// start went from 2.4 to 8.8 ms (docs/benchmarks.md). The base image's cache key and manifest use
// the whole guest platform's version (worker/engines/quickjs/guest-version.ts).
import { readPartSource } from '../ops/platform/platform-ops.ts';

/** In dependency order (a part's `runjs:part/…` imports come before it). */
export const PRELOADED_PARTS: readonly string[] = ['web', 'streams', 'fetch', 'buffer', 'events', 'path'];

function load(): string {
  const out: Record<string, string> = {};
  for (const name of PRELOADED_PARTS) {
    const src = readPartSource(name);
    if (src === undefined) throw new Error(`runjs: platform part '${name}' is missing (run scripts/gen-guest-bundle.ts)`);
    out[name] = src;
  }
  return JSON.stringify(out);
}

/** The `{name: body}` JSON handed to the prelude's preloadParts. */
export const PRELOAD_JSON: string = load();
