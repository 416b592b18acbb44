/**
 * `--policies-json` (config section `policies`) → PolicySettings, the frozen typed form workers
 * receive. Everything is checked here, at startup, so a mistake stops the server naming the key
 * path (`fetch.pre[0].timeout_ms`) instead of failing — or worse, allowing — the first operation
 * it governs. JavaScript hook files are read and parsed here too, and Rego files read and compiled
 * (shared/rego/): workers never read policy files.
 * The shape is documented in docs/policies.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readHookFiles } from './hook-files.ts';
import { parse as parseJs } from 'acorn';
import {
  DEFAULT_HOOK_TIMEOUT_MS, DEFAULT_REGO_TIMEOUT_MS, POLICY_CATEGORIES,
  type CategoryPolicy, type ChainMode, type HookCapability, type PolicyCategory, type PolicyChain, type PolicySettings, type PolicySource,
  type RegoModuleText,
} from '../../shared/policy-settings.ts';
import { RegoError } from '../../shared/rego/errors.ts';
import { RegoPolicy } from '../../shared/rego/policy.ts';

/** The longest hook timeout accepted (a run itself may last at most 300 s). */
export const MAX_HOOK_TIMEOUT_MS = 300_000;
/** The largest JavaScript hook file (its source crosses to every worker in `init`). */
export const MAX_HOOK_SOURCE_BYTES = 1024 * 1024;

const CATEGORY_KEYS = ['mode', 'policies', 'pre', 'post', 'stack'] as const;
const LAYER_KEYS = ['mode', 'policies'] as const;
const SOURCE_KEYS = ['url', 'policy_path', 'rule', 'timeout_ms', 'capabilities'] as const;

/** The most Rego source a policy may have, all its files together (it crosses to every worker in `init`). */
export const MAX_REGO_SOURCE_BYTES = 4 * 1024 * 1024;

/** A problem at one key path; the caller adds which flag or file it came from. */
export class PolicyConfigError extends Error {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = 'PolicyConfigError';
    this.path = path;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkKeys(v: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(v)) {
    if (!allowed.includes(key)) throw new PolicyConfigError(`${path}.${key}`, `unknown key (expected one of ${allowed.join(', ')})`);
  }
}

/** The default `rule` of a Rego source: `data.mcp.<category>.allow` (`data.mcp.tools.allow` for mcp_tools). */
export function defaultRegoRule(category: PolicyCategory): string {
  return `data.${defaultPolicyPath(category).replace(/\//g, '.')}.allow`;
}

/** The default `policy_path` of an OPA source (the reference's `data.mcp.<category>`). */
export function defaultPolicyPath(category: PolicyCategory): string {
  return category === 'mcp_tools' ? 'mcp/tools' : `mcp/${category}`;
}

/** Parses the whole policies document; throws PolicyConfigError naming the first bad key path. */
export function parsePolicyConfig(raw: unknown): PolicySettings {
  if (!isObject(raw)) throw new PolicyConfigError('policies', 'expected an object of categories');
  const out: Partial<Record<PolicyCategory, CategoryPolicy>> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!(POLICY_CATEGORIES as readonly string[]).includes(key)) {
      throw new PolicyConfigError(key, `unknown policy category (expected one of ${POLICY_CATEGORIES.join(', ')})`);
    }
    const category = key as PolicyCategory;
    out[category] = parseCategory(category, value, category);
  }
  return deepFreeze(out);
}

function parseCategory(category: PolicyCategory, v: unknown, path: string): CategoryPolicy {
  if (!isObject(v)) throw new PolicyConfigError(path, 'expected an object with mode, policies, pre, post and stack');
  checkKeys(v, CATEGORY_KEYS, path);
  const chain = parseChain(category, v, path);
  return {
    ...chain,
    pre: parseSources(category, v['pre'], `${path}.pre`),
    post: parseSources(category, v['post'], `${path}.post`),
    stack: parseList(v['stack'], `${path}.stack`).map((layer, i) => {
      const at = `${path}.stack[${i}]`;
      if (!isObject(layer)) throw new PolicyConfigError(at, 'expected an object with mode and policies');
      checkKeys(layer, LAYER_KEYS, at);
      return parseChain(category, layer, at);
    }),
  };
}

function parseChain(category: PolicyCategory, v: Record<string, unknown>, path: string): PolicyChain {
  return { mode: parseMode(v['mode'], `${path}.mode`), policies: parseSources(category, v['policies'], `${path}.policies`) };
}

