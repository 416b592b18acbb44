// node:path (POSIX): the path-browserify port of Node's path module. There is no win32 flavour;
// scripts run on a POSIX-shaped system whose working directory is "/".
import path from 'path-browserify';

path.toNamespacedPath = (p) => p;

export const modules = { path, 'path/posix': path };
export const globals = {};
