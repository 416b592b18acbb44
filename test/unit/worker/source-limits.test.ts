// The limits a script's source is held to before esbuild sees it (worker/source/source-limits.ts):
// exact texts and positions; brackets inside strings, comments, templates and regexes are not
// counted; the indentation estimate is an upper bound of what esbuild prints for the shapes it
// amplifies, and stays far under the budget for real code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import {
  checkSourceLimits, estimateIndentLevels, MAX_INDENT_LEVELS, MAX_NESTING, MAX_SOURCE_BYTES, SOURCE_LIMIT_TEXTS,
} from '../../../worker/source/source-limits.ts';

const TOO_DEEP = 'brackets, braces and parentheses nest deeper than 1000 levels (the limit for scripts)';

test('the limits and their texts', () => {
  assert.equal(MAX_SOURCE_BYTES, 4 * 1024 * 1024);
  assert.equal(MAX_NESTING, 1000);
  assert.equal(SOURCE_LIMIT_TEXTS.tooDeep, TOO_DEEP);
  assert.equal(SOURCE_LIMIT_TEXTS.tooLarge(5_000_000), 'the script is 5000000 bytes; scripts may be at most 4194304 bytes (4 MiB)');
});

test('nesting deeper than 1000 is refused at the bracket that crosses it, for every kind of bracket', () => {
  for (const open of ['[', '(', '{']) {
    assert.deepEqual(checkSourceLimits(open.repeat(1_000_000)), { message: TOO_DEEP, line: 1, column: 1001 }, open);
  }
  assert.deepEqual(checkSourceLimits('`${'.repeat(1001)), { message: TOO_DEEP, line: 1, column: 3002 });
  assert.deepEqual(checkSourceLimits(`x\n  y = ${'[({'.repeat(400)}`), { message: TOO_DEEP, line: 2, column: 1007 });
  assert.equal(checkSourceLimits(`${'['.repeat(1000)}${']'.repeat(1000)}`), undefined);
  // Depth, not count: many shallow brackets are fine.
  assert.equal(checkSourceLimits('f([1], (2), {a: 3});\n'.repeat(50_000)), undefined);
});

test('brackets that are text do not count: strings, comments, templates, regular expressions', () => {
  const deep = '('.repeat(5000);
  for (const source of [
    `const s = '${deep}'; const t = "${deep}";`,
    `// ${deep}\n1`,
    `/* ${deep}\n${deep} */ 1`,
    `const t = \`${deep}\${ [1].map((x) => \`${deep}\`) }${deep}\`;`,
    `const r = /${'\\('.repeat(5000)}[(]/g; if (x) /(/.test(s); const q = a / (b) / (c);`,
    `#!/usr/bin/env node ${deep}\n1`,
    `const s = 'it\\'s ${deep}'; const u = "\\"${deep}";`,
  ]) {
    assert.equal(checkSourceLimits(source), undefined, source.slice(0, 60));
  }
});

test('a script over 4 MiB of UTF-8 is refused; 4 MiB is fine', () => {
  assert.equal(checkSourceLimits(`//${'x'.repeat(MAX_SOURCE_BYTES - 2)}`), undefined);
  assert.deepEqual(checkSourceLimits(`//${'x'.repeat(MAX_SOURCE_BYTES - 1)}`), { message: SOURCE_LIMIT_TEXTS.tooLarge(MAX_SOURCE_BYTES + 1) });
  // Bytes, not characters: 1.5 Mi three-byte characters are 4.5 MiB.
  assert.deepEqual(checkSourceLimits(`//${'€'.repeat(1.5 * 1024 * 1024)}`), { message: SOURCE_LIMIT_TEXTS.tooLarge(2 + 4.5 * 1024 * 1024) });
});

test('blocks nested and repeated until esbuild would print gigabytes of indentation are refused', () => {
  const chunk = `${'{'.repeat(1000)}${'}'.repeat(1000)}\n`; // 2 KB that esbuild prints as 2 MB
  const v = checkSourceLimits(chunk.repeat(100));
  assert.equal(v?.message, `the script nests too deeply for its length: transpiled, it would be indented more than ${MAX_INDENT_LEVELS} levels in total (the limit for scripts); flatten deeply nested blocks that repeat`);
  assert.equal(checkSourceLimits(chunk.repeat(5)), undefined);
});

/** The indentation levels esbuild actually printed (two spaces each). */
function printedLevels(code: string): number {
  let n = 0;
  for (const line of code.split('\n')) n += (/^ */.exec(line)![0].length) / 2;
  return n;
}

test('the estimate bounds what esbuild prints for shapes that amplify, with or without brackets', async () => {
  const shapes: Record<string, string> = {
    blocks: `${'{'.repeat(300)}${'}'.repeat(300)}\n`.repeat(3),
    functions: 'function a(){'.repeat(200) + '}'.repeat(200),
    nestedIfs: 'if(a)'.repeat(300) + 'b;',
    elseChainUnderIfs: 'if(a)'.repeat(200) + '{}\n' + 'else if(a)c;'.repeat(500),
    doWhile: 'do '.repeat(200) + 'b;' + 'while(a);'.repeat(200),
    dottedNamespace: `namespace ${Array(150).fill('a').join('.')} {}`,
    multilineArrays: `x=${'[\n'.repeat(300)}1${']'.repeat(300)}`,
    multilineCalls: `${'f(\n'.repeat(300)}1${')'.repeat(300)}`,
    switchCases: `${'{'.repeat(200)}switch(a){${'case 1:'.repeat(300)}}${'}'.repeat(200)}`,
    headObjects: 'if({})'.repeat(200) + 'b;' + 'else if(a)c;'.repeat(300),
  };
  for (const [name, source] of Object.entries(shapes)) {
    const printed = printedLevels((await transform(source, { loader: 'ts', format: 'esm' })).code);
    assert.ok(printed > 10_000, `${name} amplifies (${printed})`);
    assert.ok(estimateIndentLevels(source) >= printed, `${name}: estimate ${estimateIndentLevels(source)} < printed ${printed}`);
  }
});

test('real code is estimated far under the budget', async () => {
  // typescript.js cut to the size limit (3.7 M levels for all 9 MB of it), and minified bundles,
  // whose one-line code esbuild spreads over many lines.
  const sources = [readFileSync('node_modules/typescript/lib/typescript.js', 'utf8').slice(0, MAX_SOURCE_BYTES)];
  for (const file of ['node_modules/lodash/lodash.js', 'node_modules/acorn/dist/acorn.js']) {
    sources.push((await transform(readFileSync(file, 'utf8'), { minify: true })).code);
  }
  for (const source of sources) assert.ok(estimateIndentLevels(source) < MAX_INDENT_LEVELS / 8, String(estimateIndentLevels(source)));
});
