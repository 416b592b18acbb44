// The compile-cache directory decides what code runjs's processes run, so only a private,
// plain directory of this user is accepted. Each case runs in a child process with its own
// TMPDIR (compileCacheDir() remembers its answer per process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MODULE = fileURLToPath(new URL('../../../supervisor/compile-cache.ts', import.meta.url));
const uid = process.getuid!();

function dirWithTmp(tmp: string): string | null {
  const script = `import { compileCacheDir } from ${JSON.stringify(MODULE)}; process.stdout.write(JSON.stringify(compileCacheDir() ?? null));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env['PATH'] ?? '', TMPDIR: tmp }, encoding: 'utf8' });
  return JSON.parse(out) as string | null;
}

function withTmp(body: (tmp: string, expected: string) => void): void {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'runjs-cc-test-'));
  try {
    body(tmp, path.join(tmp, `runjs-compile-cache-${uid}`));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

test('the cache directory is created private to the user under the OS temp directory', () => {
  withTmp((tmp, expected) => {
    assert.equal(dirWithTmp(tmp), expected);
    const st = lstatSync(expected);
    assert.equal(st.isDirectory(), true);
    assert.equal(st.uid, uid);
    assert.equal(st.mode & 0o777, 0o700);
    assert.equal(dirWithTmp(tmp), expected, 'an existing private directory is reused');
  });
});

test('a cache directory others can write is refused', () => {
  withTmp((tmp, expected) => {
    mkdirSync(expected);
    chmodSync(expected, 0o777);
    assert.equal(dirWithTmp(tmp), null);
  });
});

test('a symlink in place of the cache directory is refused', () => {
  withTmp((tmp, expected) => {
    const elsewhere = path.join(tmp, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, expected);
    assert.equal(dirWithTmp(tmp), null);
  });
});
