// --fetch-header and --fetch-header-config (config section fetch_headers): parsed in full at
// startup into frozen rules; the CLI form's errors are the reference's texts (mcp-v8 §6.3).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { headerRulesOf, parseHeaderConfig, parseHeaderFlag } from '../../../supervisor/config/header-config.ts';
import { hostMatches, ruleMatches } from '../../../worker/network/header-injection.ts';
import { isHeaderRules } from '../../../shared/header-rules.ts';
import { assertLoadError, load, tempDir, writeFile } from './helpers.ts';

const json = (v: unknown): string => `--fetch-header-config=${JSON.stringify(v)}`;

describe('--fetch-header', () => {
  test('static and OAuth forms become typed rules (names lowercased, methods uppercased, defaults applied)', () => {
    assert.deepEqual(parseHeaderFlag('host=API.example.com,methods=get;Post,header=X-Api-Key,value=k1-secret'),
      { kind: 'static', host: 'api.example.com', methods: ['GET', 'POST'], headers: [['x-api-key', 'k1-secret']], override: true });
    assert.equal((parseHeaderFlag('host=a.example,header=X,value=vvvvvv,override=false') as { override: boolean }).override, false);
    assert.deepEqual(parseHeaderFlag('host=*.example.com,header=Authorization,token_url=https://idp.example/token,client_id=c,client_secret=s,scope=read write'), {
      kind: 'oauth', host: '*.example.com', methods: [], header: 'Authorization', tokenUrl: 'https://idp.example/token',
      clientId: 'c', clientSecret: 's', scope: 'read write', refreshBufferSecs: 30,
    });
    assert.equal((parseHeaderFlag('host=a,header=A,token_url=http://127.0.0.1:1/t,client_id=c,client_secret=s,refresh_buffer_secs=5') as { refreshBufferSecs: number }).refreshBufferSecs, 5);
  });

  test("startup errors use the reference's texts", () => {
    assertLoadError("--fetch-header missing 'host'", ['--fetch-header=header=A,value=b']);
    assertLoadError("--fetch-header cannot mix static 'value' with dynamic oauth keys", ['--fetch-header=host=a,header=A,value=b,token_url=https://x/t']);
    assertLoadError("--fetch-header must provide either 'value' for a static rule or the full dynamic oauth key set: token_url, client_id, client_secret",
      ['--fetch-header=host=a,header=A,token_url=https://x/t,client_id=c']);
    assertLoadError("Unknown key 'colour' in --fetch-header. Expected: host, methods, header, value, override, token_url, client_id, client_secret, scope, refresh_buffer_secs",
      ['--fetch-header=host=a,header=A,value=b,colour=red']);
    assertLoadError("--fetch-header missing 'header'", ['--fetch-header=host=a,value=b']);
    assertLoadError('--fetch-header: the value of header \'A\' must not be empty', ['--fetch-header=host=a,header=A,value=']);
    assertLoadError("--fetch-header: 'override' applies to static rules only (an OAuth header is only filled when the script did not set it)",
      ['--fetch-header=host=a,header=A,token_url=https://x/t,client_id=c,client_secret=s,override=true']);
    assertLoadError("--fetch-header: 'token_url' must be an http(s) URL", ['--fetch-header=host=a,header=A,token_url=ftp://x/t,client_id=c,client_secret=s']);
    assertLoadError("--fetch-header: 'override' must be true or false", ['--fetch-header=host=a,header=A,value=b,override=yes']);
  });
});

