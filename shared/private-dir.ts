// A directory only this user can write: runjs's caches (compiled modules, the QuickJS base
// image) decide what code and heap every later process runs, so one that someone else could
// write into — or a symlink someone planted in a shared tmp — is never used.
import { lstatSync, mkdirSync } from 'node:fs';

/** Creates `dir` (mode 0700) if missing; true when it is a plain directory of ours that nobody else may write. */
export function ensurePrivateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    const uid = process.getuid?.();
    return st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}
