/**
 * Flags whose feature has not landed yet still parse and validate (so config
 * files written for the full interface load), but the server refuses to start
 * when one is actually used: silently ignoring e.g. --heap-store would make
 * users believe their heaps persist.
 */
import { ConfigError } from './config-error.ts';
import { SPECS } from './describe-flag.ts';
import { camelCaseOf } from './flag-spec.ts';
import { isDeepStrictEqual } from 'node:util';
import { defaultValueOf, explicitFlagsOf } from './load-config.ts';
import type { Config } from './load-config.ts';

/**
 * Throws `--<flag> is not supported yet` for the first flag (in table order)
 * that the user set, to a value other than its default, whose table entry
 * says `implemented: false`. Setting such a flag to its default is harmless
 * and allowed (e.g. `--heap-store=none`).
 */
export function assertImplemented(config: Config): void {
  const explicit = explicitFlagsOf(config);
  const values = config as unknown as Readonly<Record<string, unknown>>;
  const get = (flag: string): unknown => values[camelCaseOf(flag)];
  for (const spec of SPECS) {
    if (spec.implemented || !explicit.has(spec.name)) continue;
    if (isDeepStrictEqual(get(spec.name), defaultValueOf(spec, get))) continue;
    throw new ConfigError(`--${spec.name} is not supported yet`);
  }
}
