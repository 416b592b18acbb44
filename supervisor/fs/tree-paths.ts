// Names and paths inside a snapshot. A path is relative (`src/app.ts`), `/`-separated, and every
// component is a real name: not empty, not `.` or `..`, no NUL, at most NAME_MAX_BYTES of UTF-8.
// Checked when a tree is written and again when one is read, so neither a caller nor a tampered
// store can make a tree that reaches outside its root once the mount slice maps it onto disk.
import { RunjsError } from '../../shared/errors.ts';

export const NAME_MAX_BYTES = 255;
export const PATH_MAX_BYTES = 4096;

/** Why `name` cannot be a directory entry, or undefined when it can. */
export function checkName(name: string): string | undefined {
  if (name === '') return 'empty name';
  if (name === '.' || name === '..') return `'${name}' is not a name`;
  if (name.includes('/')) return 'a name cannot contain /';
  if (name.includes('\0')) return 'a name cannot contain NUL';
  if (Buffer.byteLength(name, 'utf8') > NAME_MAX_BYTES) return `a name is at most ${NAME_MAX_BYTES} bytes`;
  if (name.isWellFormed !== undefined && !name.isWellFormed()) return 'a name must be valid Unicode';
  return undefined;
}

/** The components of a snapshot path; throws FS_INVALID_PATH (400) for anything hostile or malformed. */
export function splitPath(path: unknown): string[] {
  if (typeof path !== 'string') throw new RunjsError('FS_INVALID_PATH', String(path), 'expected a string');
  if (Buffer.byteLength(path, 'utf8') > PATH_MAX_BYTES) throw new RunjsError('FS_INVALID_PATH', path, `a path is at most ${PATH_MAX_BYTES} bytes`);
  if (path.startsWith('/')) throw new RunjsError('FS_INVALID_PATH', path, 'paths are relative to the snapshot root (no leading /)');
  const parts = path.split('/');
  for (const p of parts) {
    const bad = checkName(p);
    if (bad !== undefined) throw new RunjsError('FS_INVALID_PATH', path, bad);
  }
  return parts;
}
