// The oauth_browser token cache file: mode 0600 whatever the umask or the old file's mode, one
// entry per server URL (others kept), and an unreadable file ignored with a warning.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { TokenCache } from '../../../supervisor/upstream-mcp/token-cache.ts';

const tokens = { access_token: 'at', token_type: 'Bearer', refresh_token: 'rt' };

test('save: an atomic write with mode 0600 (in a 0700 directory it creates), entries by server URL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-token-cache-'));
  const file = join(dir, 'sub', 'tokens.json');
  const warnings: string[] = [];
  const old = process.umask(0);
  try {
    new TokenCache(file, 'http://a/mcp', (l) => warnings.push(l)).save({ tokens });
    new TokenCache(file, 'http://b/mcp', (l) => warnings.push(l)).save({ client: { client_id: 'c' } });
  } finally {
    process.umask(old);
  }
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(join(dir, 'sub')).mode & 0o777, 0o700);
  assert.deepEqual(readdirSync(join(dir, 'sub')), ['tokens.json'], 'no temporary file is left');
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { version: 1, servers: { 'http://a/mcp': { tokens }, 'http://b/mcp': { client: { client_id: 'c' } } } });
  assert.deepEqual(new TokenCache(file, 'http://a/mcp', (l) => warnings.push(l)).load(), { tokens });
  assert.deepEqual(new TokenCache(file, 'http://c/mcp', (l) => warnings.push(l)).load(), {});
  assert.deepEqual(warnings, []);
});

test('load: a missing file is empty; a file readable by others is warned about and rewritten 0600; a foreign file is ignored', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-token-cache-'));
  const file = join(dir, 'tokens.json');
  const warnings: string[] = [];
  const cache = new TokenCache(file, 'http://a/mcp', (l) => warnings.push(l));
  assert.deepEqual(cache.load(), {});
  writeFileSync(file, JSON.stringify({ version: 1, servers: { 'http://a/mcp': { tokens } } }));
  chmodSync(file, 0o644);
  assert.deepEqual(cache.load(), { tokens });
  assert.match(warnings.join('\n'), /is readable by others \(mode 644\); runjs rewrites it with mode 600 at the next token change/);
  cache.save({ tokens: { ...tokens, access_token: 'at2' } });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  writeFileSync(file, '{"tokens": "not ours"}');
  assert.deepEqual(cache.load(), {});
  assert.match(warnings.at(-1) ?? '', /is not a runjs token cache \(expected \{"version": 1, "servers": \{\.\.\.\}\}\); ignoring it$/);
});
