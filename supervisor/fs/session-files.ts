// A session's files without a run: its latest snapshot (the session log's last output_fs) read by
// path, and native mutations (write, append, delete, rename) that commit a new snapshot and append
// it to the session log, exactly as a run would. Paths are relative to the mount point, with or
// without a leading "/work/" or "/". REST: /api/sessions/{session}/dir|entries|files/{path} and
// POST /api/sessions/{session}/fs.
import { RunjsError } from '../../shared/errors.ts';
import { MOUNT_POINT } from '../../shared/fs-mount.ts';
import { policyInput } from '../../worker/ops/fs/fs-ops.ts';
import type { SessionLog } from '../heaps/session-log.ts';
import type { SupervisorPolicy } from '../policy/supervisor-policy.ts';
import type { FsService } from './fs-service.ts';
import type { FsChange, FsStore } from './fs-store.ts';
import type { TreeEntry } from './tree-format.ts';

const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const MAX_HOPS = 40;

export interface SessionDirListing { readonly names: string[] }
export interface SessionFileEntry { readonly kind: 'file' | 'directory' | 'symlink'; readonly mode: number; readonly readonly: boolean; readonly size: number; readonly modified_ms: number | null }

export type SessionFsOp =
  | { readonly op: 'mkdir'; readonly path: string; readonly recursive?: boolean | null }
  | { readonly op: 'rename'; readonly path: string; readonly to?: string | null }
  | { readonly op: 'exists' | 'readlink' | 'canonical'; readonly path: string };

/** "a/b" from "/work/a/b", "/a/b" or "a/b"; `.` and `..` resolved inside the tree (never above its root). */
export function sessionPath(raw: string): string {
  if (raw.includes('\0')) throw new RunjsError('FS_INVALID_PATH', raw, 'contains a NUL byte');
  let p = raw;
  if (p === MOUNT_POINT || p.startsWith(`${MOUNT_POINT}/`)) p = p.slice(MOUNT_POINT.length);
  const out: string[] = [];
  for (const c of p.split('/')) {
    if (c === '' || c === '.') continue;
    if (c === '..') out.pop();
    else out.push(c);
  }
  return out.join('/');
}

export interface SessionFilesOptions {
  readonly now?: () => string;
  /**
   * Decides the `filesystem` category on every route, with the input document a run's fs calls
   * get (worker/ops/fs/fs-ops.ts policyInput): absolute /work paths. Without it everything is allowed.
   */
  readonly policy?: SupervisorPolicy;
}

/** The absolute guest path a run would use for `raw` (`/work/a/b`; `/work` for the mount point). */
function guestPath(raw: string): string {
  const p = sessionPath(raw);
  return p === '' ? MOUNT_POINT : `${MOUNT_POINT}/${p}`;
}

export class SessionFiles {
  readonly #fs: FsService;
  readonly #log: SessionLog;
  readonly #now: () => string;
  readonly #policy: SupervisorPolicy | undefined;

  constructor(fs: FsService, log: SessionLog, opts: SessionFilesOptions = {}) {
    this.#fs = fs;
    this.#log = log;
    this.#now = opts.now ?? (() => new Date().toISOString());
    this.#policy = opts.policy;
  }

  /** The filesystem policy on one operation (`args` as a run's fs.call passes them); 403 on a denial. */
  async #authorize(args: Record<string, unknown>): Promise<void> {
    if (this.#policy === undefined || !this.#policy.configured('filesystem')) return;
    const input = policyInput(args);
    const d = await this.#policy.decide('filesystem', input);
    if ('failed' in d) throw new RunjsError('SESSION_FS_POLICY_FAILED', d.failed);
    if (!d.allow) throw new RunjsError('SESSION_FS_DENIED', input.operation, input.path, d.reason);
  }

