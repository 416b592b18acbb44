// The server version: package.json `version`, read once (GET /api/version, the OpenAPI document).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached === undefined) {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const version = pkg !== null && typeof pkg === 'object' ? (pkg as Record<string, unknown>)['version'] : undefined;
    if (typeof version !== 'string') throw new Error('package.json has no string "version"');
    cached = version;
  }
  return cached;
}
