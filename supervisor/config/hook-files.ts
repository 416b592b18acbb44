// The `fs` capability of a JavaScript policy hook: read-only access to the files of the hook's own
// directory (and its subdirectories), read here, at startup, and shipped with the hook's source
// (JsHookSource.files), so a worker never opens a policy file itself (its OS sandbox need not
// grant the policy directory) and a hook sees one consistent copy for the server's lifetime.
// Only regular files are taken; symlinks and dot-entries are skipped, so nothing outside the
// directory (nor an editor's swap file) comes along. docs/policies.md describes the hook's view.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HookFiles } from '../../shared/policy-settings.ts';

/** At most this many files… */
export const MAX_HOOK_FILES = 1000;
/** …and this many bytes in all, per hook. */
export const MAX_HOOK_FILES_BYTES = 8 * 1024 * 1024;
const MAX_DEPTH = 8;

/** The files beside `hookFile`, by path relative to its directory (`/`-separated), base64; throws a plain message on a limit. */
export function readHookFiles(hookFile: string): HookFiles {
  const root = dirname(hookFile);
  const files: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  const walk = (dir: string, rel: string, depth: number): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const abs = join(dir, name);
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(abs);
      if (st.isDirectory()) {
        if (depth < MAX_DEPTH) walk(abs, path, depth + 1);
        continue;
      }
      if (!st.isFile()) continue;
      if (++count > MAX_HOOK_FILES) throw new Error(`${root} holds more than ${MAX_HOOK_FILES} files; the fs capability reads them all at startup`);
      bytes += st.size;
      if (bytes > MAX_HOOK_FILES_BYTES) throw new Error(`${root} holds more than ${MAX_HOOK_FILES_BYTES} bytes of files; the fs capability reads them all at startup`);
      files[path] = readFileSync(abs).toString('base64');
    }
  };
  walk(root, '', 0);
  return { root, files };
}
