import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../../supervisor/config/config-error.ts';
import { loadConfig } from '../../../supervisor/config/load-config.ts';
import type { Config, Env } from '../../../supervisor/config/load-config.ts';

/** A fresh directory to act as the working directory of one test. */
export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'runjs-config-'));
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

export function load(argv: readonly string[] = [], env: Env = {}, cwd = '/work'): Config {
  return loadConfig({ argv, env, cwd });
}

/** Asserts that loading fails with a ConfigError carrying exactly `message`. */
export function assertLoadError(message: string, argv: readonly string[], env: Env = {}, cwd = '/work'): void {
  assert.throws(() => load(argv, env, cwd), (error: unknown) => {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    assert.equal(error.message, message);
    return true;
  });
}
