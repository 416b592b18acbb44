/**
 * Regenerates docs/errors.md from the error registry (shared/errors.ts).
 *
 *   node scripts/gen-error-docs.ts          write it
 *   node scripts/gen-error-docs.ts --check  exit 1 if it is stale (CI, tests)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderErrorDocs } from './error-docs.ts';

const file = path.resolve(import.meta.dirname, '../docs/errors.md');
const text = renderErrorDocs();

if (process.argv.includes('--check')) {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== text) {
    process.stderr.write('stale generated file: docs/errors.md; run: node scripts/gen-error-docs.ts\n');
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
  process.stdout.write('wrote docs/errors.md\n');
}
