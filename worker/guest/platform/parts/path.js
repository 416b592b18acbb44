// node:path: POSIX is the path-browserify port of Node's path module (scripts run on a
// POSIX-shaped system whose working directory is "/"). path.win32 and matchesGlob, which
// path-browserify lacks, are computed by the host's node:path (op path.call): exact, and rare
// enough that a host call per use is fine.
import path from 'path-browserify';
import core from 'runjs:part/core';

const { op } = core.host;

function hostCall(flavour, fn) {
  return function (...args) {
    while (args.length > 0 && args[args.length - 1] === undefined) args.pop(); // JSON would make it null
    return op('path.call', { flavour, fn, args });
  };
}

path.toNamespacedPath = (p) => p;
path.matchesGlob = hostCall('posix', 'matchesGlob');

const win32 = { sep: '\\', delimiter: ';' };
for (const fn of ['basename', 'dirname', 'extname', 'format', 'isAbsolute', 'join', 'normalize', 'parse', 'relative', 'resolve', 'toNamespacedPath', 'matchesGlob']) {
  win32[fn] = hostCall('win32', fn);
}
win32.win32 = win32;
win32.posix = path;
path.win32 = win32;

export const modules = { path, 'path/posix': path, 'path/win32': win32 };
export const globals = {};
