// Writes openapi.json at the repository root from the route table and the shared schemas.
// Run after changing a route or a schema: node scripts/gen-openapi.ts (a test fails while stale).
import { writeFileSync } from 'node:fs';
import { openApiJson } from '../supervisor/rest/openapi.ts';
import { packageVersion } from '../supervisor/rest/package-version.ts';

const target = new URL('../openapi.json', import.meta.url);
writeFileSync(target, openApiJson(packageVersion()));
process.stderr.write(`wrote ${target.pathname}\n`);
