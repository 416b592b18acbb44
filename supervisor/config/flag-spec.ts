/**
 * Vocabulary of the flag table (see flag-table.ts): what one entry says about
 * one flag, plus the naming rules that derive its config-file key, its
 * environment variable and its Config property from the flag name. Keeping
 * the derivations here means a flag is renamed in exactly one place.
 */

export type FlagKind =
  | 'string'
  | 'integer'
  | 'port'
  | 'boolean'
  | 'enum'
  | 'size'
  | 'path'
  | 'url'
  | 'json-or-path'
  | 'list';

/** Section of docs/configuration.md and of `--help` a flag is listed under. */
export type FlagGroup =
  | 'general'
  | 'transport'
  | 'session'
  | 'execution'
  | 'mcp-surface'
  | 'storage'
  | 'policy'
  | 'upstream-mcp'
  | 'wasm'
  | 'hardening'
  | 'cluster';

export const GROUP_TITLES: Readonly<Record<FlagGroup, string>> = {
  general: 'General',
  transport: 'Transports, HTTP and authentication',
  session: 'Sessions',
  execution: 'Execution limits',
  'mcp-surface': 'MCP surface',
  storage: 'Heap and filesystem persistence',
  policy: 'Policies and outbound header injection',
  'upstream-mcp': 'External MCP servers',
  wasm: 'WebAssembly modules',
  hardening: 'Sandbox and hardening',
  cluster: 'Cluster',
};

/** Shape a `json-or-path` value must have once parsed. */
export type JsonShape = 'object' | 'array' | 'object-or-array';

/** Reads another flag's final value (by flag name); used by derived defaults. */
export type ResolvedLookup = (flag: string) => unknown;

/** What the author writes in the table; `define` fills in the derived fields. */
export interface FlagInput {
  /** Flag name without the leading `--`, kebab-case. */
  readonly name: string;
  readonly kind: FlagKind;
  /** Allowed values of an `enum` flag. */
  readonly values?: readonly string[];
  /** Final (already converted) value, or a function of other flags' final values. */
  readonly default?: unknown;
  /**
   * Sample value for docs and config.example.toml, used where the default is
   * absent, derived or an empty list (final-value form, like `default`).
   */
  readonly example?: unknown;
  /** How the default reads in docs when it is derived or not obvious from the value. */
  readonly defaultDoc?: string;
  /** Inclusive bounds for integer / size kinds. */
  readonly min?: number;
  readonly max?: number;
  /** Smaller values are accepted and raised to this one (the spec's "effective minimum"). */
  readonly clampMin?: number;
  /** Unit of an integer flag, shown in help and errors. */
  readonly unit?: string;
  /** For `list`: does one occurrence hold several comma-separated items? */
  readonly commaSplit?: boolean;
  /** Regex (JSON Schema `pattern`) every string value / list item must match. */
  readonly pattern?: string;
  /** What `pattern` accepts, in words, for errors and docs (default: "a value of the form <metavar>"). */
  readonly shape?: string;
  /** Placeholder for the value in help and errors, e.g. `NAME=PATH[:LIMIT]`. */
  readonly metavar?: string;
  readonly jsonShape?: JsonShape;
  /** `@path` reads the file (relative to cwd), `@@text` is the literal `@text`. */
  readonly atFile?: boolean;
  /** Structured config-file section that feeds this flag (json-or-path only). */
  readonly section?: string;
  /** Only on the command line: no environment variable, no config key. */
  readonly cliOnly?: boolean;
  /** `null`: the flag cannot be set from a config file. */
  readonly fileKey?: null;
  /** Environment variables consulted after the RUNJS_ one, in priority order. */
  readonly extraEnv?: readonly string[];
  readonly description: string;
  readonly group: FlagGroup;
  readonly implemented: boolean;
}

/** A table entry as consumers see it: every derived field filled in. */
export interface FlagSpec extends Omit<FlagInput, 'fileKey' | 'extraEnv'> {
  readonly repeatable: boolean;
  readonly commaSplit: boolean;
  /** Canonical (underscore) config-file key, or null when unavailable in files. */
  readonly fileKey: string | null;
  /** Environment variables, highest priority first; empty for CLI-only flags. */
  readonly env: readonly string[];
}

export const ENV_PREFIX = 'RUNJS_';

/** `heap-store` → `RUNJS_HEAP_STORE`. */
export function envNameOf(flag: string): string {
  return ENV_PREFIX + flag.toUpperCase().replaceAll('-', '_');
}

/** Config keys treat dashes and underscores alike; underscores are canonical. */
export function normalizeKey(key: string): string {
  return key.replaceAll('-', '_');
}

export type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** `heap-memory-max` → `heapMemoryMax` (the Config property name). */
export function camelCaseOf<S extends string>(flag: S): CamelCase<S> {
  return flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()) as CamelCase<S>;
}

/** Fills the fields every entry has but few spell out. Keeps literal types for Config. */
export function define<const T extends FlagInput>(input: T): T & FlagSpec {
  const cliOnly = input.cliOnly === true;
  return {
    ...input,
    repeatable: input.kind === 'list',
    commaSplit: input.commaSplit === true,
    fileKey: cliOnly || input.fileKey === null ? null : normalizeKey(input.name),
    env: cliOnly ? [] : [envNameOf(input.name), ...(input.extraEnv ?? [])],
  };
}
