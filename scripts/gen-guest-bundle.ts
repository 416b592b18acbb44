// Regenerates worker/guest/generated/ from worker/guest/platform/ and the bundled npm packages.
// Run after changing either: `node scripts/gen-guest-bundle.ts`. The generated files are
// committed so a checkout runs without a build step; test/unit/guest-bundle.test.ts fails
// when they are stale.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildGuestBundle, GENERATED_DIR, ROOT } from './guest-bundle/build.ts';

const files = await buildGuestBundle();
const partsDir = `${ROOT}${GENERATED_DIR}/parts`;
mkdirSync(partsDir, { recursive: true });
for (const f of readdirSync(partsDir)) {
  if (!files.has(`${GENERATED_DIR}/parts/${f}`)) rmSync(`${partsDir}/${f}`);
}
let bytes = 0;
for (const [path, content] of files) {
  mkdirSync(dirname(`${ROOT}${path}`), { recursive: true });
  writeFileSync(`${ROOT}${path}`, content);
  bytes += content.length;
  console.log(`${path}  ${content.length} bytes`);
}
console.log(`${files.size} files, ${bytes} bytes`);
