/**
 * Command-line tokens → raw flag values. Only syntax is checked here (known
 * flag, value present, not repeated unless repeatable); value shapes are the
 * JSON Schema's job so that flag, env and file values fail the same way.
 */
import { ConfigError } from './config-error.ts';
import { didYouMean, SPEC_BY_NAME } from './describe-flag.ts';

/** Flag name → the raw value of each occurrence, in order. */
export type CliValues = ReadonlyMap<string, readonly string[]>;

export function parseArgv(argv: readonly string[]): CliValues {
  const values = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (!token.startsWith('--') || token === '--') {
      throw new ConfigError(`unexpected argument '${token}': runjs takes only --flags (see --help)`);
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq === -1 ? undefined : eq);
    const spec = SPEC_BY_NAME.get(name);
    if (spec === undefined) {
      const hint = didYouMean(name, SPEC_BY_NAME.keys(), (c) => `--${c}`);
      throw new ConfigError(`unknown flag --${name}${hint}; see --help`);
    }
    let value: string;
    if (eq !== -1) {
      value = token.slice(eq + 1);
    } else if (spec.kind === 'boolean') {
      // A bare boolean flag never consumes the next token: `--stateless false`
      // would otherwise silently mean something else than `--stateless=false`.
      value = 'true';
    } else {
      const next = argv[i + 1];
      // A following `--x` is far more likely a forgotten value than a value
      // that starts with dashes; such values can still be passed as `--flag=--x`.
      if (next === undefined || next.startsWith('--')) {
        throw new ConfigError(`--${name} needs a value (e.g. --${name}=VALUE)`);
      }
      value = next;
      i++;
    }
    const seen = values.get(name);
    if (seen === undefined) {
      values.set(name, [value]);
    } else if (spec.repeatable) {
      seen.push(value);
    } else {
      throw new ConfigError(`--${name} was given more than once`);
    }
  }
  return values;
}
