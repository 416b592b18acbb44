// Node's module compile cache for runjs's own processes. runjs runs its TypeScript sources
// directly, so every process start type-strips and compiles a few hundred modules (≈ 230 ms of a
// worker's boot, which is on the path of a killed worker's replacement); Node 24 caches both the
// stripped source and V8's code cache, keyed by the file's contents, and skips that work on the
// next start. The directory is per user and checked before use: whoever can write it decides what
// code runjs runs.
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ensurePrivateDir } from '../shared/private-dir.ts';

let dir: string | null | undefined;

/**
 * The cache directory runjs's processes share: `<os tmp>/runjs-compile-cache-<uid>`, created
 * with mode 0700. Undefined when it cannot be used safely (not a plain directory owned by this
 * user and closed to others) or at all; runjs then runs without the cache.
 */
export function compileCacheDir(): string | undefined {
  if (dir !== undefined) return dir ?? undefined;
  dir = null;
  const uid = process.getuid?.();
  const candidate = path.join(os.tmpdir(), `runjs-compile-cache-${uid ?? os.userInfo().username}`);
  if (!ensurePrivateDir(candidate)) return undefined;
  dir = candidate;
  return dir;
}

/** Enables the cache for this process's modules loaded from now on (best effort: never fails). */
export function enableCompileCache(): void {
  const target = compileCacheDir();
  if (target === undefined || typeof module.enableCompileCache !== 'function') return;
  try {
    module.enableCompileCache(target);
  } catch { /* the cache is an optimisation */ }
}

/** Writes what this process has compiled so far (a process killed later would lose it). */
export function persistCompileCache(): void {
  try {
    module.flushCompileCache?.();
  } catch { /* the cache is an optimisation */ }
}
