// The base image on disk, so a worker that starts (or is respawned after a kill) restores it in
// a few ms instead of evaluating the prelude in a cold interpreter (80–300 ms). Keyed by
// everything the image depends on: the wasm build, the prelude, the engine bridge and this
// layout's version. Every tenant's fresh run boots from this file, so it is only trusted in a
// directory that belongs to this user alone; anything unexpected means "build it again".
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeapImage } from '../../../shared/heap-image.ts';
import { decodeHeapImage, encodeHeapImage } from '../../../shared/image-store.ts';

/** Bump when base-image.ts changes what it builds (handles, scratch layout, limits switched on). */
const LAYOUT_VERSION = 1;

export interface BaseImageKey {
  readonly build: string;
  readonly prelude: string;
  readonly bridgeSource: string;
}

let configuredDir: string | undefined;

/** The directory to use (worker/main.ts passes the worker's --quickjs-cache-dir; tests their own). */
export function setBaseImageCacheDir(dir: string | undefined): void {
  configuredDir = dir;
}

function cacheDir(): string {
  return configuredDir ?? join(tmpdir(), `runjs-quickjs-${process.getuid?.() ?? 'user'}`);
}

/** True when `dir` exists, is ours and nobody else may write into it. */
function privateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    return st.isDirectory() && (process.getuid === undefined || st.uid === process.getuid()) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function fileName(key: BaseImageKey): string {
  const digest = createHash('sha256').update(`${LAYOUT_VERSION}\n${key.build}\n${key.prelude}\n${key.bridgeSource}`).digest('hex').slice(0, 32);
  return `base-${digest}.img`;
}

/** The cached base image for `key`, if a valid one is there. */
export function readCachedBaseImage(key: BaseImageKey): HeapImage | undefined {
  const dir = cacheDir();
  if (!privateDir(dir)) return undefined;
  try {
    const image = decodeHeapImage(readFileSync(join(dir, fileName(key))));
    const m = image.manifest;
    return m.build === key.build && m.prelude === key.prelude && m.generation === 0 ? image : undefined;
  } catch {
    return undefined; // missing or unreadable: the caller builds it
  }
}

/** Stores a freshly built base image for the next worker; failures only cost that worker a rebuild. */
export function writeCachedBaseImage(key: BaseImageKey, image: HeapImage): void {
  const dir = cacheDir();
  if (!privateDir(dir)) return;
  const file = join(dir, fileName(key));
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, encodeHeapImage(image), { mode: 0o600 });
    renameSync(tmp, file); // atomic: concurrent workers never read a half-written file
  } catch { /* read-only or full disk */ }
}
