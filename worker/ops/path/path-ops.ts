// node:path's Windows flavour (path.win32) and path.matchesGlob, which path-browserify lacks:
// computed by the host's own node:path, so results and error texts are Node's. The working
// directory is runjs's "/": resolve(), relative() and toNamespacedPath() never see the host's.
import path from 'node:path';
import { OpError, type OpFactory } from '../op-types.ts';

/** The functions the guest may call, and how many leading arguments are paths to resolve against "/". */
const WIN32 = new Set(['basename', 'dirname', 'extname', 'format', 'isAbsolute', 'join', 'normalize', 'parse', 'relative', 'resolve', 'toNamespacedPath', 'matchesGlob']);
const POSIX = new Set(['matchesGlob']);

/**
 * Node's win32.toNamespacedPath (Node 24, lib/path.js), resolving against "/": Node's own
 * resolves a relative or drive-relative path against the process's working directory, which
 * would put the worker's directory into the result (`toNamespacedPath('foo')` → `\\srv\\runjs\\foo`).
 */
function toNamespacedPath(p: unknown): unknown {
  if (typeof p !== 'string' || p.length === 0) return p;
  const resolved = path.win32.resolve('/', p);
  if (resolved.length <= 2) return p;
  if (resolved.startsWith('\\')) {
    // A UNC root (`\\server\share`) becomes a long UNC path; `\\?\` and `\\.\` stay as they are.
    const c = resolved.charAt(2);
    if (resolved.charAt(1) === '\\' && c !== '?' && c !== '.') return `\\\\?\\UNC\\${resolved.slice(2)}`;
  } else if (/^[A-Za-z]:\\/.test(resolved)) {
    return `\\\\?\\${resolved}`;
  }
  return resolved;
}

function call(flavour: 'win32' | 'posix', fn: string, args: unknown[]): unknown {
  const p = flavour === 'win32' ? path.win32 : path.posix;
  switch (fn) {
    case 'resolve': return path.win32.resolve('/', ...(args as string[]));
    case 'toNamespacedPath': return toNamespacedPath(args[0]);
    case 'relative': {
      const [from, to] = args as [string, string];
      if (typeof from !== 'string' || typeof to !== 'string') return path.win32.relative(from, to); // Node's argument error
      return path.win32.relative(path.win32.resolve('/', from), path.win32.resolve('/', to));
    }
    default: return (p[fn as keyof typeof p] as (...a: unknown[]) => unknown)(...args);
  }
}

/** The capability's ops; they need no settings. */
export const createPathOps: OpFactory = () => ({
  'path.call': {
    kind: 'sync',
    run(args) {
      if (typeof args !== 'object' || args === null) throw new OpError('path.call expects an object', 'TypeError');
      const a = args as { flavour?: unknown; fn?: unknown; args?: unknown };
      const flavour = a.flavour === 'win32' ? 'win32' : a.flavour === 'posix' ? 'posix' : undefined;
      if (flavour === undefined || typeof a.fn !== 'string' || !(flavour === 'win32' ? WIN32 : POSIX).has(a.fn) || !Array.isArray(a.args)) {
        throw new OpError('path.call: unknown function', 'TypeError');
      }
      try {
        return call(flavour, a.fn, a.args as unknown[]);
      } catch (e) {
        throw new OpError(e instanceof Error ? e.message : String(e), e instanceof TypeError ? 'TypeError' : 'Error', (e as { code?: string }).code);
      }
    },
  },
});
