/**
 * The --config file: one TOML or JSON document (by extension) whose keys are
 * flag names (dashes and underscores interchangeable) plus the structured
 * sections that feed the JSON-valued flags. This module only maps keys to
 * flags and rejects keys that are unknown, unavailable or set twice; values
 * are converted and validated with the other sources in load-config.ts.
 */
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import type { FlagSpec } from './flag-spec.ts';
import { ConfigError } from './config-error.ts';
import { didYouMean, SPEC_BY_NAME, SPECS } from './describe-flag.ts';
import { normalizeKey } from './flag-spec.ts';

export interface FileValue {
  readonly value: unknown;
  /** The key as written in the file, for error messages. */
  readonly key: string;
}

export interface ConfigFile {
  readonly path: string;
  /** Flag name → value. A section's value is stored under its target flag. */
  readonly values: ReadonlyMap<string, FileValue>;
}

/** Keys people will try that no flag maps to, with the reason shown instead of "unknown". */
const UNAVAILABLE_KEYS: Readonly<Record<string, string>> = {
  config: 'config files cannot chain',
  help: '--help is command-line only',
  version: '--version is command-line only',
  print_openapi: '--print-openapi is command-line only',
  wasm_modules: 'use the [wasm] section',
  wasm_module: 'use the [wasm] section',
  wasm_stub_descriptions: 'use the description field of a [wasm] entry',
  wasm_stub_description: 'use the description field of a [wasm] entry',
};

/** Every accepted key (canonical underscore form) → the flag it sets. */
function keyTable(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const spec of SPECS) {
    if (spec.fileKey !== null) keys.set(spec.fileKey, spec.name);
    if (spec.section !== undefined) keys.set(spec.section, spec.name);
  }
  return keys;
}

/** Sorted list of accepted keys, for the unknown-key message and the docs. */
export function validFileKeys(): string[] {
  return [...keyTable().keys()].sort();
}

export function readConfigFile(file: string): ConfigFile {
  const document = parseDocument(file);
  const keys = keyTable();
  const values = new Map<string, FileValue>();
  const seen = new Map<string, string>(); // canonical key → key as written
  for (const [key, value] of document.entries) {
    const canonical = normalizeKey(key);
    const earlier = seen.get(canonical);
    if (earlier !== undefined) {
      throw new ConfigError(`config key '${canonical}' is set twice in ${file} (as '${earlier}' and '${key}')`);
    }
    seen.set(canonical, key);
    const reason = UNAVAILABLE_KEYS[canonical];
    if (reason !== undefined) {
      throw new ConfigError(`config key '${key}' in ${file} is not allowed (${reason})`);
    }
    const flag = keys.get(canonical);
    if (flag === undefined) {
      const hint = didYouMean(canonical, keys.keys(), (c) => `'${c}'`);
      throw new ConfigError(
        `unknown config key '${key}' in ${file}${hint}; valid keys: ${validFileKeys().join(', ')}`,
      );
    }
    const other = values.get(flag);
    if (other !== undefined) {
      // Only a section and its target key can reach the same flag.
      const [section, target] = isSectionKey(canonical) ? [key, other.key] : [other.key, key];
      throw new ConfigError(`config section '${section}' and key '${target}' cannot both be set (in ${file})`);
    }
    values.set(flag, { value: document.isToml ? plainTomlValue(value, SPEC_BY_NAME.get(flag)!, key, file) : value, key });
  }
  return { path: file, values };
}

const INTEGER_KINDS: ReadonlySet<string> = new Set(['integer', 'port', 'size']);

/**
 * A TOML value as the plain JSON value the flags expect. The document is parsed with integers as
 * BigInt so that a float stays recognisable: `http_port = 8080.0` is a float in TOML, and for an
 * integer flag it becomes the text `8080.0`, which the flag's check rejects like `--http-port=8080.0`
 * (a plain number 8080 would have slipped through). Dates and times are refused outright: no
 * setting is a date, and turning `session_id = 1979-05-27` into a string silently is a guess.
 * Nested values (sections) follow JSON semantics: integers and floats both become numbers.
 */
function plainTomlValue(value: unknown, spec: FlagSpec, key: string, file: string): unknown {
  if (typeof value === 'number' && INTEGER_KINDS.has(spec.kind)) {
    return Number.isInteger(value) ? value.toFixed(1) : String(value);
  }
  const plain = (v: unknown): unknown => {
    if (typeof v === 'bigint') return Number(v);
    if (v instanceof Date) {
      throw new ConfigError(`invalid ${key} in ${file}: TOML dates and times are not accepted (got ${v.toISOString()}); quote the value to make it a string`);
    }
    if (Array.isArray(v)) return v.map(plain);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, plain(item)]));
    return v;
  };
  return plain(value);
}

function isSectionKey(canonical: string): boolean {
  return SPECS.some((s) => s.section === canonical);
}

interface ParsedDocument {
  /** TOML values are still as parsed (BigInt integers, Date objects); see plainTomlValue. */
  readonly isToml: boolean;
  /** Top-level entries in document order, duplicates included (JSON.parse would hide them). */
  readonly entries: ReadonlyArray<readonly [string, unknown]>;
}

function parseDocument(file: string): ParsedDocument {
  const isToml = file.endsWith('.toml');
  if (!isToml && !file.endsWith('.json')) {
    throw new ConfigError(`config file ${file} must have a .toml or .json extension`);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = isToml ? parseToml(text, { integersAsBigInt: true }) : JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`invalid ${isToml ? 'TOML' : 'JSON'} in config file ${file}: ${(error as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ConfigError(`config file ${file} must contain an object of settings at the top level`);
  }
  // The TOML parser rejects repeated keys itself; its values are made plain per key, once the
  // key's flag is known (plainTomlValue).
  if (isToml) return { isToml, entries: Object.entries(document) };
  const record = document as Record<string, unknown>;
  return { isToml, entries: topLevelJsonKeys(text).map((key) => [key, record[key]] as const) };
}

/**
 * Keys of the top-level object of an already-validated JSON text, in order
 * and with repeats: a small scanner that tracks nesting depth and skips
 * string contents, so `{"a":1,"a":2}` reports `a` twice.
 */
function topLevelJsonKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
    else if (ch === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const token = text.slice(i, end + 1);
      let after = end + 1;
      while (/\s/.test(text[after] ?? '')) after++;
      if (depth === 1 && text[after] === ':') keys.push(JSON.parse(token) as string);
      i = end;
    }
  }
  return keys;
}
