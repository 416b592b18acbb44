// A worker's esbuild service can die (a script that exhausts its stack, a kill from outside): the
// next transform must work, a transform in flight when it dies is tried once more on a new
// service, and a transform whose run ended stops the service instead of working on for nobody.
// The service is esbuild's child process of this test process; tests find it through /proc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { Transpiler, TranspileAbortedError, TranspileError, TRANSPILER_DIED } from '../../../worker/source/transpile.ts';

const linux = process.platform === 'linux';

/** Live esbuild service processes this process started. */
function services(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== process.pid || state === 'Z') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--service=')) found.push(Number(entry));
    } catch { /* exited meanwhile */ }
  }
  return found;
}

async function theService(except: readonly number[] = []): Promise<number> {
  for (;;) {
    const pid = services().find((p) => !except.includes(p));
    if (pid !== undefined) return pid;
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function gone(pid: number): Promise<void> {
  while (services().includes(pid)) await new Promise((r) => setTimeout(r, 5));
}

/**
 * TypeScript that keeps esbuild busy for a while (~1 s: nested blocks it indents), within the
 * limits; the annotation makes it TypeScript (plain JavaScript would skip esbuild).
 */
const SLOW = `let slow: number = 1;\n${`${'{'.repeat(300)}${'}'.repeat(300)}\n`.repeat(40)}`;

test('a killed service is replaced: the next transform works', { skip: !linux }, async () => {
  const t = new Transpiler();
  assert.equal((await t.transpileModule('const a: number = 1', 'main.ts', false)).code, 'const a = 1;\n');
  const first = await theService();
  process.kill(first, 'SIGKILL');
  await gone(first);
  assert.equal((await t.transpileModule('const b: string = "x"', 'main.ts', false)).code, 'const b = "x";\n');
  assert.notEqual(await theService(), first);
});

test('a transform in flight when its service dies is done again on a new one', { skip: !linux }, async () => {
  const t = new Transpiler();
  await t.transpileModule('1 as number', 'main.ts', false); // TypeScript: starts the service
  const first = await theService();
  process.kill(first, 'SIGSTOP'); // the transform below cannot finish on it
  const pending = t.transpileModule('let x: number = 2; x', 'main.ts', false);
  process.kill(first, 'SIGKILL');
  assert.equal((await pending).code, 'let x = 2;\nx;\n');
});

test('a script whose transform kills the service twice fails with a clear text; the next transform works', { skip: !linux }, async () => {
  const t = new Transpiler();
  await t.transpileModule('1 as number', 'main.ts', false); // TypeScript: starts the service
  const first = await theService();
  process.kill(first, 'SIGSTOP');
  const pending = t.transpileModule(SLOW, 'main.ts', false);
  process.kill(first, 'SIGKILL');
  process.kill(await theService([first]), 'SIGKILL'); // the retry's service, while it works on SLOW
  await assert.rejects(pending, (e: unknown) => e instanceof TranspileError && e.message === `TypeScript parse error: ${TRANSPILER_DIED}`);
  assert.equal(TRANSPILER_DIED, 'the transpiler stopped while reading this script, twice; its nesting is likely too deep (see the limits in docs/script-environment.md)');
  assert.equal((await t.transpileModule('2 as number', 'main.ts', false)).code, '2;\n');
});

test('restarting the service fails its transforms over instead of leaving them pending (esbuild would)', { skip: !linux }, async () => {
  const t = new Transpiler();
  await t.transpileModule('1 as number', 'main.ts', false); // TypeScript: starts the service
  const first = await theService();
  process.kill(first, 'SIGSTOP');
  const pending = [t.transpileModule('const a: 1 = 1', 'main.ts', false), t.transpileModule('const b: 2 = 2', 'main.ts', false)];
  t.restart();
  process.kill(first, 'SIGCONT'); // so it takes the restart's SIGTERM
  assert.deepEqual((await Promise.all(pending)).map((m) => m.code), ['const a = 1;\n', 'const b = 2;\n']);
  await gone(first);
});

test('a transform whose run ended stops the service working on it; the next transform works', { skip: !linux }, async () => {
  const t = new Transpiler();
  await t.transpileModule('1 as number', 'main.ts', false); // TypeScript: starts the service
  const first = await theService();
  const ended = new AbortController();
  const pending = t.transpileModule(SLOW, 'main.ts', false, ended.signal);
  ended.abort();
  await assert.rejects(pending, TranspileAbortedError);
  await gone(first);
  assert.equal((await t.transpileModule('3 as number', 'main.ts', false)).code, '3;\n');
});

test('limits are checked before esbuild, with the TypeScript parse error prefix and the position', async () => {
  const t = new Transpiler();
  await assert.rejects(t.transpileModule('['.repeat(1_000_000), 'main.ts', false), (e: unknown) => e instanceof TranspileError
    && e.message === 'TypeScript parse error: 1:1001: brackets, braces and parentheses nest deeper than 1000 levels (the limit for scripts)');
  await assert.rejects(t.transpileModule('let x: = 1', 'main.ts', false), (e: unknown) => e instanceof TranspileError
    && e.message === 'TypeScript parse error: 1:8: Unexpected "="');
});
