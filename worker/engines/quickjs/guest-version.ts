// The guest platform version an image was made with. An image holds the prelude and the engine
// bridge as they were evaluated into it, but the platform's lazy parts (worker/guest/generated/
// parts/, served by the platform.part op) come from the running install when a script first
// needs them — so an image from another runjs version would mix two platforms. The version
// hashes all three, plus the image layout (handles, scratch block), and a worker refuses images
// of another version with a clear error rather than running them half-old.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { PRELUDE_SOURCE } from '../../guest/prelude-source.ts';
import { once } from '../../../shared/once.ts';

/** Bump when the image layout changes (the handles in the manifest, the scratch block). */
const IMAGE_LAYOUT = 1;

/** 16 hex digits identifying the prelude, the bridge, the platform parts and the image layout. */
export const guestVersion = once((): string => {
  const hash = createHash('sha256').update(`layout ${IMAGE_LAYOUT}\n`).update(PRELUDE_SOURCE).update('\n')
    .update(readFileSync(new URL('bridge.js', import.meta.url)));
  const dir = new URL('../../guest/generated/parts/', import.meta.url);
  let parts: string[] = [];
  try {
    parts = readdirSync(dir).filter((f) => f.endsWith('.js')).sort();
  } catch { /* no lazy parts in this install */ }
  for (const f of parts) hash.update(`\n${f}\n`).update(readFileSync(new URL(f, dir)));
  return hash.digest('hex').slice(0, 16);
});
