// Every case file in test/fixtures/rego/*.json (OPA's test-case shape, our own policies and
// expected results; one file per feature) run against the evaluator, one test per case.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { runCase, type CaseFile } from './case-runner.ts';

const DIR = new URL('../../../fixtures/rego/', import.meta.url);

for (const name of readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()) {
  const file = JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as CaseFile;
  describe(name.replace(/\.json$/, ''), () => {
    for (const c of file.cases) test(c.note, () => assert.equal(runCase(c), undefined));
  });
}

test('the fixture directory holds case files', () => {
  assert.ok(readdirSync(DIR).filter((f) => f.endsWith('.json')).length >= 10);
});
