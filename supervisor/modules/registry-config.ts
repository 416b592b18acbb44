// Which npm registry `npm:` imports use, read the way npm reads it so a company mirror works:
// `npm_config_registry` (any case) in the environment, then `registry=` in the project .npmrc
// (the server's working directory), then the user's ~/.npmrc, then registry.npmjs.org. Scoped
// registries (`@acme:registry=…`) and auth tokens (`//host/path/:_authToken=…`, `${ENV}` expanded)
// come from the same files. `jsr:` packages use `@jsr:registry` (default https://npm.jsr.io).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface RegistryConfig {
  /** The default registry, with a trailing slash. */
  readonly registry: string;
  /** `@scope` → registry URL (trailing slash). */
  readonly scopes: ReadonlyMap<string, string>;
  /** `//host/path/` → bearer token. */
  readonly tokens: ReadonlyMap<string, string>;
}

const slash = (url: string): string => (url.endsWith('/') ? url : `${url}/`);

function parseNpmrc(text: string, env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const value = line.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').replace(/\$\{([^}]+)\}/g, (_m, name: string) => env[name] ?? '');
    out.set(line.slice(0, eq).trim(), value);
  }
  return out;
}

function readNpmrc(file: string, env: NodeJS.ProcessEnv): Map<string, string> {
  try {
    return parseNpmrc(readFileSync(file, 'utf8'), env);
  } catch {
    return new Map();
  }
}

/** The registry configuration for `cwd` and `env` (files later in the list lose to earlier ones). */
export function loadRegistryConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), home = homedir()): RegistryConfig {
  const files = [readNpmrc(path.join(cwd, '.npmrc'), env), readNpmrc(path.join(home, '.npmrc'), env)];
  const merged = new Map<string, string>();
  for (const f of files.reverse()) for (const [k, v] of f) merged.set(k, v);
  const fromEnv = Object.entries(env).find(([k]) => k.toLowerCase() === 'npm_config_registry')?.[1];
  const registry = slash(fromEnv !== undefined && fromEnv !== '' ? fromEnv : merged.get('registry') ?? 'https://registry.npmjs.org/');
  const scopes = new Map<string, string>([['@jsr', 'https://npm.jsr.io/']]);
  const tokens = new Map<string, string>();
  for (const [k, v] of merged) {
    const scope = /^(@[^:]+):registry$/.exec(k);
    if (scope !== null) scopes.set(scope[1]!, slash(v));
    const token = /^(\/\/.+\/):_authToken$/.exec(k);
    if (token !== null) tokens.set(token[1]!, v);
  }
  return { registry, scopes, tokens };
}

/** The registry for package `name` (scoped names may have their own). */
export function registryFor(config: RegistryConfig, name: string): string {
  if (name.startsWith('@')) return config.scopes.get(name.slice(0, name.indexOf('/'))) ?? config.registry;
  return config.registry;
}

/** The Authorization header value for `url`, when an .npmrc token covers it. */
export function authFor(config: RegistryConfig, url: string): string | undefined {
  const bare = url.replace(/^https?:/, '');
  let best: string | undefined;
  let bestLength = 0;
  for (const [prefix, token] of config.tokens) {
    if (bare.startsWith(prefix) && prefix.length > bestLength) { best = token; bestLength = prefix.length; }
  }
  return best === undefined ? undefined : `Bearer ${best}`;
}
