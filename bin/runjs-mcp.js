#!/usr/bin/env node
// `npx runjs-mcp` / the package's bin. It starts one of two entry points:
// - in a checkout, supervisor/main.ts, which Node runs by stripping its types (a checkout has no
//   build step);
// - in the npm package, dist/supervisor/main.js, compiled when the package was packed
//   (scripts/build-package.ts): the package ships no TypeScript, since Node never strips types of
//   files under node_modules. The source wins where both exist, so a dist/ left in a checkout by
//   `npm pack` never runs stale.
// Node < 22.13 loads node:sqlite only with --experimental-sqlite, and Node < 23.6 strips types only
// with --experimental-strip-types: then this launcher re-runs itself with the flags it needs (stdio
// inherited, so the stdio MCP transport passes straight through).
// Plain JavaScript on purpose: this file must run before any TypeScript can.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Checked before anything else: an older Node rejects the flags below outright ("bad option"),
// so the friendly message would never be reached after a re-spawn.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`runjs: this Node.js (v${process.versions.node}) is too old; use Node.js 22.12 or later\n`);
  process.exit(1);
}

const source = new URL('../supervisor/main.ts', import.meta.url);
const entry = existsSync(source) ? source : new URL('../dist/supervisor/main.js', import.meta.url);

function hasBuiltin(id) {
  try {
    return process.getBuiltinModule?.(id) !== undefined;
  } catch {
    return false;
  }
}

const missing = [];
if (entry === source && !process.features.typescript) missing.push('--experimental-strip-types');
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
} else if (!existsSync(entry)) {
  process.stderr.write(`runjs: ${fileURLToPath(entry)} is missing; a checkout needs supervisor/, a package needs dist/ (run \`node scripts/build-package.ts\`)\n`);
  process.exit(1);
} else {
  await import(entry.href);
}
