// node:test's output: Node 24's default `spec` reporter, which is what `node file.mjs` prints
// also when stdout is a file or a pipe. A parent's `▶ name` line comes before its first
// finished child; every test's line comes when it finishes; the summary and the failing tests
// (those that failed themselves, not for a subtest) come when the root is done. Durations are
// runjs's own and vary from run to run. Unlike Node, a failing test's entry has no
// `test at <file>:<line>:<column>` line (a run is one file, /main.js).
import core from 'runjs:part/core';
import utilPart from 'runjs:part/util';

const { inspect } = utilPart;
// Taken when the part loads (a script's imports come first), so a script that mocks or replaces
// console.log does not catch the report: Node's reporter writes to stdout, not through console.
const realConsole = core.globals.console;
const realLog = realConsole.log;
const print = (text) => Reflect.apply(realLog, realConsole, [text]);
const indent = (nesting) => '  '.repeat(nesting);

function directive(test) {
  if (test.skip !== undefined) return typeof test.skip === 'string' ? ` # ${test.skip}` : ' # SKIP';
  if (test.todo !== undefined) return typeof test.todo === 'string' ? ` # ${test.todo}` : ' # TODO';
  return '';
}

function symbol(test) {
  if (test.skip !== undefined) return '﹣';
  if (test.error === undefined) return '✔';
  return test.todo !== undefined ? '⚠' : '✖';
}

const resultLine = (test) => `${symbol(test)} ${test.name}${test.duration === undefined ? '' : ` (${test.duration}ms)`}${directive(test)}`;

export class Reporter {
  counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  failures = [];

  /** Prints the `▶` lines of `test` and its ancestors not printed yet, outermost first. */
  header(test) {
    if (test.kind === 'root' || test.headerPrinted) return;
    this.header(test.parent);
    test.headerPrinted = true;
    print(`${indent(test.nesting)}▶ ${test.name}`);
  }

  complete(test) {
    if (test.kind === 'root') return;
    this.header(test.parent);
    const lines = [`${indent(test.nesting)}${resultLine(test)}`];
    for (const d of test.diagnostics) lines.push(`${indent(test.nesting)}ℹ ${d}`);
    print(lines.join('\n'));
    const c = this.counts;
    if (test.kind === 'suite') c.suites++;
    else {
      c.tests++;
      if (test.skip !== undefined) c.skipped++;
      else if (test.todo !== undefined) c.todo++;
      else if (test.error === undefined) c.pass++;
      else if (test.cancelled) c.cancelled++;
      else c.fail++;
    }
    if (test.error !== undefined && !test.error.subtests && test.skip === undefined) this.failures.push(test);
  }

  /** The summary lines; returns the counts and starts afresh for tests queued later. */
  summary(durationMs) {
    const c = this.counts;
    const lines = [`ℹ tests ${c.tests}`, `ℹ suites ${c.suites}`, `ℹ pass ${c.pass}`, `ℹ fail ${c.fail}`, `ℹ cancelled ${c.cancelled}`,
      `ℹ skipped ${c.skipped}`, `ℹ todo ${c.todo}`, `ℹ duration_ms ${durationMs}`];
    if (this.failures.length > 0) {
      lines.push('', '✖ failing tests:');
      for (const test of this.failures) {
        lines.push('', resultLine(test));
        for (const l of inspect(test.error.value).trimEnd().split('\n')) lines.push(`  ${l}`);
      }
    }
    print(lines.join('\n'));
    this.counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
    this.failures = [];
    return c;
  }
}
