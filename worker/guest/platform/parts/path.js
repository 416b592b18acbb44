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

// path.win32's arguments are checked here, as Node checks them, before the host call: JSON would
// drop a trailing undefined (join(undefined) must throw) and copy an object (toNamespacedPath(x)
// returns x itself when it is not a non-empty string).
const win32Checks = {
  basename: (p, suffix) => { if (suffix !== undefined) checkString(suffix, 'suffix'); checkString(p, 'path'); },
  dirname: (p) => checkString(p, 'path'),
  extname: (p) => checkString(p, 'path'),
  isAbsolute: (p) => checkString(p, 'path'),
  normalize: (p) => checkString(p, 'path'),
  parse: (p) => checkString(p, 'path'),
  join: (...parts) => { for (const p of parts) checkString(p, 'path'); },
  resolve: (...parts) => { for (let i = parts.length - 1; i >= 0; i--) checkString(parts[i], `paths[${i}]`); },
  relative: (from, to) => { checkString(from, 'from'); checkString(to, 'to'); },
  format: (o) => { if (typeof o !== 'object' || o === null) throw invalidArgType('pathObject', 'of type object', o); },
  matchesGlob: (p, pattern) => { checkString(p, 'path'); checkString(pattern, 'pattern'); },
};
const win32 = { sep: '\\', delimiter: ';' };
for (const fn of Object.keys(win32Checks)) {
  const call = hostCall('win32', fn);
  win32[fn] = (...args) => { win32Checks[fn](...args); return call(...args); };
}
const win32NamespacedPath = hostCall('win32', 'toNamespacedPath');
win32.toNamespacedPath = (p) => (typeof p === 'string' && p.length > 0 ? win32NamespacedPath(p) : p);
win32.win32 = win32;
win32.posix = path;
path.win32 = win32;

export const modules = { path, 'path/posix': path, 'path/win32': win32 };
export const globals = {};
