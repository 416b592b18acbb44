/**
 * loadConfig: command line + environment + optional config file → one frozen
 * Config. The pipeline is: parse each source into raw values → pick one raw
 * value per flag by precedence (flag > env > config file; the only place that
 * order exists) → convert → validate with the JSON Schema → fill defaults →
 * check cross-flag rules → freeze. loadConfig touches no process state: argv,
 * env and cwd are parameters, so tests and the process entry run the same code
 * (loadProcessConfig is the thin wrapper for the entry).
 */
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { readConfigFile } from './config-file.ts';
import type { ConfigFile } from './config-file.ts';
import type { Config, ValueSource } from './config-types.ts';
import { findConflict } from './conflicts.ts';
import { convertValue } from './convert-values.ts';
import type { RawValue } from './convert-values.ts';
import { culpritOf, invalidValueMessage, SPEC_BY_NAME, SPECS } from './describe-flag.ts';
import { camelCaseOf } from './flag-spec.ts';
import type { FlagSpec, ResolvedLookup } from './flag-spec.ts';
import { parseArgv } from './parse-argv.ts';
import type { CliValues } from './parse-argv.ts';
import { readEnv } from './read-env.ts';
import type { Env, EnvValue } from './read-env.ts';
import { findViolation } from './schema.ts';
import { parsePolicyConfig, PolicyConfigError } from './policy-config.ts';
import { readCaCerts, TlsConfigError } from './tls-config.ts';
import { HeaderConfigError, parseHeaderConfig, parseHeaderFlag } from './header-config.ts';
import { parseMcpConfig, parseMcpServerFlag, UpstreamConfigError, upstreamServersOf } from '../upstream-mcp/upstream-config.ts';

export type { Config, ValueSource } from './config-types.ts';
export type { Env } from './read-env.ts';

export interface LoadConfigInput {
  /** Arguments after the node binary and script path. */
  readonly argv: readonly string[];
  readonly env: Env;
  /** Base for relative paths (config file, `@file`, JSON paths, store paths). */
  readonly cwd: string;
}

/** Where each value came from. Kept beside the Config so Config stays plain data. */
interface Provenance {
  readonly sources: ReadonlyMap<string, ValueSource>;
}

const provenance = new WeakMap<Config, Provenance>();

export function loadConfig({ argv, env, cwd }: LoadConfigInput): Config {
  const cli = parseArgv(argv);
  // --help and --version must work even when the environment or config file
  // is broken, so they skip every other source and check.
  const early = ['help', 'version'].filter((flag) => ['true', '1'].includes(cli.get(flag)?.[0] ?? ''));
  if (early.length > 0) {
    const sources = new Map(early.map((flag) => [flag, { kind: 'cli' } as const]));
    return finish(withDefaults(new Map(early.map((flag) => [flag, true]))), sources);
  }
  const envValues = readEnv(env);
  const file = loadFile(cli, envValues, cwd);
  const raw = pickByPrecedence(cli, envValues, file, env);
  const settings = new Map<string, unknown>();
  for (const [flag, value] of raw) settings.set(flag, convertValue(specOf(flag), value, cwd));
  assertValid(settings, raw);
  assertStructured(settings, raw);
  const resolved = withDefaults(settings);
  const sources = new Map([...raw].map(([flag, value]) => [flag, value.source]));
  const conflict = findConflict({ get: (flag) => resolved.get(flag), isSet: (flag) => sources.has(flag) });
  if (conflict !== undefined) throw new ConfigError(conflict);
  return finish(resolved, sources);
}


/**
 * The process entry's call, and the only place in the service that reads
 * process.argv, process.env and process.cwd(); everything else gets Config.
 */
export function loadProcessConfig(): Config {
  return loadConfig({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd() });
}

/** Flags the user set (command line, environment, config file, or PORT), by flag name. */
export function explicitFlagsOf(config: Config): ReadonlySet<string> {
  return new Set(provenance.get(config)?.sources.keys());
}

/** Where a flag's value came from; `default` for flags nobody set. */
export function sourceOf(config: Config, flag: string): ValueSource {
  return provenance.get(config)?.sources.get(flag) ?? { kind: 'default' };
}

/** A flag's default given the other final values (derived defaults read them). */
export function defaultValueOf(spec: FlagSpec, get: ResolvedLookup): unknown {
  return typeof spec.default === 'function' ? (spec.default as (get: ResolvedLookup) => unknown)(get) : spec.default;
}

/**
 * Checks a config file on its own: keys, value shapes and ranges, but not
 * cross-flag rules. Used to prove every key of config.example.toml is valid
 * even though the example, fully uncommented, sets mutually exclusive flags.
 */
