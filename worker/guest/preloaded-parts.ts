// The platform parts both engines evaluate once into their boot image (the QuickJS base image,
// the V8 startup snapshot), after the prelude: a run that uses them restores them with the heap
// instead of fetching and compiling them (worker/guest/platform/core/parts.js, preloadParts).
// The rest stay lazy: each costs image bytes every realm copies (QuickJS) or deserialises (V8).
import { createHash } from 'node:crypto';
import { partSource } from '../ops/platform/platform-ops.ts';
import { PRELUDE_HASH } from './prelude-source.ts';

/** In dependency order (a part's `runjs:part/…` imports come before it). */
export const PRELOADED_PARTS: readonly string[] = ['web', 'streams', 'fetch', 'buffer', 'events', 'path'];

function load(): string {
  const out: Record<string, string> = {};
  for (const name of PRELOADED_PARTS) {
    const src = partSource(name);
    if (src === undefined) throw new Error(`runjs: platform part '${name}' is missing (run scripts/gen-guest-bundle.ts)`);
    out[name] = src;
  }
  return JSON.stringify(out);
}

/** The `{name: body}` JSON handed to the prelude's preloadParts. */
export const PRELOAD_JSON: string = load();
/** Changes whenever the prelude or a preloaded part changes; keys base images and snapshots. */
export const BOOT_IMAGE_HASH: string = createHash('sha256').update(PRELUDE_HASH).update(PRELOAD_JSON).digest('hex').slice(0, 16);
