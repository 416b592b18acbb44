import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'smol-toml';
import { validFileKeys } from '../../../supervisor/config/config-file.ts';
import { SPECS } from '../../../supervisor/config/describe-flag.ts';
import { helpText } from '../../../supervisor/config/help-text.ts';
import { checkConfigFile, defaultValueOf } from '../../../supervisor/config/load-config.ts';
import { findViolation } from '../../../supervisor/config/schema.ts';
import { load, tempDir } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const generator = path.join(root, 'scripts/gen-config-docs.ts');

function runGenerator(...args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [generator, ...args], { encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

/** Removes the `#` from option lines (`#key = …`, `#[section]`), leaving `# prose` comments alone. */
function uncommentAll(text: string): string {
  return text.split('\n').map((line) => (/^#[^\s#]/.test(line) ? line.slice(1) : line)).join('\n');
}

describe('generated docs', () => {
  test('docs/configuration.md and config.example.toml are up to date', () => {
    const result = runGenerator('--check');
    assert.equal(result.stderr, '');
    assert.equal(result.status, 0);
  });

  test('--check fails on a stale or missing file', () => {
    const scratch = tempDir();
    mkdirSync(path.join(scratch, 'docs'));
    writeFileSync(path.join(scratch, 'docs/configuration.md'), readFileSync(path.join(root, 'docs/configuration.md')));
    writeFileSync(path.join(scratch, 'config.example.toml'), '# stale\n');
    const stale = runGenerator('--check', `--root=${scratch}`);
    assert.equal(stale.status, 1);
    assert.equal(stale.stderr,
      'stale generated file(s): config.example.toml; run: node scripts/gen-config-docs.ts\n');
  });

  test('config.example.toml loads as-is: everything commented, so all defaults', () => {
    const withExample = load(['--config=config.example.toml'], {}, root);
    const { config, ...rest } = withExample;
    assert.equal(config, path.join(root, 'config.example.toml'));
    assert.deepEqual(rest, { ...load() });
  });

  test('config.example.toml with every option uncommented sets every key, and every key is valid', () => {
    const text = uncommentAll(readFileSync(path.join(root, 'config.example.toml'), 'utf8'));
    const file = path.join(tempDir(), 'all.toml');
    writeFileSync(file, text);
    assert.deepEqual(Object.keys(parse(text)).sort(), validFileKeys().filter((k) => !k.endsWith('_json') &&
      !['fetch_header_config', 'mcp_config', 'wasm_config', 'sandbox_manifest'].includes(k)));
    // Shapes and ranges only: fully uncommented, the example necessarily sets
    // mutually exclusive flags (--http-port and --sse-port, for one).
    checkConfigFile(file, root);
  });

  test('--help lists every flag with its environment variable', () => {
    const help = helpText();
    for (const spec of SPECS) {
      assert.ok(help.includes(`  --${spec.name}`), spec.name);
      for (const env of spec.env) assert.ok(help.includes(env), env);
    }
    assert.ok(help.includes('  --fs-store <none|dir|s3>\n'));
    assert.ok(help.includes('  --fs-passthrough\n'));
    assert.ok(help.includes('  --heap-store <none|dir|s3>\n'));
    assert.ok(help.includes('  --allowed-hosts <HOST>  (repeatable, comma-separated)\n'));
  });
});

describe('flag table consistency', () => {
  test('every default and every example satisfies the schema', () => {
    const defaults: Record<string, unknown> = {};
    for (const spec of SPECS) {
      const value = defaultValueOf(spec, (flag) => defaults[flag]);
      if (value !== undefined) defaults[spec.name] = value;
    }
    assert.equal(findViolation(defaults), undefined);
    const examples = Object.fromEntries(SPECS.filter((s) => s.example !== undefined).map((s) => [s.name, s.example]));
    assert.equal(findViolation(examples), undefined);
  });

  test('the schema rejects unknown settings', () => {
    assert.deepEqual(findViolation({ 'no-such-flag': 1 }), { kind: 'unknown', flag: 'no-such-flag' });
  });
});
