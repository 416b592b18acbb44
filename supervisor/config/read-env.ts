/**
 * Environment → raw flag values. Each flag has its RUNJS_ variable (plus, for
 * --jwks-url, the conventional JWKS_URL); the first non-empty one in the
 * table's order wins. An empty variable counts as unset, because container
 * tooling often defines variables with empty values.
 *
 * Any other RUNJS_ variable is a startup error: a misspelt RUNJS_HEAP_STOR
 * that is silently ignored would leave the server running with a setting the
 * operator believes is on.
 */
import { ConfigError } from './config-error.ts';
import { didYouMean, SPECS } from './describe-flag.ts';
import { ENV_PREFIX, envNameOf } from './flag-spec.ts';

export type Env = Readonly<Record<string, string | undefined>>;

export interface EnvValue {
  readonly value: string;
  /** The variable it came from, for error messages. */
  readonly name: string;
}

export function readEnv(env: Env): ReadonlyMap<string, EnvValue> {
  rejectUnknownPrefixed(env);
  const values = new Map<string, EnvValue>();
  for (const spec of SPECS) {
    for (const name of spec.env) {
      const value = env[name];
      if (value !== undefined && value !== '') {
        values.set(spec.name, { value, name });
        break;
      }
    }
  }
  return values;
}

function rejectUnknownPrefixed(env: Env): void {
  const known = new Set(SPECS.flatMap((s) => s.env));
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(ENV_PREFIX) || known.has(name)) continue;
    const cliOnly = SPECS.find((s) => s.env.length === 0 && envNameOf(s.name) === name);
    if (cliOnly !== undefined) {
      throw new ConfigError(`environment variable ${name} is not supported: --${cliOnly.name} is command-line only`);
    }
    const flag = name.slice(ENV_PREFIX.length).toLowerCase().replaceAll('_', '-');
    const hint = didYouMean(name, known, (c) => c);
    throw new ConfigError(`unknown environment variable ${name}: there is no flag --${flag}${hint}`);
  }
}
