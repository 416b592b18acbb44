// No module-level mutable state in worker/: per-worker state lives on the WorkerHost and in
// capability factories' closures, per-run state in RunResources (docs/architecture.md). This test
// reads every worker source file and refuses top-level `let`/`var` and collections created empty
// at the top level (to be filled later: a cache, a registry), so a later change cannot quietly bring a process-wide counter or cache back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../worker/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' || name === 'guest' ? [] : sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Top-level lines outside template literals (worker-thread sources embedded as strings are text, not state). */
function topLevelLines(text: string): string[] {
  const lines: string[] = [];
  let inTemplate = false;
  for (const line of text.split('\n')) {
    const ticks = (line.match(/`/g) ?? []).length;
    if (!inTemplate) lines.push(line);
    if (ticks % 2 === 1) inTemplate = !inTemplate;
  }
  return lines;
}

test('worker/ declares no module-level mutable state', () => {
  const offenders: string[] = [];
  for (const file of sources(ROOT)) {
    for (const line of topLevelLines(readFileSync(file, 'utf8'))) {
      if (/^(export )?(let|var) /.test(line) || /^(export )?const \w+\s*(:[^=]+)?= new (Map|Set|WeakMap|WeakSet|Array)(<.*>)?\(\)/.test(line)) {
        offenders.push(`${relative(ROOT, file)}: ${line.trim()}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});
