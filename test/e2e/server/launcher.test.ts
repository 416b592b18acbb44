// The package launcher (bin/runjs-mcp.js, what `npx runjs-mcp` runs) from the checkout, where it
// runs the TypeScript sources; test/e2e/package/ runs it from the packed and installed package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageVersion } from '../../../supervisor/rest/index.ts';
import { NODE, ROOT } from './server-process.ts';

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(NODE, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    p.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    p.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('from the checkout: bin/runjs-mcp.js runs the entry point in place', async () => {
  const r = await run([join(ROOT, 'bin/runjs-mcp.js'), '--version'], { PATH: process.env['PATH'] ?? '' });
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${packageVersion()}\n`, '']);
});

// Pretends to be another Node version (process.versions.node is what the launcher checks first).
function asNodeVersion(version: string): string[] {
  return ['--import', `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`];
}

test('a Node older than 22.15 gets the plain "use Node.js 22.15 or later" message, not a "bad option" from a re-spawn', async () => {
  for (const version of ['20.20.2', '22.12.0', '22.14.0']) {
    const r = await run([...asNodeVersion(version), join(ROOT, 'bin/runjs-mcp.js'), '--version'], { PATH: process.env['PATH'] ?? '' });
    assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', `runjs: this Node.js (v${version}) is too old; use Node.js 22.15 or later\n`]);
  }
  const r = await run([...asNodeVersion('22.15.0'), join(ROOT, 'bin/runjs-mcp.js'), '--version'], { PATH: process.env['PATH'] ?? '' });
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${packageVersion()}\n`, '']);
});
