#!/usr/bin/env node
// `npx runjs-mcp` / the package's bin: starts supervisor/main.ts with whatever the user's Node
// (>= 22.12) needs to run runjs's TypeScript sources directly.
// - Node < 23.6 strips types only with --experimental-strip-types, and Node < 22.13 loads
//   node:sqlite only with --experimental-sqlite: then this launcher re-runs itself with the
//   flags (stdio inherited, so the stdio MCP transport passes straight through).
// - Node never strips types of files under node_modules, which is where an installed package
//   lives: then the runtime files are copied once to a per-user cache outside node_modules
//   (see runtime-copy.js) and started from there. Worker processes start from the same copy.
// Plain JavaScript on purpose: this file must run before any TypeScript can.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prepareRuntimeCopy } from './runtime-copy.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

// Checked before anything else: an older Node rejects the flags below outright ("bad option"),
// so the friendly message would never be reached after a re-spawn.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`runjs: this Node.js (v${process.versions.node}) is too old; use Node.js 22.12 or later\n`);
  process.exit(1);
}

function hasBuiltin(id) {
  try {
    return process.getBuiltinModule?.(id) !== undefined;
  } catch {
    return false;
  }
}

const missing = [];
if (!process.features.typescript) missing.push('--experimental-strip-types');
if (!hasBuiltin('node:sqlite')) missing.push('--experimental-sqlite');

if (missing.length > 0) {
  if (missing.every((flag) => process.execArgv.includes(flag))) {
    process.stderr.write(`runjs: this Node.js (${process.version}) cannot run runjs even with ${missing.join(' ')}; use Node.js 22.12 or later\n`);
    process.exit(1);
  }
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...missing, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // The child gets the signal too when it comes from the terminal; forwarding covers `kill <pid>`.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Die of the same signal, as a shell expects (our forwarding handler must not catch it).
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
} else {
  const underNodeModules = packageRoot.split(path.sep).includes('node_modules');
  const root = underNodeModules ? prepareRuntimeCopy(packageRoot) : packageRoot;
  await import(pathToFileURL(path.join(root, 'supervisor', 'main.ts')).href);
}
