// --policies-json: parsed in full at startup; every mistake names the flag (or file) and the key path.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { MAX_REGO_SOURCE_BYTES, parsePolicyConfig } from '../../../supervisor/config/policy-config.ts';
import { assertLoadError, load, tempDir, writeFile } from './helpers.ts';

const flag = (value: unknown): string[] => [`--policies-json=${JSON.stringify(value)}`];

describe('--policies-json', () => {
  test('a full document parses into frozen typed settings with defaults filled in', () => {
    const dir = tempDir();
    const hook = writeFile(dir, 'pre.js', 'export default function (input) { return true; }\n');
    const url = pathToFileURL(hook).href;
    const settings = parsePolicyConfig({
      fetch: {
        mode: 'any',
        policies: [{ url: 'http://127.0.0.1:8181' }, { url: 'https://opa.internal/', policy_path: '/acme/fetch/' }],
        pre: [{ url, timeout_ms: 250, capabilities: ['fetch', 'fetch'] }],
        post: [{ url }],
        stack: [{ policies: [{ url: 'http://127.0.0.1:8282', timeout_ms: 100 }] }],
      },
      mcp_tools: {},
    });
    assert.deepEqual(settings, {
      fetch: {
        mode: 'any',
        policies: [
          { kind: 'opa', url: 'http://127.0.0.1:8181', policyPath: 'mcp/fetch', timeoutMs: 5000 },
          { kind: 'opa', url: 'https://opa.internal/', policyPath: 'acme/fetch', timeoutMs: 5000 },
        ],
        pre: [{ kind: 'js', url, code: 'export default function (input) { return true; }\n', timeoutMs: 250, capabilities: ['fetch'] }],
        post: [{ kind: 'js', url, code: 'export default function (input) { return true; }\n', timeoutMs: 5000, capabilities: [] }],
        stack: [{ mode: 'all', policies: [{ kind: 'opa', url: 'http://127.0.0.1:8282', policyPath: 'mcp/fetch', timeoutMs: 100 }] }],
      },
      mcp_tools: { mode: 'all', policies: [], pre: [], post: [], stack: [] },
    });
    assert.ok(Object.isFrozen(settings) && Object.isFrozen(settings.fetch?.policies[0]));
  });

  test('the mcp_tools default policy path is mcp/tools', () => {
    assert.equal((parsePolicyConfig({ mcp_tools: { policies: [{ url: 'http://x' }] } }).mcp_tools?.policies[0] as { policyPath: string }).policyPath, 'mcp/tools');
  });

  test('loads from the command line and from a config section', () => {
    assert.deepEqual(load(flag({ fetch: { mode: 'any' } })).policiesJson, { fetch: { mode: 'any' } });
    const dir = tempDir();
    writeFile(dir, 'c.toml', '[policies.fetch]\nmode = "all"\npolicies = [{ url = "http://127.0.0.1:8181" }]\n');
    assert.deepEqual(load(['--config=c.toml'], {}, dir).policiesJson, { fetch: { mode: 'all', policies: [{ url: 'http://127.0.0.1:8181' }] } });
  });

  test('wrong shapes name the key path', () => {
    assertLoadError("invalid --policies-json: nope: unknown policy category (expected one of fetch, websocket, http2, modules, filesystem, fs_snapshot, mcp_tools, subprocess, run_js_file, mcp_run_js)",
      flag({ nope: {} }));
    assertLoadError('invalid --policies-json: fetch: expected an object with mode, policies, pre, post and stack', flag({ fetch: [] }));
    assertLoadError('invalid --policies-json: fetch.modes: unknown key (expected one of mode, policies, pre, post, stack)', flag({ fetch: { modes: 'all' } }));
    assertLoadError('invalid --policies-json: fetch.mode: expected "all" or "any", got "some"', flag({ fetch: { mode: 'some' } }));
    assertLoadError('invalid --policies-json: fetch.policies: expected an array', flag({ fetch: { policies: {} } }));
    assertLoadError('invalid --policies-json: fetch.policies[0].url: required', flag({ fetch: { policies: [{}] } }));
    assertLoadError('invalid --policies-json: fetch.policies[0].url: expected a non-empty string', flag({ fetch: { policies: [{ url: 7 }] } }));
    assertLoadError('invalid --policies-json: fetch.pre[1].header: unknown key (expected one of url, policy_path, rule, timeout_ms, capabilities)',
      flag({ fetch: { pre: [{ url: 'http://a' }, { url: 'http://a', header: 'x' }] } }));
    assertLoadError('invalid --policies-json: fetch.stack[0].pre: unknown key (expected one of mode, policies)', flag({ fetch: { stack: [{ pre: [] }] } }));
    assertLoadError('invalid --policies-json: fetch.stack[0]: expected an object with mode and policies', flag({ fetch: { stack: ['x'] } }));
    assertLoadError('invalid --policies-json: fetch.pre[0].timeout_ms: expected an integer number of milliseconds from 1 to 300000, got 0',
      flag({ fetch: { pre: [{ url: 'http://a', timeout_ms: 0 }] } }));
    assertLoadError('invalid --policies-json: websocket.policies[0].policy_path: expected a path of the form package/rule (letters, digits, _ . -, separated by /), got \'a b\'',
      flag({ websocket: { policies: [{ url: 'http://a', policy_path: 'a b' }] } }));
    assertLoadError('invalid --policies-json: fetch.policies[0].rule: applies to Rego sources only; an OPA server is addressed with policy_path',
      flag({ fetch: { policies: [{ url: 'http://a', rule: 'data.x.allow' }] } }));
    assertLoadError('invalid --policies-json: fetch.policies[0].capabilities: applies to JavaScript hooks (file://….js) only',
      flag({ fetch: { policies: [{ url: 'http://a', capabilities: [] }] } }));
  });

  test('URL schemes: the reference text for an unsupported one', () => {
    assertLoadError("invalid --policies-json: fetch.policies[0].url: Unsupported policy URL scheme: 'ftp://opa.example/'. Use http://, https://, or file://",
      flag({ fetch: { policies: [{ url: 'ftp://opa.example/' }] } }));
    assertLoadError("invalid --policies-json: fetch.policies[0].url: not a valid URL: '127.0.0.1:8181'", flag({ fetch: { policies: [{ url: '127.0.0.1:8181' }] } }));
  });

  test('Rego: a file or a directory (its .rego files, non-recursive, sorted) is read and compiled at startup', () => {
    const dir = tempDir();
    const rego = writeFile(dir, 'fetch.rego', 'package mcp.fetch\ndefault allow := false\n');
    const regoDir = path.join(dir, 'rego');
    mkdirSync(regoDir);
    mkdirSync(path.join(regoDir, 'nested.rego'));
    writeFileSync(path.join(regoDir, 'b.rego'), 'package mcp.tools\nallow if helper\n');
    writeFileSync(path.join(regoDir, 'a.rego'), 'package mcp.tools\nhelper if input.tool == "ok"\n');
    writeFileSync(path.join(regoDir, 'notes.txt'), 'not rego');
    const url = pathToFileURL(rego).href;
    const dirUrl = pathToFileURL(regoDir).href;
    const settings = parsePolicyConfig({
      fetch: { policies: [{ url }, { url, rule: 'mcp.fetch.allow', timeout_ms: 20 }] },
      mcp_tools: { policies: [{ url: dirUrl }] },
    });
    assert.deepEqual(settings.fetch?.policies, [
      { kind: 'rego', url, modules: [{ file: rego, text: 'package mcp.fetch\ndefault allow := false\n' }], rule: 'data.mcp.fetch.allow', timeoutMs: 100 },
      { kind: 'rego', url, modules: [{ file: rego, text: 'package mcp.fetch\ndefault allow := false\n' }], rule: 'data.mcp.fetch.allow', timeoutMs: 20 },
    ]);
    assert.deepEqual(settings.mcp_tools?.policies, [{
      kind: 'rego', url: dirUrl, rule: 'data.mcp.tools.allow', timeoutMs: 100,
      modules: [
        { file: path.join(regoDir, 'a.rego'), text: 'package mcp.tools\nhelper if input.tool == "ok"\n' },
        { file: path.join(regoDir, 'b.rego'), text: 'package mcp.tools\nallow if helper\n' },
      ],
    }]);
  });

  test('Rego: parse and compile errors, a missing rule, and unreadable or empty sources stop startup', () => {
    const dir = tempDir();
    const at = (name: string, text: string): string => pathToFileURL(writeFile(dir, name, text)).href;
    const bad = at('bad.rego', 'package mcp.fetch\n\nallow if {\n  input.x ==\n}\n');
    assertLoadError(`invalid --policies-json: fetch.policies[0].url: ${path.join(dir, 'bad.rego')}:5:1: rego_parse_error: unexpected '}'`, flag({ fetch: { policies: [{ url: bad }] } }));
    const unsafe = at('unsafe.rego', 'package mcp.fetch\nallow if x > 1\n');
    assertLoadError(`invalid --policies-json: fetch.policies[0].url: ${path.join(dir, 'unsafe.rego')}:2:10: rego_unsafe_var_error: var x is unsafe`, flag({ fetch: { policies: [{ url: unsafe }] } }));
    const unknown = at('unknown.rego', 'package mcp.fetch\nallow if frobnicate(input.url)\n');
    assertLoadError(`invalid --policies-json: fetch.policies[0].url: ${path.join(dir, 'unknown.rego')}:2:10: rego_type_error: undefined function frobnicate`, flag({ fetch: { policies: [{ url: unknown }] } }));
    const other = at('other.rego', 'package mcp.other\nallow := true\n');
    assertLoadError(`invalid --policies-json: fetch.policies[0].rule: the Rego policy at ${path.join(dir, 'other.rego')} does not define data.mcp.fetch.allow`, flag({ fetch: { policies: [{ url: other }] } }));
    assertLoadError(`invalid --policies-json: fetch.policies[0].rule: the Rego policy at ${path.join(dir, 'other.rego')} does not define data.mcp.other.deny`, flag({ fetch: { policies: [{ url: other, rule: 'data.mcp.other.deny' }] } }));
    assertLoadError(`invalid --policies-json: fetch.policies[0].rule: expected a rule path like data.mcp.fetch.allow (names separated by dots), got 'data/x'`, flag({ fetch: { policies: [{ url: other, rule: 'data/x' }] } }));
    assertLoadError(`invalid --policies-json: fetch.policies[0].policy_path: applies to OPA servers (http:// or https://) only; a Rego source names its rule with rule`, flag({ fetch: { policies: [{ url: other, policy_path: 'x/y' }] } }));
    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    assertLoadError(`invalid --policies-json: fetch.policies[0].url: ${empty} holds no .rego files`, flag({ fetch: { policies: [{ url: pathToFileURL(empty).href }] } }));
    assertLoadError("invalid --policies-json: fetch.policies[0].url: cannot read /does/not/exist.rego: ENOENT: no such file or directory, stat '/does/not/exist.rego'",
      flag({ fetch: { policies: [{ url: 'file:///does/not/exist.rego' }] } }));
    const big = at('big.rego', `package mcp.fetch\n#${'x'.repeat(MAX_REGO_SOURCE_BYTES)}\n`);
    assertLoadError(`invalid --policies-json: fetch.policies[0].url: the Rego source at ${path.join(dir, 'big.rego')} is larger than ${MAX_REGO_SOURCE_BYTES} bytes`, flag({ fetch: { policies: [{ url: big }] } }));
    const txt = pathToFileURL(writeFile(dir, 'x.txt', '')).href;
    assertLoadError(`invalid --policies-json: fetch.pre[0].url: a file:// source must be a Rego file (.rego), a directory of them, or a JavaScript hook (.js or .mjs), got '${txt}'`,
      flag({ fetch: { pre: [{ url: txt }] } }));
  });

  test('JavaScript hooks: read, parsed and checked at startup', () => {
    const dir = tempDir();
    const at = (name: string, code: string): string => pathToFileURL(writeFile(dir, name, code)).href;
    const missing = path.join(dir, 'missing.js');
    assertLoadError(`invalid --policies-json: fetch.pre[0].url: cannot read ${missing}: ENOENT: no such file or directory, stat '${missing}'`,
      flag({ fetch: { pre: [{ url: pathToFileURL(missing).href }] } }));
    assertLoadError(`invalid --policies-json: fetch.pre[0].url: ${path.join(dir, 'bad.js')} is not a valid JavaScript module: Unexpected token (1:16)`,
      flag({ fetch: { pre: [{ url: at('bad.js', 'export default {') }] } }));
    assertLoadError(`invalid --policies-json: fetch.pre[0].url: ${path.join(dir, 'named.js')} has no default export; export the hook function with \`export default function (input, meta) { … }\``,
      flag({ fetch: { pre: [{ url: at('named.js', 'export function hook() {}') }] } }));
    assertLoadError(`invalid --policies-json: fetch.pre[0].url: ${path.join(dir, 'imp.js')} imports other modules; a hook must be one self-contained file`,
      flag({ fetch: { pre: [{ url: at('imp.js', 'import x from "./y.js"; export default x;') }] } }));
    const ok = at('ok.mjs', 'export default () => undefined;');
    // `fs`: the hook's directory is read now (regular files only, no dot-entries), base64.
    mkdirSync(path.join(dir, 'data'));
    writeFileSync(path.join(dir, 'data', 'allow.json'), '["a"]');
    writeFileSync(path.join(dir, '.swp'), 'x');
    const withFs = parsePolicyConfig({ fetch: { pre: [{ url: ok, capabilities: ['fs', 'fs'] }] } }).fetch?.pre[0];
    assert.ok(withFs?.kind === 'js');
    assert.deepEqual(withFs.capabilities, ['fs']);
    assert.equal(withFs.files?.root, dir);
    assert.equal(Buffer.from(withFs.files?.files['data/allow.json'] ?? '', 'base64').toString(), '["a"]');
    assert.equal(withFs.files?.files['.swp'], undefined);
    assert.equal(typeof withFs.files?.files['ok.mjs'], 'string');
    assertLoadError("invalid --policies-json: fetch.pre[0].capabilities[1]: unknown capability \"net\" (expected 'fetch' or 'fs')",
      flag({ fetch: { pre: [{ url: ok, capabilities: ['fetch', 'net'] }] } }));
    assertLoadError('invalid --policies-json: fetch.pre[0].policy_path: applies to OPA servers (http:// or https://) only',
      flag({ fetch: { pre: [{ url: ok, policy_path: 'a/b' }] } }));
    assert.equal(load(flag({ fetch: { pre: [{ url: ok }] } })).policiesJson !== undefined, true);
  });

  test('a config file names the section and the file', () => {
    const dir = tempDir();
    const file = writeFile(dir, 'c.toml', '[policies.fetch]\nmode = "most"\n');
    assertLoadError(`invalid policies in ${file}: fetch.mode: expected "all" or "any", got "most"`, ['--config=c.toml'], {}, dir);
  });
});