function parseMode(v: unknown, path: string): ChainMode {
  if (v === undefined) return 'all';
  if (v === 'all' || v === 'any') return v;
  throw new PolicyConfigError(path, `expected "all" or "any", got ${JSON.stringify(v)}`);
}

function parseList(v: unknown, path: string): readonly unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new PolicyConfigError(path, 'expected an array');
  return v;
}

function parseSources(category: PolicyCategory, v: unknown, path: string): PolicySource[] {
  return parseList(v, path).map((item, i) => parseSource(category, item, `${path}[${i}]`));
}

function optionalString(v: Record<string, unknown>, key: string, path: string): string | undefined {
  const value = v[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new PolicyConfigError(`${path}.${key}`, 'expected a non-empty string');
  return value;
}

function parseSource(category: PolicyCategory, v: unknown, path: string): PolicySource {
  if (!isObject(v)) throw new PolicyConfigError(path, 'expected an object with url (and policy_path, timeout_ms or capabilities)');
  checkKeys(v, SOURCE_KEYS, path);
  const url = optionalString(v, 'url', path);
  if (url === undefined) throw new PolicyConfigError(`${path}.url`, 'required');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PolicyConfigError(`${path}.url`, `not a valid URL: '${url}'`);
  }
  const rule = optionalString(v, 'rule', path);
  const policyPath = optionalString(v, 'policy_path', path);
  // Each kind has its own default: a Rego evaluation runs on the worker's thread, so it is short.
  const timeout = (fallback: number): number => parseTimeout(v['timeout_ms'], `${path}.timeout_ms`, fallback);
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
    if (rule !== undefined) throw new PolicyConfigError(`${path}.rule`, 'applies to Rego sources only; an OPA server is addressed with policy_path');
    if (v['capabilities'] !== undefined) throw new PolicyConfigError(`${path}.capabilities`, 'applies to JavaScript hooks (file://….js) only');
    const pp = (policyPath ?? defaultPolicyPath(category)).replace(/^\/+|\/+$/g, '');
    if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(pp)) {
      throw new PolicyConfigError(`${path}.policy_path`, `expected a path of the form package/rule (letters, digits, _ . -, separated by /), got '${policyPath}'`);
    }
    return { kind: 'opa', url, policyPath: pp, timeoutMs: timeout(DEFAULT_HOOK_TIMEOUT_MS) };
  }
  if (parsed.protocol !== 'file:') {
    throw new PolicyConfigError(`${path}.url`, `Unsupported policy URL scheme: '${url}'. Use http://, https://, or file://`);
  }
  let file: string;
  try {
    file = fileURLToPath(parsed);
  } catch (e) {
    throw new PolicyConfigError(`${path}.url`, `not a usable file URL (${(e as Error).message}); write an absolute one, file:///path/to/hook.js`);
  }
  if (/\.rego$/i.test(file) || isDirectory(file)) {
    if (policyPath !== undefined) throw new PolicyConfigError(`${path}.policy_path`, 'applies to OPA servers (http:// or https://) only; a Rego source names its rule with rule');
    if (v['capabilities'] !== undefined) throw new PolicyConfigError(`${path}.capabilities`, 'applies to JavaScript hooks (file://….js) only');
    return parseRego(url, file, parseRule(rule ?? defaultRegoRule(category), `${path}.rule`), timeout(DEFAULT_REGO_TIMEOUT_MS), path);
  }
  if (!/\.m?js$/i.test(file)) {
    throw new PolicyConfigError(`${path}.url`, `a file:// source must be a Rego file (.rego), a directory of them, or a JavaScript hook (.js or .mjs), got '${url}'`);
  }
  if (rule !== undefined) throw new PolicyConfigError(`${path}.rule`, 'applies to Rego sources only; a JavaScript hook is its module\'s default export');
  if (policyPath !== undefined) throw new PolicyConfigError(`${path}.policy_path`, 'applies to OPA servers (http:// or https://) only');
  const capabilities = parseCapabilities(v['capabilities'], `${path}.capabilities`);
  const code = readHook(file, `${path}.url`);
  let files;
  if (capabilities.includes('fs')) {
    try {
      files = readHookFiles(file);
    } catch (e) {
      throw new PolicyConfigError(`${path}.capabilities`, `cannot read the hook's directory for the fs capability: ${(e as Error).message}`);
    }
  }
  return { kind: 'js', url, code, timeoutMs: timeout(DEFAULT_HOOK_TIMEOUT_MS), capabilities, ...(files === undefined ? {} : { files }) };
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function parseTimeout(v: unknown, path: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_HOOK_TIMEOUT_MS) {
    throw new PolicyConfigError(path, `expected an integer number of milliseconds from 1 to ${MAX_HOOK_TIMEOUT_MS}, got ${JSON.stringify(v)}`);
  }
  return v;
}