export function checkConfigFile(file: string, cwd: string): void {
  const parsed = readConfigFile(path.resolve(cwd, file));
  const raw = pickByPrecedence(new Map(), new Map(), parsed, {});
  const settings = new Map<string, unknown>();
  for (const [flag, value] of raw) settings.set(flag, convertValue(specOf(flag), value, cwd));
  assertValid(settings, raw);
  // A file's shape only: the files it names (a CA bundle) are read when a server starts with it.
  assertStructured(settings, raw, false);
}

function specOf(flag: string): FlagSpec {
  const spec = SPEC_BY_NAME.get(flag);
  if (spec === undefined) throw new Error(`internal: no flag table entry for ${flag}`);
  return spec;
}

/** --config itself comes only from the command line or RUNJS_CONFIG (files cannot chain). */
function loadFile(cli: CliValues, envValues: ReadonlyMap<string, EnvValue>, cwd: string): ConfigFile | undefined {
  const fromCli = cli.get('config')?.[0];
  const fromEnv = envValues.get('config');
  const source: ValueSource = fromCli === undefined ? { kind: 'env', name: fromEnv?.name ?? '' } : { kind: 'cli' };
  const given = fromCli ?? fromEnv?.value;
  if (given === undefined) return undefined;
  if (given === '') throw new ConfigError(invalidValueMessage(specOf('config'), source, given));
  return readConfigFile(path.resolve(cwd, given));
}

/** The precedence order, in one place: flag, then environment, then config file. Defaults come later. */
function pickByPrecedence(
  cli: CliValues,
  envValues: ReadonlyMap<string, EnvValue>,
  file: ConfigFile | undefined,
  env: Env,
): Map<string, RawValue> {
  const picked = new Map<string, RawValue>();
  for (const spec of SPECS) {
    const fromCli = cli.get(spec.name);
    const fromEnv = envValues.get(spec.name);
    const fromFile = file?.values.get(spec.name);
    if (fromCli !== undefined) {
      picked.set(spec.name, { raw: fromCli, source: { kind: 'cli' } });
    } else if (fromEnv !== undefined) {
      picked.set(spec.name, { raw: fromEnv.value, source: { kind: 'env', name: fromEnv.name } });
    } else if (fromFile !== undefined && file !== undefined) {
      picked.set(spec.name, { raw: fromFile.value, source: { kind: 'file', key: fromFile.key, path: file.path } });
    }
  }
  const port = portFallback(picked, env);
  if (port !== undefined) picked.set('http-port', port);
  return picked;
}

/**
 * PORT (the platform convention, e.g. on container hosts) sets --http-port
 * only when no port is configured anywhere. An empty PORT is ignored. A
 * Raft-only node (--metadata-only) has no transport, so PORT is ignored there
 * too; otherwise an image that exports PORT could never run one.
 */
function portFallback(picked: ReadonlyMap<string, RawValue>, env: Env): RawValue | undefined {
  const value = env.PORT;
  if (value === undefined || value === '' || picked.has('http-port') || picked.has('sse-port')) return undefined;
  const metadataOnly = picked.get('metadata-only');
  if (metadataOnly !== undefined && convertValue(specOf('metadata-only'), metadataOnly, '/') === true) return undefined;
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port < 1 || port > 65535) {
    throw new ConfigError(`invalid PORT '${value}': expected a TCP port number between 1 and 65535`);
  }
  return { raw: value, source: { kind: 'env', name: 'PORT' } };
}

/** Runs the schema and turns its first error into the standard message naming the source. */
function assertValid(settings: ReadonlyMap<string, unknown>, raw: ReadonlyMap<string, RawValue>): void {
  const violation = findViolation(Object.fromEntries(settings));
  if (violation === undefined) return;
  if (violation.kind === 'unknown') throw new ConfigError(`unknown setting '${violation.flag}'`);
  const spec = specOf(violation.flag);
  const picked = raw.get(violation.flag);
  const source: ValueSource = picked?.source ?? { kind: 'default' };
  let shown: unknown;
  if (violation.index !== undefined) {
    shown = (settings.get(violation.flag) as readonly unknown[])[violation.index];
  } else {
    // Show what the user typed (e.g. `0k`), not the converted number.
    shown = source.kind === 'cli' ? (picked?.raw as readonly string[])[0] : picked?.raw;
  }
  throw new ConfigError(invalidValueMessage(spec, source, shown));
}

/**
 * Structured values whose inner shape the JSON Schema does not describe: `--policies-json` is
 * parsed here (hook files read, URL schemes checked) so a mistake stops startup naming the flag or
 * file and the key path inside the value. The app parses it again into WorkerSettings.
 */