  get #store(): FsStore {
    return this.#fs.store;
  }

  /** The session's current snapshot (undefined: nothing yet, an empty tree). */
  #root(session: string): string | undefined {
    return this.#log.latestFs(session);
  }

  /** The entry at `path` (symlinks followed when `follow`, and always in the middle); its canonical path. */
  async #resolve(session: string, raw: string, follow: boolean): Promise<{ entry: TreeEntry; path: string } | undefined> {
    const root = this.#root(session);
    let todo = sessionPath(raw).split('/').filter((c) => c !== '');
    if (root === undefined) return todo.length === 0 ? { entry: { kind: 'dir', id: await this.#store.emptyTree() }, path: '' } : undefined;
    let hops = 0;
    outer: for (;;) {
      let dir: TreeEntry = { kind: 'dir', id: root };
      const at: string[] = [];
      for (let i = 0; i < todo.length; i++) {
        if (dir.kind !== 'dir') return undefined;
        const next: TreeEntry | undefined = await this.#store.entry(dir.id, todo[i]!);
        if (next === undefined) return undefined;
        const last = i === todo.length - 1;
        if (next.kind === 'symlink' && (!last || follow)) {
          if (++hops > MAX_HOPS) return undefined;
          const t = next.target;
          if (t.startsWith('/') && !(t === MOUNT_POINT || t.startsWith(`${MOUNT_POINT}/`))) return undefined;
          const abs = t.startsWith('/') ? t : `${MOUNT_POINT}/${[...at, t].join('/')}`;
          todo = [...sessionPath(abs).split('/').filter((c) => c !== ''), ...todo.slice(i + 1)];
          continue outer;
        }
        at.push(todo[i]!);
        dir = next;
      }
      return { entry: dir, path: at.join('/') };
    }
  }

  async #existing(session: string, raw: string, follow: boolean): Promise<{ entry: TreeEntry; path: string }> {
    const r = await this.#resolve(session, raw, follow);
    if (r === undefined) throw new RunjsError('SESSION_PATH_NOT_FOUND', `${MOUNT_POINT}/${sessionPath(raw)}`);
    return r;
  }

  async dir(session: string, raw: string): Promise<SessionDirListing> {
    await this.#authorize({ op: 'readdir', path: guestPath(raw) });
    const { entry, path } = await this.#existing(session, raw, true);
    if (entry.kind !== 'dir') throw new RunjsError('SESSION_PATH_NOT_A_DIRECTORY', `${MOUNT_POINT}/${path}`);
    return { names: [...(await this.#store.listDir(entry.id)).keys()].sort() };
  }

  async entry(session: string, raw: string, follow: boolean): Promise<SessionFileEntry> {
    await this.#authorize({ op: follow ? 'stat' : 'lstat', path: guestPath(raw) });
    const { entry } = await this.#existing(session, raw, follow);
    if (entry.kind === 'file') return { kind: 'file', mode: S_IFREG | entry.mode, readonly: false, size: entry.size, modified_ms: null };
    if (entry.kind === 'symlink') return { kind: 'symlink', mode: S_IFLNK | 0o777, readonly: false, size: Buffer.byteLength(entry.target), modified_ms: null };
    return { kind: 'directory', mode: S_IFDIR | 0o755, readonly: false, size: 0, modified_ms: null };
  }

  async read(session: string, raw: string, offset = 0, maxBytes?: number): Promise<Uint8Array> {
    await this.#authorize({ op: 'readFile', path: guestPath(raw), encoding: 'buffer' });
    const { entry, path } = await this.#existing(session, raw, true);
    if (entry.kind !== 'file') throw new RunjsError('SESSION_PATH_NOT_A_FILE', `${MOUNT_POINT}/${path}`);
    const bytes = await this.#store.readFile(entry);
    return bytes.subarray(Math.min(offset, bytes.length), maxBytes === undefined ? bytes.length : Math.min(bytes.length, offset + maxBytes));
  }

  /** Commits `changes` onto the session's snapshot and logs it (code says what the mutation was). */
  async #commit(session: string, changes: ReadonlyMap<string, FsChange>, what: string): Promise<string> {
    const latest = this.#log.latest(session);
    const id = await this.#store.commit(this.#root(session), changes);
    this.#log.append(session, { code: `// ${what}`, input_heap: latest?.output_heap ?? null, output_heap: latest?.output_heap ?? null, output_fs: id, timestamp: this.#now() });
    return id;
  }

  async write(session: string, raw: string, bytes: Uint8Array, append: boolean): Promise<string> {
    const path = sessionPath(raw);
    if (path === '') throw new RunjsError('SESSION_PATH_NOT_A_FILE', MOUNT_POINT);
    await this.#authorize({ op: 'writeFile', path: guestPath(raw), flag: append ? 'a' : 'w' });
    let content = bytes;
    const existing = await this.#resolve(session, path, false);
    if (existing !== undefined && existing.entry.kind === 'dir') throw new RunjsError('SESSION_PATH_NOT_A_FILE', `${MOUNT_POINT}/${path}`);
    const mode = existing?.entry.kind === 'file' ? existing.entry.mode : undefined;
    if (append && existing?.entry.kind === 'file') content = Buffer.concat([await this.#store.readFile(existing.entry), bytes]);
    return this.#commit(session, new Map([[path, { kind: 'file', bytes: content, ...(mode !== undefined ? { mode } : {}) }]]), `${append ? 'append' : 'write'} ${MOUNT_POINT}/${path}`);
  }

  async remove(session: string, raw: string, recursive: boolean): Promise<string> {
    await this.#authorize({ op: 'rm', path: guestPath(raw), recursive });
    const { entry, path } = await this.#existing(session, raw, false);
    if (path === '') throw new RunjsError('FS_INVALID_PATH', MOUNT_POINT, 'the mount point itself cannot be removed');
    if (entry.kind === 'dir' && !recursive && (await this.#store.listDir(entry.id)).size > 0) throw new RunjsError('SESSION_DIR_NOT_EMPTY', `${MOUNT_POINT}/${path}`);
    return this.#commit(session, new Map([[path, { kind: 'delete' }]]), `delete ${MOUNT_POINT}/${path}`);
  }

  async op(session: string, req: SessionFsOp): Promise<Record<string, unknown>> {
    const path = guestPath(req.path);
    switch (req.op) {
      case 'exists': case 'readlink': await this.#authorize({ op: req.op, path }); break;
      case 'canonical': await this.#authorize({ op: 'realpath', path }); break;
      case 'mkdir': await this.#authorize({ op: 'mkdir', path, recursive: req.recursive === true }); break;
      case 'rename':
        if (typeof req.to !== 'string' || req.to === '') throw new RunjsError('SESSION_FS_OP_INVALID', 'rename needs `to`');
        await this.#authorize({ op: 'rename', path, dest: guestPath(req.to) });
        break;
      default: break;
    }
    switch (req.op) {
      case 'exists': return { exists: (await this.#resolve(session, req.path, true)) !== undefined };
      case 'canonical': {
        const { path } = await this.#existing(session, req.path, true);
        return { path: path === '' ? MOUNT_POINT : `${MOUNT_POINT}/${path}` };
      }
      case 'readlink': {
        const { entry, path } = await this.#existing(session, req.path, false);
        if (entry.kind !== 'symlink') throw new RunjsError('SESSION_PATH_NOT_A_SYMLINK', `${MOUNT_POINT}/${path}`);
        return { target: entry.target };
      }
      case 'mkdir': {
        // Directories exist through what they hold (the store keeps no empty ones): nothing to commit.
        const path = sessionPath(req.path);
        const found = await this.#resolve(session, path, true);
        if (found !== undefined && found.entry.kind !== 'dir') throw new RunjsError('SESSION_PATH_NOT_A_DIRECTORY', `${MOUNT_POINT}/${path}`);
        return { path: `${MOUNT_POINT}/${path}`, created: false };
      }
      case 'rename': {
        if (typeof req.to !== 'string' || req.to === '') throw new RunjsError('SESSION_FS_OP_INVALID', 'rename needs `to`');
        const from = await this.#existing(session, req.path, false);
        const to = sessionPath(req.to);
        if (from.path === '' || to === '') throw new RunjsError('FS_INVALID_PATH', MOUNT_POINT, 'the mount point itself cannot be renamed');
        if (to === from.path) return { ca_id: this.#root(session) ?? null };
        if (to.startsWith(`${from.path}/`)) throw new RunjsError('FS_INVALID_PATH', `${MOUNT_POINT}/${to}`, 'a directory cannot move into itself');
        const changes = new Map<string, FsChange>([[from.path, { kind: 'delete' }]]);
        const put = async (e: TreeEntry, path: string): Promise<void> => {
          if (e.kind === 'file') changes.set(path, { kind: 'file', bytes: await this.#store.readFile(e), mode: e.mode });
          else if (e.kind === 'symlink') changes.set(path, { kind: 'symlink', target: e.target });
          else for await (const [sub, child] of this.#store.walk(e.id)) if (child.kind !== 'dir') await put(child, `${path}/${sub}`);
        };
        await put(from.entry, to);
        return { ca_id: await this.#commit(session, changes, `rename ${MOUNT_POINT}/${from.path} ${MOUNT_POINT}/${to}`) };
      }
      default: throw new RunjsError('SESSION_FS_OP_INVALID', `unknown operation '${String((req as { op: unknown }).op)}': expected mkdir, rename, exists, readlink or canonical`);
    }
  }
}
