import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { maxSatisfying, satisfies, compareVersions, parseVersion } from '../../../supervisor/modules/semver-range.ts';

describe('semver ranges (the common subset)', () => {
  test('versions order with prereleases below their release', () => {
    const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.10.0', '2.0.0'];
    for (let i = 1; i < order.length; i++) assert.equal(compareVersions(parseVersion(order[i - 1]!)!, parseVersion(order[i]!)!), -1, `${order[i - 1]} < ${order[i]}`);
  });

  const cases: [string, string, boolean][] = [
    ['1.2.3', '^1.2.3', true], ['1.9.9', '^1.2.3', true], ['2.0.0', '^1.2.3', false], ['1.2.2', '^1.2.3', false],
    ['0.2.5', '^0.2.3', true], ['0.3.0', '^0.2.3', false], ['0.0.3', '^0.0.3', true], ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true], ['1.3.0', '~1.2.3', false], ['1.9.0', '~1', true], ['2.0.0', '~1', false],
    ['1.5.0', '1.x', true], ['2.0.0', '1.x', false], ['1.2.7', '1.2', true], ['3.0.0', '*', true], ['3.0.0', '', true],
    ['1.5.0', '>=1.2.0 <2', true], ['2.0.0', '>=1.2.0 <2', false], ['1.5.0', '>= 1.2.0 < 2', true],
    ['1.0.0', '1.0.0', true], ['1.0.1', '=1.0.0', false], ['v1.0.0', '1.0.0', true],
    ['2.5.0', '1.2.3 - 2.5', true], ['2.6.0', '1.2.3 - 2.5', false], ['1.2.2', '1.2.3 - 2.5', false],
    ['3.1.0', '^1 || ^3', true], ['2.1.0', '^1 || ^3', false], ['2.0.0', '>1', true], ['1.9.0', '>1', false], ['1.2.9', '<=1.2', true], ['1.3.0', '<=1.2', false],
    // Prereleases only when the range names one on the same major.minor.patch.
    ['2.0.0-beta.1', '^1.0.0', false], ['2.0.0-beta.1', '*', false], ['1.2.4-beta.2', '^1.2.4-beta.1', true], ['1.2.5-beta.2', '^1.2.4-beta.1', false],
    ['1.9.0-rc.1', '<2', false],
  ];
  for (const [version, range, expected] of cases) {
    test(`${version} ${expected ? 'satisfies' : 'does not satisfy'} '${range}'`, () => assert.equal(satisfies(version, range), expected));
  }

  test('maxSatisfying picks the highest match', () => {
    assert.equal(maxSatisfying(['1.0.0', '1.2.0', '1.10.0', '2.0.0', '2.1.0-beta'], '^1'), '1.10.0');
    assert.equal(maxSatisfying(['1.0.0'], '^2'), undefined);
  });

  test('text that is no range throws', () => {
    assert.throws(() => satisfies('1.0.0', 'banana'), SyntaxError);
  });
});
