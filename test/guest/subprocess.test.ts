// node:child_process and Deno.Command on both engines: the default deny (no policy, and a policy
// that does not allow the command) with the reference's texts, exec/execFile/spawn with streams and
// stdin, the child's environment (only the script's) and working directory (the run's own), the
// sync forms refused, the per-run limits, and children (with what they started) killed when the
// run ends.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guestSuite } from '../helpers/both-engines.ts';
import { DEFAULT_HOST_OP_LIMITS } from '../../shared/worker-settings.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';

const hookDir = mkdtempSync(join(tmpdir(), 'runjs-proc-hooks-'));
function hook(name: string, code: string): string {
  writeFileSync(join(hookDir, name), code);
  return pathToFileURL(join(hookDir, name)).href;
}

/** Whether `pid` runs (a zombie waiting for a parent that does not reap it counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

guestSuite('subprocess without a policy', (g) => {
  g.test('every form is denied with the reference text, and the decision is logged', async (ctx) => {
    const res = await ctx.run(`
      const cp = await import('node:child_process');
      await new Promise((resolve) => cp.exec('echo hi', (err, stdout) => { console.log(err.message, err.code, JSON.stringify(stdout)); resolve(); }));
      const child = cp.spawn('echo', ['x']);
      await new Promise((resolve) => child.on('error', (e) => { console.log(e.message); }).on('close', (code) => { console.log('close', child.pid, code); resolve(); }));
      try { await new Deno.Command('ls', { args: ['/'] }).output(); } catch (e) { console.log(e.message); }
    `);
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.equal(res.output, [
      "subprocess.exec denied by policy: '/bin/sh' is not allowed ERR_POLICY_DENIED \"\"",
      "subprocess.spawn denied by policy: 'echo' is not allowed",
      'close undefined null',
      "subprocess.command_output denied by policy: 'ls' is not allowed",
      '',
    ].join('\n'));
    const entries = res.decisions?.entries ?? [];
    assert.equal(entries.length, 3);
    assert.deepEqual([entries[0]!.category, entries[0]!.verdict, entries[0]!.input], ['subprocess', 'deny', { operation: 'exec', command: '/bin/sh', args: ['-c', 'echo hi'] }]);
  });

  g.test('the sync forms throw', async (ctx) => {
    const out = await ctx.output(`
      const cp = require('child_process');
      for (const f of ['execSync', 'execFileSync', 'spawnSync']) {
        try { cp[f]('echo'); } catch (e) { console.log(e.code, e.message.split(':')[0]); }
      }
      try { new Deno.Command('echo').outputSync(); } catch (e) { console.log(e.code); }
    `);
    assert.equal(out, [
      'ERR_RUNJS_SUBPROCESS_SYNC child_process.execSync is not supported in runjs',
      'ERR_RUNJS_SUBPROCESS_SYNC child_process.execFileSync is not supported in runjs',
      'ERR_RUNJS_SUBPROCESS_SYNC child_process.spawnSync is not supported in runjs',
      'ERR_RUNJS_SUBPROCESS_SYNC',
      '',
    ].join('\n'));
  });
});

guestSuite('subprocess under a policy', (g) => {
  g.test('exec and execFile collect output; a failing command is an error with its code; promisify', async (ctx) => {
    const out = await ctx.output(`
      const cp = require('node:child_process');
      const { promisify } = require('node:util');
      await new Promise((resolve) => cp.exec('echo hi; echo oops >&2', (err, stdout, stderr) => { console.log(err, JSON.stringify(stdout), JSON.stringify(stderr)); resolve(); }));
      const r = await promisify(cp.execFile)('echo', ['a', 'b']);
      console.log(JSON.stringify(r));
      try { await promisify(cp.exec)('echo partial; exit 3'); } catch (e) { console.log(e.code, e.killed, e.signal, JSON.stringify(e.stdout), e.message.split('\\n')[0]); }
      const b = await promisify(cp.exec)('printf abc', { encoding: 'buffer' });
      console.log(Buffer.isBuffer(b.stdout), b.stdout.toString('hex'));
    `);
    assert.equal(out, [
      'null "hi\\n" "oops\\n"',
      '{"stdout":"a b\\n","stderr":""}',
      '3 false null "partial\\n" Command failed: echo partial; exit 3',
      'true 616263',
      '',
    ].join('\n'));
  });

  g.test('spawn: stdin in, stdout and stderr as streams, spawn/exit/close in order', async (ctx) => {
    const out = await ctx.output(`
      const { spawn } = require('node:child_process');
      const child = spawn('cat');
      const events = [];
      child.on('spawn', () => events.push('spawn ' + (typeof child.pid)));
      child.on('exit', (code, signal) => events.push('exit ' + code + ' ' + signal));
      let got = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (d) => { got += d; });
      child.stdin.write('hello ');
      child.stdin.end(Buffer.from('world'));
      const code = await new Promise((r) => child.on('close', r));
      console.log(events.join(', '), '|', code, JSON.stringify(got), child.exitCode);
      const k = spawn('sleep', ['10']);
      await new Promise((r) => k.on('spawn', r));
      console.log(k.kill(), k.killed);
      console.log(await new Promise((r) => k.on('close', (code, signal) => r(code + ' ' + signal))));
    `);
    assert.equal(out, 'spawn number, exit 0 null | 0 "hello world" 0\ntrue true\nnull SIGTERM\n');
  });

  g.test('options: stdio inherit (the run\'s output), shell, timeout with killSignal, an AbortSignal', async (ctx) => {
    const out = await ctx.output(`
      const { spawn, execFile } = require('node:child_process');
      const a = spawn('echo', ['to the output'], { stdio: 'inherit' });
      console.log(a.stdout);
      await new Promise((r) => a.on('close', r));
      const b = spawn('echo $((6 * 7))', { shell: true });
      b.stdout.on('data', (d) => console.log('shell', String(d).trim()));
      await new Promise((r) => b.on('close', r));
      const c = spawn('sleep', ['10'], { timeout: 100, killSignal: 'SIGKILL' });
      console.log(await new Promise((r) => c.on('exit', (code, signal) => r(code + ' ' + signal))));
      const ac = new AbortController();
      const d = execFile('sleep', ['10'], { signal: ac.signal }, (err) => console.log('callback', err.name, err.code));
      d.on('spawn', () => ac.abort());
      await new Promise((r) => d.on('close', r));
    `);
    assert.equal(out, 'null\nto the output\nshell 42\nnull SIGKILL\ncallback AbortError ABORT_ERR\n');
  });

  g.test('the child gets only the environment the script passes, and runs in the run\'s own directory', async (ctx) => {
    const out = await ctx.output(`
      const { promisify } = require('node:util');
      const exec = promisify(require('node:child_process').execFile);
      console.log(JSON.stringify((await exec('/usr/bin/env')).stdout));
      console.log(JSON.stringify((await exec('/usr/bin/env', [], { env: { A: '1', B: 'two' } })).stdout));
      const pwd = (await exec('/bin/pwd')).stdout.trim();
      console.log(pwd.includes('runjs-proc-'));
      await exec('/bin/mkdir', ['sub']);
      console.log((await exec('/bin/pwd', [], { cwd: 'sub' })).stdout.trim() === pwd + '/sub');
      try { await exec('/bin/pwd', [], { cwd: '../..' }); } catch (e) { console.log(e.code, e.message); }
      const d = await new Deno.Command('/bin/sh', { args: ['-c', 'echo out; echo err >&2; exit 2'] }).output();
      console.log(d.code, d.success, d.signal, d.stdout instanceof Uint8Array, new TextDecoder().decode(d.stdout), new TextDecoder().decode(d.stderr).trim());
      try { await new Deno.Command('/no/such/thing').output(); } catch (e) { console.log(e.name, e.message); }
    `);
    assert.equal(out, [
      '""',
      '"A=1\\nB=two\\n"',
      'true',
      'true',
      'ERR_RUNJS_SUBPROCESS_CWD subprocess: the relative cwd "../.." leaves the execution\'s working directory',
      '2 false null true out\n err',
      "NotFound Failed to spawn '/no/such/thing': No such file or directory (os error 2)",
      '',
    ].join('\n'));
  });

  g.test('a command the policy does not allow is denied with its reason; a pre hook may rewrite the command', async (ctx) => {
    const out = await ctx.output(`
      const { execFile } = require('node:child_process');
      await new Promise((r) => execFile('/bin/rm', ['-rf', '/'], (err) => { console.log(err.message, err.code); r(); }));
      await new Promise((r) => execFile('greet', ['you'], (err, stdout) => { console.log(err, stdout.trim()); r(); }));
    `);
    assert.equal(out, 'subprocess.spawn denied by policy: /bin/rm is not allowed ERR_POLICY_DENIED\nnull rewritten you\n');
  });

  g.test('children and what they started are killed when the run ends', async (ctx) => {
    const res = await ctx.run(`
      const { spawn } = require('node:child_process');
      const child = spawn('/bin/sh', ['-c', 'sleep 30 & echo $$ $!; wait']);
      child.stdout.on('data', (d) => console.log(String(d).trim()));
    `, { timeoutMs: 1500 });
    assert.equal(res.outcome.status, 'timed_out');
    const pids = res.output.trim().split(' ').map(Number);
    assert.equal(pids.length, 2);
    for (const pid of pids) assert.ok(await gone(pid), `process ${pid} is gone`);
  });

  g.test('an unref\'d child does not keep the run alive, and is killed when the run ends', async (ctx) => {
    const out = await ctx.output(`
      const { spawn } = require('node:child_process');
      const child = spawn('/bin/sh', ['-c', 'echo $$; sleep 30']);
      const pid = await new Promise((r) => child.stdout.once('data', (d) => r(String(d).trim())));
      child.unref();
      console.log(pid);
    `);
    assert.ok(await gone(Number(out.trim())), 'the unref\'d child is gone');
  });

  g.test('per-run limits: children at once, output bytes', async (ctx) => {
    const out = await ctx.output(`
      const { spawn, exec } = require('node:child_process');
      const kids = [spawn('sleep', ['5']), spawn('sleep', ['5']), spawn('sleep', ['5'])];
      await new Promise((r) => kids[2].on('error', (e) => { console.log(e.code, e.message); r(); }));
      for (const k of kids.slice(0, 2)) k.kill('SIGKILL');
      await Promise.all(kids.slice(0, 2).map((k) => new Promise((r) => k.on('close', r))));
      await new Promise((r) => exec('head -c 300000 /dev/zero', { maxBuffer: 1e9 }, (err) => { console.log(err.code, err.message); r(); }));
    `);
    assert.equal(out, [
      'ERR_RUNJS_SUBPROCESS_TOO_MANY subprocess: more than 2 child processes of this execution are running at once; wait for earlier ones to exit',
      "ERR_RUNJS_SUBPROCESS_OUTPUT_LIMIT subprocess: the execution's child processes wrote more than 131072 bytes (0.125 MiB) of output, the per-execution limit; the child was killed",
      '',
    ].join('\n'));
  });
}, {
  pool: {
    hostOpLimits: { ...DEFAULT_HOST_OP_LIMITS, subprocess: { maxRunning: 2, maxOutputBytesPerRun: 128 * 1024 } },
    get policies() {
      return parsePolicyConfig({
        subprocess: {
          pre: [{ url: hook('rewrite.js', "export default (input) => input.command === 'greet' ? { input: { ...input, command: '/bin/echo', args: ['rewritten', ...input.args] } } : undefined;") }],
          policies: [{ url: hook('allow.js', "export default (input) => input.command === '/bin/rm' ? { allow: false, reason: input.command + ' is not allowed' } : true;") }],
        },
      });
    },
  },
});
