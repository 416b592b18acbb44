/**
 * Regenerates docs/configuration.md and config.example.toml from the flag
 * table (supervisor/config/flag-table.ts).
 *
 *   node scripts/gen-config-docs.ts          write both files
 *   node scripts/gen-config-docs.ts --check  exit 1 if either file is stale (CI, tests)
 *   --root=DIR                               act on another checkout (tests use a scratch copy)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigDocs } from '../supervisor/config/render-docs.ts';
import { renderExampleToml } from '../supervisor/config/render-example.ts';

const rootArg = process.argv.find((arg) => arg.startsWith('--root='));
const root = rootArg === undefined ? path.resolve(import.meta.dirname, '..') : path.resolve(rootArg.slice('--root='.length));
const outputs: ReadonlyArray<readonly [string, string]> = [
  ['docs/configuration.md', renderConfigDocs()],
  ['config.example.toml', renderExampleToml()],
];

function current(file: string): string | undefined {
  try {
    return readFileSync(path.join(root, file), 'utf8');
  } catch {
    return undefined;
  }
}

if (process.argv.includes('--check')) {
  const stale = outputs.filter(([file, text]) => current(file) !== text).map(([file]) => file);
  if (stale.length > 0) {
    process.stderr.write(`stale generated file(s): ${stale.join(', ')}; run: node scripts/gen-config-docs.ts\n`);
    process.exit(1);
  }
} else {
  for (const [file, text] of outputs) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
    process.stdout.write(`wrote ${file}\n`);
  }
}
