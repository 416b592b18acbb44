// The host's own checks of what the guest glue of child_process and node:http2 hands it (the
// guest is untrusted: these hold whatever a script does to the glue), and the subprocess denial
// text (the reference's, with or without a configured policy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpawn } from '../../../worker/ops/subprocess/subprocess-request.ts';
import { decideSpawn } from '../../../worker/ops/subprocess/subprocess-policy.ts';
import { checkHeaders, checkOrigin } from '../../../worker/ops/http2/http2-request.ts';
import { PolicyDeniedError } from '../../../worker/policy/policy-errors.ts';
import type { OpContext } from '../../../worker/ops/op-types.ts';

test('checkSpawn: operation, command, args, cwd, env, timeout and signal are checked', () => {
  assert.deepEqual(checkSpawn({ operation: 'exec', command: '/bin/sh', args: ['-c', 'echo'] }), {
    operation: 'exec', command: '/bin/sh', args: ['-c', 'echo'], timeoutMs: 0, killSignal: 'SIGTERM', stdin: true,
  });
  const full = checkSpawn({ operation: 'spawn', command: 'ls', args: [], cwd: 'x', env: { A: '1' }, timeoutMs: 5, killSignal: 'SIGKILL', stdin: false });
  assert.deepEqual([full.cwd, full.env, full.timeoutMs, full.killSignal, full.stdin], ['x', { A: '1' }, 5, 'SIGKILL', false]);
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ operation: 'fork', command: 'ls' }, /unknown operation/],
    [{ operation: 'spawn', command: '' }, /must not be empty/],
    [{ operation: 'spawn', command: 'l\0s' }, /without NUL/],
    [{ operation: 'spawn', command: 'ls', args: [1] }, /args\[0\] must be a string/],
    [{ operation: 'spawn', command: 'ls', args: 'a' }, /args must be/],
    [{ operation: 'spawn', command: 'ls', env: { 'A=B': 'x' } }, /variable name/],
    [{ operation: 'spawn', command: 'ls', env: { A: 1 } }, /env\.A must be a string/],
    [{ operation: 'spawn', command: 'ls', timeoutMs: -1 }, /timeout/],
    [{ operation: 'spawn', command: 'ls', killSignal: 'SIGNOPE' }, /unknown signal/],
    [{ operation: 'spawn', command: 'ls', args: ['x'.repeat(1024 * 1024)] }, /larger than/],
  ];
  for (const [args, re] of bad) assert.throws(() => checkSpawn(args), re, JSON.stringify(args).slice(0, 80));
});

function fakeCtx(configured: boolean, reason: string): OpContext {
  return {
    policy: {
      configured: () => configured,
      enforce: async () => { throw new PolicyDeniedError('subprocess', reason); },
    },
  } as unknown as OpContext;
}

test('a subprocess denial reads as the reference says, with the source\'s reason when it gives one', async () => {
  const req = checkSpawn({ operation: 'command_output', command: 'ls' });
  await assert.rejects(decideSpawn(req, fakeCtx(false, 'no subprocess policy is configured'), new AbortController().signal), {
    message: "subprocess.command_output denied by policy: 'ls' is not allowed", code: 'ERR_POLICY_DENIED',
  });
  await assert.rejects(decideSpawn(req, fakeCtx(true, 'ls is for humans'), new AbortController().signal), {
    message: 'subprocess.command_output denied by policy: ls is for humans',
  });
});

test('http2: origins are http(s) origins; request headers are lowercase tokens with clean values', () => {
  assert.equal(checkOrigin('https://a.example:8443/path?q').href, 'https://a.example:8443/');
  assert.equal(checkOrigin('http://127.0.0.1:5000').href, 'http://127.0.0.1:5000/');
  for (const bad of ['ftp://a', 'not a url', 42, 'https://']) assert.throws(() => checkOrigin(bad), /is not an http\(s\) URL/);
  const h = checkHeaders({ ':method': 'POST', ':path': '/pkg.Svc/M', 'content-type': 'application/grpc', te: 'trailers' });
  assert.deepEqual([h.method, h.path, h.authority, [...h.headers]], ['POST', '/pkg.Svc/M', undefined, [['content-type', 'application/grpc'], ['te', 'trailers']]]);
  assert.deepEqual([checkHeaders({}).method, checkHeaders({}).path], ['GET', '/']);
  const bad: [unknown, RegExp][] = [
    [{ ':status': '200' }, /invalid pseudoheader/],
    [{ 'Bad Name': 'x' }, /valid HTTP token/],
    [{ 'x-a': 'a\r\nb: c' }, /Invalid value/],
    [{ connection: 'close' }, /Connection specific/],
    [{ te: 'gzip' }, /Connection specific/],
    [{ host: 'x' }, /Connection specific/],
    [{ ':method': 'GE T' }, /Invalid value/],
    [{ 'x-a': 1 }, /Invalid value/],
    [[], /malformed headers/],
  ];
  for (const [headers, re] of bad) assert.throws(() => checkHeaders(headers), re, JSON.stringify(headers));
});
