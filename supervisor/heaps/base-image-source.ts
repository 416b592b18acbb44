// Where the supervisor finds the engine's base image (the state every fresh heap-mode run boots
// from), so HeapStore can store fresh runs as deltas against it: the workers' on-disk base-image
// cache, keyed by the wasm build and prelude an image's manifest names plus the engine bridge.
// Workers write that file when they boot, before any run, so it is there by the time the first
// image is stored; when it is not (an unwritable cache directory), fresh runs are stored whole.
import { readFileSync } from 'node:fs';
import type { HeapImage, HeapImageManifest } from '../../shared/heap-image.ts';
import { readCachedBaseImage } from '../../worker/engines/quickjs/base-image-cache.ts';
import { QUICKJS_CACHE_DIR } from '../pool/worker-process.ts';

const BRIDGE_SOURCE = readFileSync(new URL('../../worker/engines/quickjs/bridge.js', import.meta.url), 'utf8');

export function cachedBaseImage(manifest: HeapImageManifest): HeapImage | undefined {
  return readCachedBaseImage(QUICKJS_CACHE_DIR, { build: manifest.build, prelude: manifest.prelude, bridgeSource: BRIDGE_SOURCE });
}
