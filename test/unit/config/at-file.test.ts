import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertLoadError, load, tempDir, writeFile } from './helpers.ts';

describe('--instructions / --run-js-description: text, @file, @@', () => {
  test('plain text is used as is', () => {
    assert.equal(load(['--instructions=Be brief.']).instructions, 'Be brief.');
    assert.equal(load(['--instructions=a@b']).instructions, 'a@b');
  });

  test('@path reads the file relative to cwd, verbatim', () => {
    const dir = tempDir();
    writeFile(dir, 'instructions.md', 'Line one.\nLine two.\n');
    writeFile(dir, 'desc.txt', 'Runs code.');
    const config = load(['--instructions=@instructions.md', `--run-js-description=@${dir}/desc.txt`], {}, dir);
    assert.equal(config.instructions, 'Line one.\nLine two.\n');
    assert.equal(config.runJsDescription, 'Runs code.');
  });

  test('@@ stands for a literal leading @', () => {
    assert.equal(load(['--instructions=@@mention me']).instructions, '@mention me');
    assert.equal(load(['--run-js-description=@@@x']).runJsDescription, '@@x');
  });

  test('@file works from the environment and the config file too', () => {
    const dir = tempDir();
    writeFile(dir, 'i.txt', 'from file');
    assert.equal(load([], { RUNJS_INSTRUCTIONS: '@i.txt' }, dir).instructions, 'from file');
    writeFile(dir, 'c.toml', 'run_js_description = "@i.txt"\n');
    assert.equal(load(['--config=c.toml'], {}, dir).runJsDescription, 'from file');
  });

  test('a missing @file is a startup error naming the flag', () => {
    const dir = tempDir();
    assertLoadError(
      `cannot read file ${dir}/nope.md given by --instructions: ENOENT: no such file or directory, open '${dir}/nope.md'`,
      ['--instructions=@nope.md'], {}, dir);
    assertLoadError(
      `cannot read file ${dir}/nope.md given by RUNJS_RUN_JS_DESCRIPTION: ENOENT: no such file or directory, ` +
      `open '${dir}/nope.md'`,
      [], { RUNJS_RUN_JS_DESCRIPTION: '@nope.md' }, dir);
  });
});

describe('JSON-valued flags: inline JSON or a path', () => {
  test('inline JSON when it starts with { or [, else a JSON file relative to cwd', () => {
    const dir = tempDir();
    writeFile(dir, 'rules.json', '[{"host":"a.example","headers":{"x-key":"k-value"}}]');
    const config = load(['--fetch-header-config=rules.json', '--policies-json= {"fetch":{}}'], {}, dir);
    assert.deepEqual(config.fetchHeaderConfig, [{ host: 'a.example', headers: { 'x-key': 'k-value' } }]);
    assert.deepEqual(config.policiesJson, { fetch: {} });
  });

  test('a file that is not JSON is a startup error', () => {
    const dir = tempDir();
    writeFile(dir, 'bad.json', 'nope');
    assertLoadError(
      `invalid --sandbox-manifest: ${dir}/bad.json is not valid JSON (Unexpected token 'o', "nope" is not valid JSON)`,
      ['--sandbox-manifest=bad.json'], {}, dir);
  });
});
