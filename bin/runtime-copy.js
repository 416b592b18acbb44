// Node refuses to strip TypeScript types from files under node_modules
// (ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING), and an installed runjs lives there. So the
// runtime files are copied once per version and content to a per-user cache directory, with a
// node_modules directory of symlinks that resolves every dependency exactly as it resolves from
// the installed package (its own node_modules first, then each ancestor's).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

/** What the server and its workers load at run time (relative to the package root). */
const RUNTIME_ENTRIES = ['package.json', 'bin', 'supervisor', 'worker', 'shared'];
const COMPLETE_MARKER = '.runjs-complete';

function* filesOf(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesOf(full);
    else yield full;
  }
}

/** Version plus a digest of every runtime file's path, size and mtime: a reinstall gets a fresh copy. */
function fingerprint(root) {
  const hash = createHash('sha256');
  for (const entry of RUNTIME_ENTRIES) {
    const full = path.join(root, entry);
    if (!existsSync(full)) continue;
    const files = statSync(full).isDirectory() ? [...filesOf(full)] : [full];
    for (const f of files.sort()) {
      const st = statSync(f);
      hash.update(`${path.relative(root, f)}\0${st.size}\0${st.mtimeMs}\n`);
    }
  }
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return `${version}-${hash.digest('hex').slice(0, 16)}`;
}

/** Every node_modules directory Node would search from the package root, nearest first. */
function moduleDirs(root) {
  const dirs = [path.join(root, 'node_modules')];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    if (path.basename(dir) === 'node_modules') dirs.push(dir);
    else dirs.push(path.join(dir, 'node_modules'));
    if (path.dirname(dir) === dir) break;
  }
  return [...new Set(dirs)].filter((d) => existsSync(d) && statSync(d).isDirectory());
}

/** dest/node_modules: a symlink per package, the nearest directory's version winning. */
function linkDependencies(root, dest, selfName) {
  const target = path.join(dest, 'node_modules');
  mkdirSync(target);
  const taken = new Set([selfName]);
  for (const dir of moduleDirs(root)) {
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('.')) continue;
      const from = path.join(dir, entry);
      if (entry.startsWith('@') && lstatSync(from).isDirectory()) {
        mkdirSync(path.join(target, entry), { recursive: true });
        for (const pkg of readdirSync(from)) {
          const name = `${entry}/${pkg}`;
          if (taken.has(name)) continue;
          taken.add(name);
          symlinkSync(path.join(from, pkg), path.join(target, entry, pkg), 'dir');
        }
      } else if (!taken.has(entry)) {
        taken.add(entry);
        symlinkSync(from, path.join(target, entry), 'dir');
      }
    }
  }
}

/** A directory only this user can write: ~/.cache/runjs-mcp, else a fresh private temp dir. */
function cacheBase() {
  try {
    const dir = path.join(homedir(), '.cache', 'runjs-mcp');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return mkdtempSync(path.join(tmpdir(), 'runjs-mcp-'));
  }
}

/** Returns a directory outside node_modules holding the runtime files of the package at `root`. */
export function prepareRuntimeCopy(root) {
  const { name } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const base = cacheBase();
  const dest = path.join(base, fingerprint(root));
  if (existsSync(path.join(dest, COMPLETE_MARKER))) return dest;
  // Build beside the final name and rename: a concurrent start either wins or uses the winner's.
  const staging = mkdtempSync(`${dest}.staging-`);
  try {
    for (const entry of RUNTIME_ENTRIES) {
      if (existsSync(path.join(root, entry))) cpSync(path.join(root, entry), path.join(staging, entry), { recursive: true });
    }
    linkDependencies(root, staging, name);
    writeFileSync(path.join(staging, COMPLETE_MARKER), `${root}\n`);
    try {
      renameSync(staging, dest);
    } catch (e) {
      if (!existsSync(path.join(dest, COMPLETE_MARKER))) throw e;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return dest;
}
