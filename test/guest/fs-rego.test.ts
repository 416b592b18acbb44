// The `filesystem` policy decided by a Rego file (issue 14's end-to-end case): writes only under
// /work/out/, reads anywhere under /work, on both engines.
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guestSuite } from '../helpers/both-engines.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-rego-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const policyFile = join(dir, 'filesystem.rego');
writeFileSync(policyFile, `package mcp.filesystem

default allow := false

writes := {"writeFile", "appendFile", "mkdir", "rm", "rename", "copyFile", "symlink"}

allow if {
  not input.operation in writes
  startswith(input.path, "/work")
}

allow if {
  input.operation in writes
  startswith(input.path, "/work/out/")
}

allow if {
  input.operation == "mkdir"
  input.path == "/work/out"
}
`);

guestSuite('node:fs under a Rego filesystem policy', (g) => {
  g.test('writes by path prefix, reads anywhere under /work', async (ctx) => {
    const res = await ctx.run(`
      import fs from 'node:fs/promises';
      await fs.mkdir('/work/out');
      await fs.writeFile('/work/out/a.txt', 'kept');
      console.log(await fs.readFile('/work/out/a.txt', 'utf8'));
      try { await fs.writeFile('/work/b.txt', 'x'); } catch (e) { console.log(e.code); }
      console.log((await fs.readdir('/work')).join());
    `);
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.equal(res.output, 'kept\nEACCES\nout\n');
    assert.deepEqual((res.decisions?.entries ?? []).map((e) => e.verdict), ['allow', 'allow', 'allow', 'deny', 'allow']);
  });
}, {
  pool: {
    get policies() {
      return parsePolicyConfig({ filesystem: { policies: [{ url: pathToFileURL(policyFile).href }] } });
    },
  },
});