function assertStructured(settings: ReadonlyMap<string, unknown>, raw: ReadonlyMap<string, RawValue>, readFiles = true): void {
  assertHeaderRules(settings, raw);
  assertUpstreamServers(settings, raw);
  try {
    if (readFiles) readCaCerts(settings.get('fetch-ca-file') as string | undefined);
  } catch (e) {
    if (!(e instanceof TlsConfigError)) throw e;
    const source: ValueSource = raw.get('fetch-ca-file')?.source ?? { kind: 'default' };
    throw new ConfigError(`invalid ${culpritOf(specOf('fetch-ca-file'), source)}: ${e.message}`);
  }
  if (!settings.has('policies-json')) return;
  try {
    parsePolicyConfig(settings.get('policies-json'));
  } catch (e) {
    if (!(e instanceof PolicyConfigError)) throw e;
    const source: ValueSource = raw.get('policies-json')?.source ?? { kind: 'default' };
    throw new ConfigError(`invalid ${culpritOf(specOf('policies-json'), source)}: ${e.message}`);
  }
}

/**
 * Header-injection rules: each `--fetch-header` (its messages name the flag, in the reference's
 * words) and `--fetch-header-config` (the key path inside the array). The app parses them again
 * into WorkerSettings.
 */
function assertHeaderRules(settings: ReadonlyMap<string, unknown>, raw: ReadonlyMap<string, RawValue>): void {
  const sourceOf = (flag: string): ValueSource => raw.get(flag)?.source ?? { kind: 'default' };
  for (const text of (settings.get('fetch-header') as readonly string[] | undefined) ?? []) {
    try {
      parseHeaderFlag(text);
    } catch (e) {
      if (!(e instanceof HeaderConfigError)) throw e;
      const source = sourceOf('fetch-header');
      throw new ConfigError(source.kind === 'cli' ? e.message : `${e.message} (in ${culpritOf(specOf('fetch-header'), source)})`);
    }
  }
  if (!settings.has('fetch-header-config')) return;
  try {
    parseHeaderConfig(settings.get('fetch-header-config'));
  } catch (e) {
    if (!(e instanceof HeaderConfigError)) throw e;
    throw new ConfigError(`invalid ${culpritOf(specOf('fetch-header-config'), sourceOf('fetch-header-config'))}: ${e.message}`);
  }
}

/** Upstream MCP servers: each `--mcp-server` (its messages name the flag), then `--mcp-config` (the key path), then unique names. */
function assertUpstreamServers(settings: ReadonlyMap<string, unknown>, raw: ReadonlyMap<string, RawValue>): void {
  const sourceOf = (flag: string): ValueSource => raw.get(flag)?.source ?? { kind: 'default' };
  const flags = (settings.get('mcp-server') as readonly string[] | undefined) ?? [];
  const rethrow = (flag: string | undefined, e: unknown): never => {
    if (!(e instanceof UpstreamConfigError)) throw e;
    if (flag === undefined) throw new ConfigError(e.message);
    const source = sourceOf(flag);
    if (flag === 'mcp-server') throw new ConfigError(source.kind === 'cli' ? e.message : `${e.message} (in ${culpritOf(specOf(flag), source)})`);
    throw new ConfigError(`invalid ${culpritOf(specOf(flag), source)}: ${e.message}`);
  };
  for (const text of flags) {
    try { parseMcpServerFlag(text); } catch (e) { rethrow('mcp-server', e); }
  }
  if (settings.has('mcp-config')) {
    try { parseMcpConfig(settings.get('mcp-config')); } catch (e) { rethrow('mcp-config', e); }
  }
  try { upstreamServersOf(flags, settings.get('mcp-config')); } catch (e) { rethrow(undefined, e); }
}

/**
 * Adds defaults for unset flags: constant ones first, then derived ones
 * (which read the values of the others), then applies effective minimums.
 */
function withDefaults(settings: ReadonlyMap<string, unknown>): Map<string, unknown> {
  const resolved = new Map(settings);
  const get: ResolvedLookup = (flag) => resolved.get(flag);
  for (const derived of [false, true]) {
    for (const spec of SPECS) {
      if (resolved.has(spec.name) || (typeof spec.default === 'function') !== derived) continue;
      const value = defaultValueOf(spec, get);
      if (value !== undefined) resolved.set(spec.name, value);
    }
  }
  for (const spec of SPECS) {
    const value = resolved.get(spec.name);
    if (spec.clampMin !== undefined && typeof value === 'number' && value < spec.clampMin) {
      resolved.set(spec.name, spec.clampMin);
    }
  }
  return resolved;
}

function finish(resolved: ReadonlyMap<string, unknown>, sources: ReadonlyMap<string, ValueSource>): Config {
  const config: Record<string, unknown> = {};
  for (const spec of SPECS) {
    const value = resolved.get(spec.name);
    if (value !== undefined) config[camelCaseOf(spec.name)] = value;
  }
  // The shape was proven by the schema and the defaults come from the table
  // that also defines the Config type; this is the one cast that relies on it.
  const frozen = deepFreeze(config) as Config;
  provenance.set(frozen, { sources });
  return frozen;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
