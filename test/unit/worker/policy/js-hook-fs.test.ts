// The `fs` capability of a JavaScript policy hook: the hook reads its own directory's files (as the
// supervisor read them at startup), relative or absolute inside it, and nothing else.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsHook } from '../../../../worker/policy/js-hook.ts';
import type { JsHookSource } from '../../../../shared/policy-settings.ts';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const files = { root: '/etc/runjs/hooks', files: { 'allow.json': b64('{"labels":["dev"]}'), 'lists/deny.txt': b64('prod\n') } };

function hook(code: string, capabilities: JsHookSource['capabilities']): JsHook {
  return new JsHook({ kind: 'js', url: 'file:///etc/runjs/hooks/h.js', code, timeoutMs: 2000, capabilities, files }, () => {});
}

test('a hook with fs reads, lists and probes its own directory only', async () => {
  const h = hook(`export default (input) => {
    const out = [];
    const allow = JSON.parse(fs.readFileSync('allow.json', 'utf8'));
    out.push(allow.labels.includes(input.label));
    out.push(fs.readFileSync('/etc/runjs/hooks/lists/deny.txt', { encoding: 'utf8' }));
    out.push(Array.from(fs.readFileSync('lists/deny.txt')).length);
    out.push(fs.readdirSync('.'), fs.readdirSync('lists'));
    out.push(fs.existsSync('lists'), fs.existsSync('nope'), fs.existsSync('../hooks/allow.json'), fs.existsSync('/etc/passwd'));
    for (const p of ['../../passwd', '/etc/passwd', 'lists']) { try { fs.readFileSync(p, 'utf8'); out.push('read ' + p); } catch (e) { out.push(e.message); } }
    return { allow: true, reason: JSON.stringify(out) };
  }`, ['fs']);
  try {
    const r = await h.call([{ label: 'dev' }, {}]) as { reason: string };
    assert.deepEqual(JSON.parse(r.reason), [
      true, 'prod\n', 5, ['allow.json', 'lists'], ['deny.txt'], true, false, true, false,
      "ENOENT: no such file or directory, open '../../passwd'",
      "ENOENT: no such file or directory, open '/etc/passwd'",
      "EISDIR: illegal operation on a directory, read 'lists'",
    ]);
    assert.deepEqual(await h.call([{}, {}]), { allow: true, reason: JSON.stringify([false, 'prod\n', 5, ['allow.json', 'lists'], ['deny.txt'], true, false, true, false,
      "ENOENT: no such file or directory, open '../../passwd'", "ENOENT: no such file or directory, open '/etc/passwd'", "EISDIR: illegal operation on a directory, read 'lists'"]) });
  } finally {
    h.dispose();
  }
});

test('a hook without the fs capability has no fs', async () => {
  const h = hook('export default () => typeof fs', ['fetch']);
  try {
    assert.equal(await h.call([{}, {}]), 'undefined');
  } finally {
    h.dispose();
  }
});
