// The slice of node:fs/promises the dir backend uses. It is injectable so tests can make a real
// store hit ENOSPC or EIO at an exact step, which a healthy test machine cannot do on demand.
import * as fsp from 'node:fs/promises';

export interface DirFileHandle {
  writeFile(data: Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface DirFs {
  open(path: string, flags: string, mode?: number): Promise<DirFileHandle>;
  mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
  link(existingPath: string, newPath: string): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<{ size: number; mtimeMs: number; isFile(): boolean }>;
  readFile(path: string): Promise<Uint8Array>;
  readdir(path: string): Promise<string[]>;
  utimes(path: string, atime: Date, mtime: Date): Promise<void>;
}

export const nodeDirFs: DirFs = {
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  mkdir: (path, options) => fsp.mkdir(path, options),
  link: (a, b) => fsp.link(a, b),
  rename: (a, b) => fsp.rename(a, b),
  unlink: (path) => fsp.unlink(path),
  stat: (path) => fsp.stat(path),
  readFile: (path) => fsp.readFile(path),
  readdir: (path) => fsp.readdir(path),
  utimes: (path, atime, mtime) => fsp.utimes(path, atime, mtime),
};

/** The error's errno code (`ENOENT`, `ENOSPC`, …), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
