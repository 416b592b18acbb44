// The guest prelude's source text, read once per process. Both engines evaluate exactly this.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

// prelude.js first (the bridge, console, timers); then the generated guest platform (web APIs,
// node: modules; see scripts/gen-guest-bundle.ts); prelude-end.js last (completes with `internal`).
const PRELUDE_FILES = ['prelude.js', 'generated/platform.js', 'intl.js', 'artifact.js', 'prelude-end.js'] as const;

function load(): string {
  return PRELUDE_FILES.map((f) => readFileSync(new URL(f, import.meta.url), 'utf8')).join('\n');
}

export const PRELUDE_SOURCE: string = load();
/** Changes whenever the prelude changes; keys compiled-code caches and base images. */
export const PRELUDE_HASH: string = createHash('sha256').update(PRELUDE_SOURCE).digest('hex').slice(0, 16);
export const PRELUDE_FILENAME = 'runjs:prelude';
