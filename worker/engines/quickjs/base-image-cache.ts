// The base image on disk, so a worker that starts (or is respawned after a kill) restores it in
// a few ms instead of evaluating the prelude in a cold interpreter (80–300 ms). Keyed by
// everything the image depends on: the wasm build, the prelude, the engine bridge and the
// engine's own source files (what base-image.ts builds and how images are laid out). Every
// tenant's fresh run boots from this file, so it is only trusted in a directory that belongs to
// this user alone, and only when its content hash matches; anything unexpected means "build it
// again" — and a file that fails anyway (the engine reports it) is deleted, so one bad file never
// breaks every worker that starts after it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeapImage } from '../../../shared/heap-image.ts';
import { decodeHeapImage, encodeHeapImage } from '../../../shared/image-store.ts';
import { ensurePrivateDir } from '../../../shared/private-dir.ts';
import { once } from '../../../shared/once.ts';

/** A cache file: this magic, the sha256 of the rest, then the encoded image. */
const FILE_MAGIC = Buffer.from('RJBC0001', 'latin1');
const DIGEST_BYTES = 32;
const HEADER_BYTES = FILE_MAGIC.byteLength + DIGEST_BYTES;

export interface BaseImageKey {
  readonly build: string;
  readonly prelude: string;
  readonly bridgeSource: string;
}

/** The directory a QuickJS engine uses when none is given (the worker's settings name one). */
export function defaultBaseImageCacheDir(): string {
  return join(tmpdir(), `runjs-quickjs-${process.getuid?.() ?? 'user'}`);
}

/**
 * sha256 over this directory's source files (the engine layer): a change to how the base image is
 * built or laid out gets a new key by itself, with no version number to remember to bump.
 */
const engineSourcesDigest = once((): string => {
  const dir = new URL('.', import.meta.url);
  const hash = createHash('sha256');
  for (const f of readdirSync(dir).filter((n) => /\.(ts|js)$/.test(n)).sort()) {
    hash.update(`${f}\n`).update(readFileSync(new URL(f, dir))).update('\n');
  }
  return hash.digest('hex');
});

function fileName(key: BaseImageKey): string {
  const digest = createHash('sha256').update(`${engineSourcesDigest()}\n${key.build}\n${key.prelude}\n${key.bridgeSource}`).digest('hex').slice(0, 32);
  return `base-${digest}.img`;
}

/** The cached base image for `key`, if a valid one is there (its content hash checked). */
export function readCachedBaseImage(dir: string, key: BaseImageKey): HeapImage | undefined {
  if (!ensurePrivateDir(dir)) return undefined;
  try {
    const file = readFileSync(join(dir, fileName(key)));
    if (file.byteLength < HEADER_BYTES || !file.subarray(0, FILE_MAGIC.byteLength).equals(FILE_MAGIC)) return undefined;
    const blob = file.subarray(HEADER_BYTES);
    const digest = createHash('sha256').update(blob).digest();
    if (!digest.equals(file.subarray(FILE_MAGIC.byteLength, HEADER_BYTES))) return undefined;
    const image = decodeHeapImage(blob);
    const m = image.manifest;
    return m.build === key.build && m.prelude === key.prelude && m.generation === 0 ? image : undefined;
  } catch {
    return undefined; // missing or unreadable: the caller builds it
  }
}

/** Stores a freshly built base image for the next worker; failures only cost that worker a rebuild. */
export function writeCachedBaseImage(dir: string, key: BaseImageKey, image: HeapImage): void {
  if (!ensurePrivateDir(dir)) return;
  const file = join(dir, fileName(key));
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const blob = encodeHeapImage(image);
    const digest = createHash('sha256').update(blob).digest();
    writeFileSync(tmp, Buffer.concat([FILE_MAGIC, digest, blob]), { mode: 0o600 });
    renameSync(tmp, file); // atomic: concurrent workers never read a half-written file
  } catch {
    // read-only or full disk: leave nothing half-written behind
    try { unlinkSync(tmp); } catch { /* never created */ }
  }
}

/** Deletes the cached base image for `key`: it passed the checks but failed to restore or run. */
export function discardCachedBaseImage(dir: string, key: BaseImageKey): void {
  try { unlinkSync(join(dir, fileName(key))); } catch { /* already gone */ }
}
