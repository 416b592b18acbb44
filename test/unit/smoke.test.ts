import { test } from 'node:test';
import assert from 'node:assert/strict';
test('node 24 runs the tests', () => {
  assert.equal(Number(process.versions.node.split('.')[0]), 24);
});
