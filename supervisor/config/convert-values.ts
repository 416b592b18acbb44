/**
 * Raw values (strings from flags and env, native TOML/JSON values from the
 * file) → the typed values the schema checks. Conversion is deliberately
 * strict and never guesses: a string that does not look like the expected
 * shape is passed through unchanged so the schema rejects it with the one
 * standard message. Only reading files (`@file`, JSON paths) fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import type { ValueSource } from './config-types.ts';
import { culpritOf } from './describe-flag.ts';
import type { FlagSpec } from './flag-spec.ts';

export interface RawValue {
  /** cli: string[] (one per occurrence); env: string; file: whatever the document held. */
  readonly raw: unknown;
  readonly source: ValueSource;
}

const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

export function convertValue(spec: FlagSpec, value: RawValue, cwd: string): unknown {
  if (spec.kind === 'list') return listItems(spec, value);
  const raw = value.source.kind === 'cli' ? (value.raw as readonly string[])[0] : value.raw;
  return typeof raw === 'string' ? fromString(spec, raw, value.source, cwd) : raw;
}

/** Flattens repetitions into one item list; comma-splitting applies per the table. */
function listItems(spec: FlagSpec, value: RawValue): unknown[] {
  const split = (item: string): string[] =>
    spec.commaSplit ? item.split(',').map((s) => s.trim()).filter((s) => s !== '') : [item];
  const { raw, source } = value;
  if (source.kind === 'env' && typeof raw === 'string') {
    // One env variable cannot repeat, so lists that do not split on commas
    // (whole rules like --fetch-header) take one item per line instead.
    return spec.commaSplit ? split(raw) : raw.split('\n').map((s) => s.trim()).filter((s) => s !== '');
  }
  const occurrences: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
  return occurrences.flatMap((item) => (typeof item === 'string' ? split(item) : [item]));
}

function fromString(spec: FlagSpec, text: string, source: ValueSource, cwd: string): unknown {
  switch (spec.kind) {
    case 'integer':
    case 'port':
      return /^[+-]?[0-9]+$/.test(text) ? Number(text) : text;
    case 'size': {
      const match = /^([0-9]+)([kKmMgG]?)$/.exec(text);
      return match ? Number(match[1]) * (SIZE_UNITS[(match[2] ?? '').toLowerCase()] ?? 1) : text;
    }
    case 'boolean':
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      return text;
    case 'path':
      return text === '' ? text : path.resolve(cwd, text);
    case 'json-or-path':
      return parseJsonOrPath(spec, text, source, cwd);
    case 'string':
      return spec.atFile === true ? resolveAtFile(spec, text, source, cwd) : text;
    case 'enum':
    case 'url':
    case 'list':
      return text;
  }
}

/** Inline JSON when it starts like JSON, else a path (relative to cwd) to a JSON file. */
function parseJsonOrPath(spec: FlagSpec, text: string, source: ValueSource, cwd: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed);
    } catch (error) {
      throw new ConfigError(`invalid ${culpritOf(spec, source)}: not valid JSON (${(error as Error).message})`);
    }
  }
  const file = path.resolve(cwd, text);
  const content = readText(spec, source, file);
  try {
    return JSON.parse(content);
  } catch (error) {
    const reason = (error as Error).message;
    throw new ConfigError(`invalid ${culpritOf(spec, source)}: ${file} is not valid JSON (${reason})`);
  }
}

/** `@path` → the file's contents (exactly, trailing newline kept); `@@text` → `@text`. */
function resolveAtFile(spec: FlagSpec, text: string, source: ValueSource, cwd: string): string {
  if (text.startsWith('@@')) return text.slice(1);
  if (!text.startsWith('@')) return text;
  return readText(spec, source, path.resolve(cwd, text.slice(1)));
}

function readText(spec: FlagSpec, source: ValueSource, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read file ${file} given by ${culpritOf(spec, source)}: ${(error as Error).message}`);
  }
}
