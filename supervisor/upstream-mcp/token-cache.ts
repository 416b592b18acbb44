// The `token_cache` file of `oauth_browser` upstreams: what a restart needs to skip the browser
// (tokens, and a client registered dynamically), kept per server URL in one JSON file
//
//   {"version": 1, "servers": {"<url>": {"tokens": {...}, "client": {...}}}}
//
// written atomically (a temporary file with mode 0600 in the same directory, then a rename), so
// the file is never half-written and never readable by others. Reads and writes are synchronous:
// the file is small, it changes only when tokens do, and a read-modify-write then cannot interleave
// with another one in this process (two servers sharing one file keep each other's entries).
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What is kept for one server. */
export interface CachedAuth {
  readonly tokens?: OAuthTokens;
  /** A dynamically registered client (a configured client_id is never written here). */
  readonly client?: OAuthClientInformationMixed;
}

interface CacheFile {
  version: 1;
  servers: Record<string, CachedAuth>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class TokenCache {
  readonly file: string;
  readonly #key: string;
  readonly #warn: (line: string) => void;

  /** `file` relative to the working directory; `key` is the server URL. */
  constructor(file: string, key: string, warn: (line: string) => void) {
    this.file = path.resolve(file);
    this.#key = key;
    this.#warn = warn;
  }

  /** This server's entry; nothing when the file is missing or unreadable (warned about: the browser flow starts over). */
  load(): CachedAuth {
    const entry = this.#read()?.servers[this.#key];
    if (!isObject(entry)) return {};
    const tokens = entry['tokens'];
    const client = entry['client'];
    return {
      ...(isObject(tokens) && typeof tokens['access_token'] === 'string' ? { tokens: tokens as OAuthTokens } : {}),
      ...(isObject(client) && typeof client['client_id'] === 'string' ? { client: client as OAuthClientInformationMixed } : {}),
    };
  }

  save(entry: CachedAuth): void {
    const file = this.#read() ?? { version: 1, servers: {} };
    file.servers[this.#key] = entry;
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(tmp, 0o600); // in case the umask took bits away (never adds them)
      renameSync(tmp, this.file);
    } catch (e) {
      try { unlinkSync(tmp); } catch { /* not created */ }
      throw e;
    }
  }

  #read(): CacheFile | undefined {
    let text: string;
    try {
      const mode = statSync(this.file).mode & 0o777;
      if ((mode & 0o077) !== 0) this.#warn(`token cache ${this.file} is readable by others (mode ${mode.toString(8)}); runjs rewrites it with mode 600 at the next token change`);
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.#warn(`token cache ${this.file} cannot be read (${(e as Error).message}); ignoring it`);
      return undefined;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (isObject(parsed) && parsed['version'] === 1 && isObject(parsed['servers'])) return parsed as unknown as CacheFile;
    } catch { /* reported below */ }
    this.#warn(`token cache ${this.file} is not a runjs token cache (expected {"version": 1, "servers": {...}}); ignoring it`);
    return undefined;
  }
}
