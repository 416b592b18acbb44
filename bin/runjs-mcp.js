#!/usr/bin/env node
// `npx runjs-mcp` / the package's bin. It starts one of two entry points:
// - in a checkout, supervisor/main.ts, which Node runs by stripping its types (a checkout has no
//   build step);
// - in the npm package, dist/supervisor/main.js, compiled when the package was packed
//   (scripts/build-package.ts): the package ships no TypeScript, since Node never strips types of
//   files under node_modules. The source wins where both exist, so a dist/ left in a checkout by
//   `npm pack` never runs stale.
// Node 22.15 is the oldest that runs runjs (node:zlib's zstd functions arrived in 22.15). Before
// 23.6, Node strips types only with --experimental-strip-types: for a checkout this launcher then
// re-runs itself with the flag (stdio inherited, so the stdio MCP transport passes straight through).
// Plain JavaScript on purpose: this file must run before any TypeScript can.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Checked before anything else: an older Node fails on a missing import with a stack trace, or
// rejects the flag below outright ("bad option"), instead of saying what is wrong.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 15)) {
  process.stderr.write(`runjs: this Node.js (v${process.versions.node}) is too old; use Node.js 22.15 or later\n`);
  process.exit(1);
}

const source = new URL('../supervisor/main.ts', import.meta.url);
const entry = existsSync(source) ? source : new URL('../dist/supervisor/main.js', import.meta.url);
const STRIP_TYPES = '--experimental-strip-types';

if (!existsSync(entry)) {
  process.stderr.write(`runjs: ${fileURLToPath(entry)} is missing; a checkout needs supervisor/, a package needs dist/ (run \`node scripts/build-package.ts\`)\n`);
  process.exit(1);
} else if (entry === source && !process.features.typescript) {
  if (process.execArgv.includes(STRIP_TYPES)) {
    process.stderr.write(`runjs: this Node.js (${process.version}) cannot run runjs's TypeScript sources even with ${STRIP_TYPES}; use Node.js 22.15 or later\n`);
    process.exit(1);
  }
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', STRIP_TYPES, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // The child gets the signal too when it comes from the terminal; forwarding covers `kill <pid>`.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Die of the same signal, as a shell expects (our forwarding handler must not catch it).
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
} else {
  await import(entry.href);
}
