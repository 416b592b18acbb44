// node:path: POSIX is the path-browserify port of Node's path module (scripts run on a
// POSIX-shaped system whose working directory is "/"). path.win32 and matchesGlob, which
// path-browserify lacks, are computed by the host's node:path (op path.call): exact, and rare
// enough that a host call per use is fine.
import path from 'path-browserify';
import core from 'runjs:part/core';

const { op } = core.host;
const { invalidArgType } = core.shared;

// Node's argument checks (path-browserify throws untyped errors with other texts).
function checkString(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value);
}
const browserify = { ...path };
for (const fn of ['normalize', 'isAbsolute', 'dirname', 'extname', 'parse']) {
  path[fn] = (p) => { checkString(p, 'path'); return browserify[fn](p); };
}
path.join = (...parts) => { for (const p of parts) checkString(p, 'path'); return browserify.join(...parts); };
path.resolve = (...parts) => { for (let i = parts.length - 1; i >= 0; i--) checkString(parts[i], `paths[${i}]`); return browserify.resolve(...parts); };
path.relative = (from, to) => { checkString(from, 'from'); checkString(to, 'to'); return browserify.relative(from, to); };
path.basename = (p, suffix = undefined) => {
  if (suffix !== undefined) checkString(suffix, 'suffix');
  checkString(p, 'path');
  return suffix === undefined ? browserify.basename(p) : browserify.basename(p, suffix);
};
/** Node 20+'s format: an `ext` without its leading dot gets one. */
path.format = (pathObject) => {
  if (typeof pathObject !== 'object' || pathObject === null || Array.isArray(pathObject)) throw invalidArgType('pathObject', 'of type object', pathObject);
  const dir = pathObject.dir || pathObject.root;
  const ext = pathObject.ext ? `${pathObject.ext[0] === '.' ? '' : '.'}${pathObject.ext}` : '';
  const base = pathObject.base || `${pathObject.name || ''}${ext}`;
  if (!dir) return base;
  return dir === pathObject.root ? `${dir}${base}` : `${dir}/${base}`;
};

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