function parseCapabilities(v: unknown, path: string): HookCapability[] {
  const out: HookCapability[] = [];
  parseList(v, path).forEach((c, i) => {
    if (c === 'fetch' || c === 'fs') { if (!out.includes(c)) out.push(c); return; }
    throw new PolicyConfigError(`${path}[${i}]`, `unknown capability ${JSON.stringify(c)} (expected 'fetch' or 'fs')`);
  });
  return out;
}

/** `data.a.b` (or `a.b`, read as `data.a.b`): dotted names. */
function parseRule(rule: string, path: string): string {
  const full = rule.startsWith('data.') ? rule : `data.${rule}`;
  if (!/^data(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(full)) {
    throw new PolicyConfigError(path, `expected a rule path like data.mcp.fetch.allow (names separated by dots), got '${rule}'`);
  }
  return full;
}

/** The `.rego` files of a source: the file itself, or a directory's, non-recursive, in name order. */
function regoFiles(file: string, path: string): string[] {
  if (!isDirectory(file)) return [file];
  let names: string[];
  try {
    names = readdirSync(file).filter((n) => n.endsWith('.rego')).sort();
  } catch (e) {
    throw new PolicyConfigError(path, `cannot read ${file}: ${(e as Error).message}`);
  }
  const files = names.map((n) => join(file, n)).filter((f) => !isDirectory(f));
  if (files.length === 0) throw new PolicyConfigError(path, `${file} holds no .rego files`);
  return files;
}

/** Reads, parses and compiles a Rego source, and checks it defines its rule: any problem stops startup. */
function parseRego(url: string, file: string, rule: string, timeoutMs: number, path: string): PolicySource {
  const modules: RegoModuleText[] = [];
  let total = 0;
  for (const f of regoFiles(file, `${path}.url`)) {
    try {
      total += statSync(f).size;
      if (total > MAX_REGO_SOURCE_BYTES) throw new PolicyConfigError(`${path}.url`, `the Rego source at ${file} is larger than ${MAX_REGO_SOURCE_BYTES} bytes`);
      modules.push({ file: f, text: readFileSync(f, 'utf8') });
    } catch (e) {
      if (e instanceof PolicyConfigError) throw e;
      throw new PolicyConfigError(`${path}.url`, `cannot read ${f}: ${(e as Error).message}`);
    }
  }
  let policy: RegoPolicy;
  try {
    policy = new RegoPolicy(modules);
  } catch (e) {
    if (e instanceof RegoError) throw new PolicyConfigError(`${path}.url`, e.message);
    throw e;
  }
  if (!policy.defines(rule)) {
    throw new PolicyConfigError(`${path}.rule`, `the Rego policy at ${file} does not define ${rule}`);
  }
  return { kind: 'rego', url, modules, rule, timeoutMs };
}

/** Reads a hook module and proves it parses and has a default export (checked again when it is compiled). */
function readHook(file: string, path: string): string {
  let code: string;
  try {
    if (statSync(file).size > MAX_HOOK_SOURCE_BYTES) throw new PolicyConfigError(path, `${file} is larger than ${MAX_HOOK_SOURCE_BYTES} bytes`);
    code = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof PolicyConfigError) throw e;
    throw new PolicyConfigError(path, `cannot read ${file}: ${(e as Error).message}`);
  }
  let program;
  try {
    program = parseJs(code, { ecmaVersion: 'latest', sourceType: 'module' });
  } catch (e) {
    throw new PolicyConfigError(path, `${file} is not a valid JavaScript module: ${(e as Error).message}`);
  }
  if (!program.body.some((n) => n.type === 'ExportDefaultDeclaration')) {
    throw new PolicyConfigError(path, `${file} has no default export; export the hook function with \`export default function (input, meta) { … }\``);
  }
  if (program.body.some((n) => n.type === 'ImportDeclaration' || (n.type === 'ExportNamedDeclaration' && n.source) || n.type === 'ExportAllDeclaration')) {
    throw new PolicyConfigError(path, `${file} imports other modules; a hook must be one self-contained file`);
  }
  return code;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