describe('--fetch-header-config', () => {
  test('the JSON shape: headers (override default true) or auth; from the flag, a file, or the fetch_headers section', () => {
    const rules = parseHeaderConfig([
      { host: 'a.example', methods: ['get'], headers: { 'X-One': '1-secret', 'X-Two': '2-secret' } },
      { host: 'b.example', headers: { 'X-Three': 'three' }, override: false },
      { host: '*.c.example', auth: { type: 'oauth_client_credentials', header: 'Authorization', token_url: 'http://127.0.0.1:9/token', client_id: 'id', client_secret: 'sec', refresh_buffer_secs: 0 } },
    ]);
    assert.deepEqual(rules[0], { kind: 'static', host: 'a.example', methods: ['GET'], headers: [['x-one', '1-secret'], ['x-two', '2-secret']], override: true });
    assert.equal((rules[1] as { override: boolean }).override, false);
    assert.deepEqual(rules[2], { kind: 'oauth', host: '*.c.example', methods: [], header: 'Authorization', tokenUrl: 'http://127.0.0.1:9/token', clientId: 'id', clientSecret: 'sec', scope: undefined, refreshBufferSecs: 0 });
    assert.ok(isHeaderRules(JSON.parse(JSON.stringify(rules))), 'the worker-settings guard accepts them after IPC');
    const dir = tempDir();
    writeFile(dir, 'c.toml', '[[fetch_headers]]\nhost = "api.example.com"\n[fetch_headers.headers]\nAuthorization = "Bearer t"\n');
    const config = load(['--config=c.toml', '--fetch-header=host=x.example,header=A,value=bbbbbb'], {}, dir);
    const all = headerRulesOf(config.fetchHeader, config.fetchHeaderConfig);
    assert.deepEqual(all.map((r) => r.host), ['x.example', 'api.example.com'], '--fetch-header rules first, then the config');
    assert.ok(Object.isFrozen(all) && Object.isFrozen(all[1]));
  });

  test('mistakes stop startup naming the flag and the rule', () => {
    assertLoadError("invalid --fetch-header-config: [0]: missing 'host'", [json([{ headers: { a: 'b' } }])]);
    assertLoadError("invalid --fetch-header-config: [0]: give exactly one of 'headers' (static) or 'auth' (oauth_client_credentials)", [json([{ host: 'a' }])]);
    assertLoadError("invalid --fetch-header-config: [0]: give exactly one of 'headers' (static) or 'auth' (oauth_client_credentials)",
      [json([{ host: 'a', headers: { a: 'b' }, auth: { type: 'oauth_client_credentials' } }])]);
    assertLoadError("invalid --fetch-header-config: [0].headers: duplicate header names 'X-Key' and 'x-key' (names are case-insensitive)",
      [json([{ host: 'a', headers: { 'X-Key': 'one', 'x-key': 'two' } }])]);
    assertLoadError("invalid --fetch-header-config: [1].headers: the value of header 'X-Key' must not be empty", [json([{ host: 'a', headers: { a: 'b' } }, { host: 'a', headers: { 'X-Key': '' } }])]);
    assertLoadError('invalid --fetch-header-config: [0].override: applies to static rules only (an OAuth header is only filled when the script did not set it)',
      [json([{ host: 'a', override: true, auth: { type: 'oauth_client_credentials', header: 'A', token_url: 'https://x/t', client_id: 'c', client_secret: 's' } }])]);
    assertLoadError("invalid --fetch-header-config: [0].auth: missing 'client_secret'",
      [json([{ host: 'a', auth: { type: 'oauth_client_credentials', header: 'A', token_url: 'https://x/t', client_id: 'c' } }])]);
    assertLoadError('invalid --fetch-header-config: [0].auth.type: expected "oauth_client_credentials"',
      [json([{ host: 'a', auth: { type: 'basic', header: 'A', token_url: 'https://x/t', client_id: 'c', client_secret: 's' } }])]);
    assertLoadError('invalid --fetch-header-config: [0].color: unknown key (expected one of host, methods, headers, override, auth)', [json([{ host: 'a', headers: { a: 'b' }, color: 1 }])]);
    assertLoadError('invalid --fetch-header-config: [0].headers: header name "bad name" is not a valid HTTP header name', [json([{ host: 'a', headers: { 'bad name': 'b' } }])]);
    const dir = tempDir();
    writeFile(dir, 'c.toml', '[[fetch_headers]]\nhost = "a"\n');
    assertLoadError(`invalid fetch_headers in ${dir}/c.toml: [0]: give exactly one of 'headers' (static) or 'auth' (oauth_client_credentials)`, ['--config=c.toml'], {}, dir);
  });
});

describe('matching', () => {
  test('hosts: exact and case-insensitive; * is a suffix match (*.x.com matches x.com too); methods (empty = all)', () => {
    assert.ok(hostMatches('api.github.com', 'API.GitHub.com'));
    assert.ok(!hostMatches('api.github.com', 'github.com'));
    assert.ok(hostMatches('*.github.com', 'api.github.com'));
    assert.ok(hostMatches('*.github.com', 'github.com'));
    assert.ok(!hostMatches('*.github.com', 'evilgithub.com'));
    assert.ok(hostMatches('*github.com', 'evilgithub.com'));
    assert.ok(!hostMatches('*.github.com', 'github.com.evil.example'));
    const rule = parseHeaderFlag('host=a.example,methods=GET;post,header=X,value=vvvvvv');
    assert.ok(ruleMatches(rule, 'a.example', 'get'));
    assert.ok(ruleMatches(rule, 'a.example', 'POST'));
    assert.ok(!ruleMatches(rule, 'a.example', 'PUT'));
    assert.ok(ruleMatches(parseHeaderFlag('host=a.example,header=X,value=vvvvvv'), 'a.example', 'DELETE'));
  });
});
