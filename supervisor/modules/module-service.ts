// External modules (--allow-external-modules): resolves `npm:`, `jsr:` and URL imports, fetches
// what they need (verified, into the content-addressed cache, module-cache.ts) and bundles each
// import with esbuild into one self-contained ES module the guest loads. Workers stay offline:
// they ask through two delegated ops, `modules.resolve` (what the specifier resolves to — the
// input of the `modules` policy, decided in the worker) and `modules.load` (the bundled source).
// A resolution is written to the lock only once its load succeeded, so a failed download (an
// integrity mismatch) leaves nothing behind; a locked specifier needs no network again.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import { GuestError } from '../../shared/guest-error.ts';
import { ModuleError, describe } from './module-error.ts';
import { builtinName, builtinPlugin, bundle, loaded, LOADERS, URL_NS, type LoadedModule } from './bundle.ts';
import type { OpRoutes } from '../pool/op-router.ts';
import { ModuleCache, sha512Integrity, type LockEntry, type LockedPackage, type LockedUrl } from './module-cache.ts';
import { authFor, registryFor, type RegistryConfig } from './registry-config.ts';
import { maxSatisfying, parseRange } from './semver-range.ts';
import { isPackageName, parseSpecifier, SpecifierError, type ModuleType, type ParsedSpecifier } from './specifier.ts';
import { readTarGz, TarError } from './tar-reader.ts';
import type { SharedModuleStore, SharedRecord } from './shared-module-store.ts';

export { ModuleError } from './module-error.ts';
export type { LoadedModule } from './bundle.ts';

export interface ModuleLimits {
  /** A package's tarball, and what it unpacks to (bytes). */
  readonly maxPackageBytes: number;
  /** Files in one package. */
  readonly maxFiles: number;
  /** Packages in one import's dependency tree. */
  readonly maxPackages: number;
  /** The bundled module's size (bytes). */
  readonly maxBundleBytes: number;
  /** One import's resolution, or its fetching and bundling (ms). */
  readonly timeoutMs: number;
  /** One HTTP request (ms). */
  readonly requestTimeoutMs: number;
}

export const DEFAULT_MODULE_LIMITS: ModuleLimits = Object.freeze({
  maxPackageBytes: 64 * 1024 * 1024,
  maxFiles: 10_000,
  maxPackages: 500,
  maxBundleBytes: 16 * 1024 * 1024,
  timeoutMs: 120_000,
  requestTimeoutMs: 30_000,
});

export interface ModuleServiceOptions {
  /** The cache directory (`<session-db-path>/modules`). */
  readonly cacheDir: string;
  readonly registry: RegistryConfig;
  readonly limits?: Partial<ModuleLimits>;
  /** The cache's copy in S3 (shared-module-store.ts), when the server's stores are S3. */
  readonly shared?: SharedModuleStore;
  /** Where trouble with the shared copy is reported (it falls back to the registry); stderr by default. */
  readonly log?: (line: string) => void;
}


export interface Resolved {
  readonly specifier: string;
  readonly type: ModuleType;
  readonly resolvedUrl: string;
}

interface Packument {
  readonly 'dist-tags'?: Record<string, string>;
  readonly versions?: Record<string, {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    dist?: { tarball?: string; integrity?: string; shasum?: string };
  }>;
}

interface PlacedPackage extends LockedPackage {
  readonly dependencies: Record<string, string>;
}

/** Bundle text kept in memory (characters, over all bundles); the rest is read from the cache directory again. */
const MEMORY_BUNDLE_CHARS = 64 * 1024 * 1024;


export class ModuleService {
  readonly #cache: ModuleCache;
  readonly #registry: RegistryConfig;
  readonly #limits: ModuleLimits;
  /** Resolved, not yet loaded: locked once the load succeeds. */
  readonly #pending = new Map<string, LockEntry>();
  /** Bundles by key, as read or built by this process; the least recently used go past MEMORY_BUNDLE_CHARS. */
  readonly #bundles = new Map<string, string>();
  #bundleChars = 0;
  readonly #inflight = new Map<string, Promise<unknown>>();
  readonly #shared: SharedModuleStore | undefined;
  /** Blob keys in the shared store, by integrity, from the records read. */
  readonly #sharedBlobs = new Map<string, string>();
  readonly #log: (line: string) => void;

  constructor(opts: ModuleServiceOptions) {
    this.#cache = new ModuleCache(opts.cacheDir);
    this.#registry = opts.registry;
    this.#limits = { ...DEFAULT_MODULE_LIMITS, ...opts.limits };
    this.#shared = opts.shared;
    this.#log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /** The shared record of `specifier`, or undefined (none, no shared store, or the store failing: then the registry serves). */
  async #sharedRecord(specifier: string): Promise<SharedRecord | undefined> {
    if (this.#shared === undefined) return undefined;
    try {
      const record = await this.#shared.getRecord(specifier);
      for (const [integrity, key] of Object.entries(record?.blobs ?? {})) this.#sharedBlobs.set(integrity, key);
      return record;
    } catch (e) {
      this.#log(`external modules: the shared cache failed, using the registry: ${describe(e)}`);
      return undefined;
    }
  }

  /** The artifact with `integrity` from the shared store (verified), or undefined. */
  async #sharedBlob(integrity: string): Promise<Uint8Array | undefined> {
    const key = this.#sharedBlobs.get(integrity);
    if (this.#shared === undefined || key === undefined) return undefined;
    try {
      const bytes = await this.#shared.blobs.get(key);
      return bytes !== undefined && sha512Integrity(bytes) === integrity ? bytes : undefined;
    } catch (e) {
      this.#log(`external modules: the shared cache failed, using the registry: ${describe(e)}`);
      return undefined;
    }
  }

  /** A bundle from the shared store (verified against its key by the blob store), or undefined. */
  async #sharedBundle(key: string): Promise<string | undefined> {
    try {
      const bytes = await this.#shared?.blobs.get(key);
      return bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8');
    } catch (e) {
      this.#log(`external modules: the shared cache failed, rebuilding the bundle: ${describe(e)}`);
      return undefined;
    }
  }

  /** Copies a new lock entry, its artifacts and its bundle to the shared store (best effort: the import already succeeded). */
  async #share(specifier: string, entry: LockEntry, source: string): Promise<void> {
    const shared = this.#shared;
    if (shared === undefined) return;
    try {
      const integrities = entry.type === 'url' ? entry.urls.map((u) => u.integrity) : entry.packages.map((p) => p.integrity);
      const blobs: Record<string, string> = {};
      for (const integrity of integrities) {
        const bytes = this.#cache.getBlob(integrity);
        if (bytes !== undefined) blobs[integrity] = await shared.blobs.put(bytes);
      }
      const bundle = await shared.blobs.put(Buffer.from(source));
      await shared.putRecord({ specifier, entry, bundle, blobs });
    } catch (e) {
      this.#log(`external modules: could not copy '${specifier}' to the shared cache: ${describe(e)}`);
    }
  }

  /** The default registry `npm:` imports use, without credentials (for the startup log). */
  get registryUrl(): string {
    try {
      const u = new URL(this.#registry.registry);
      u.username = '';
      u.password = '';
      return u.href;
    } catch {
      return '(an invalid URL)';
    }
  }

  get limits(): ModuleLimits {
    return this.#limits;
  }

  /** What `specifier` resolves to: the lock's answer, or a fresh resolution (registry metadata only). */
  async resolve(specifier: string, signal?: AbortSignal): Promise<Resolved> {
    const parsed = this.#parse(specifier);
    if (parsed.type === 'url') return { specifier, type: 'url', resolvedUrl: parsed.url };
    const entry = await this.#once(`resolve ${specifier}`, () => this.#entry(specifier, parsed, signal));
    return { specifier, type: parsed.type, resolvedUrl: entry.resolvedUrl };
  }

  /** The bundled ES module for `specifier`. */
  async load(specifier: string, signal?: AbortSignal): Promise<LoadedModule> {
    try {
      return loaded(await this.#loadText(specifier, signal));
    } catch (e) {
      // A failed load (a download, an integrity mismatch) resolves afresh next time.
      this.#pending.delete(specifier);
      throw e;
    }
  }

  async #loadText(specifier: string, signal?: AbortSignal): Promise<string> {
    const parsed = this.#parse(specifier);
    return this.#once(`load ${specifier}`, async () => {
      let locked = this.#cache.getLock(specifier);
      const record = locked === undefined ? await this.#sharedRecord(specifier) : undefined;
      if (record !== undefined) locked = record.entry;
      if (locked !== undefined) {
        const key = ModuleCache.bundleKey(locked);
        let ready = this.#bundles.get(key) ?? this.#cache.getBundle(key);
        if (ready === undefined && record !== undefined) {
          ready = await this.#sharedBundle(record.bundle);
          if (ready !== undefined) this.#cache.putBundle(key, ready);
        }
        if (ready !== undefined) {
          this.#remember(key, ready);
          if (record !== undefined) this.#cache.putLock(specifier, record.entry);
          return ready;
        }
      }
      const deadline = this.#deadline(signal);
      let entry: LockEntry;
      let source: string;
      if (parsed.type === 'url') {
        ({ entry, source } = await this.#bundleUrl(specifier, parsed.url, locked?.type === 'url' ? locked : undefined, deadline));
      } else {
        // The shared store was asked above: a miss there is not asked again.
        entry = locked ?? await this.#entry(specifier, parsed, signal, false);
        if (entry.type === 'url') throw new ModuleError(`Cannot import '${specifier}': its lock entry is not a package`);
        source = await this.#bundleNpm(specifier, entry, deadline);
      }
      if (Buffer.byteLength(source) > this.#limits.maxBundleBytes) {
        throw new ModuleError(`Cannot import '${specifier}': the bundled module is larger than ${this.#limits.maxBundleBytes} bytes`);
      }
      const key = ModuleCache.bundleKey(entry);
      this.#cache.putBundle(key, source);
      this.#remember(key, source);
      if (record !== undefined || locked === undefined) this.#cache.putLock(specifier, entry);
      this.#pending.delete(specifier);
      if (record === undefined && locked === undefined) await this.#share(specifier, entry, source);
      return source;
    });
  }

  #remember(key: string, source: string): void {
    const had = this.#bundles.get(key);
    if (had !== undefined) { this.#bundles.delete(key); this.#bundleChars -= had.length; }
    this.#bundles.set(key, source);
    this.#bundleChars += source.length;
    for (const [k, v] of this.#bundles) {
      if (this.#bundleChars <= MEMORY_BUNDLE_CHARS || k === key) break;
      this.#bundles.delete(k);
      this.#bundleChars -= v.length;
    }
  }

  /** The delegated ops workers send (worker/runtime/external-modules.ts). */
  routes(): OpRoutes {
    const specifierOf = (args: unknown): string => {
      const s = (args as { specifier?: unknown } | null)?.specifier;
      if (typeof s !== 'string') throw new GuestError('runjs: modules op needs a specifier', 'TypeError');
      return s;
    };
    return {
      'modules.resolve': { serve: (args, run) => this.resolve(specifierOf(args), run.signal), unavailable: 'runjs: the module could not be resolved' },
      'modules.load': { serve: (args, run) => this.load(specifierOf(args), run.signal), unavailable: 'runjs: the module could not be loaded', maxAnswerBytes: this.#limits.maxBundleBytes },
    };
  }

  #parse(specifier: string): ParsedSpecifier {
    try {
      return parseSpecifier(specifier);
    } catch (e) {
      if (e instanceof SpecifierError) throw new ModuleError(`Cannot import '${specifier}': ${e.message}`);
      throw e;
    }
  }

  /** Concurrent imports of one specifier share one resolution or load. */
  #once<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.#inflight.get(key);
    if (running !== undefined) return running as Promise<T>;
    const p = work().finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, p);
    return p;
  }

  #deadline(signal: AbortSignal | undefined): AbortSignal {
    const t = AbortSignal.timeout(this.#limits.timeoutMs);
    return signal === undefined ? t : AbortSignal.any([signal, t]);
  }

  async #entry(specifier: string, parsed: ParsedSpecifier & { type: 'npm' | 'jsr' }, signal?: AbortSignal, askShared = true): Promise<LockEntry> {
    const known = this.#cache.getLock(specifier) ?? this.#pending.get(specifier) ?? (askShared ? (await this.#sharedRecord(specifier))?.entry : undefined);
    if (known !== undefined) return known;
    const entry = await this.#resolveTree(specifier, parsed, this.#deadline(signal));
    this.#pending.set(specifier, entry);
    return entry;
  }

  async #get(url: string, signal: AbortSignal, accept?: string): Promise<{ bytes: Uint8Array; url: string }> {
    const headers: Record<string, string> = {};
    if (accept !== undefined) headers['accept'] = accept;
    const auth = authFor(this.#registry, url);
    if (auth !== undefined) headers['authorization'] = auth;
    let res: Response;
    try {
      res = await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.any([signal, AbortSignal.timeout(this.#limits.requestTimeoutMs)]) });
    } catch (e) {
      const reason = signal.aborted ? `took longer than ${this.#limits.timeoutMs} ms` : describe((e as { cause?: unknown }).cause ?? e);
      throw new ModuleError(`GET ${url} failed: ${reason}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new ModuleError(`GET ${url} answered HTTP ${res.status}`);
    }
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > this.#limits.maxPackageBytes) {
      await res.body?.cancel();
      throw new ModuleError(`GET ${url}: the response is larger than ${this.#limits.maxPackageBytes} bytes`);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of res.body ?? []) {
      total += (chunk as Uint8Array).byteLength;
      if (total > this.#limits.maxPackageBytes) throw new ModuleError(`GET ${url}: the response is larger than ${this.#limits.maxPackageBytes} bytes`);
      chunks.push(chunk as Uint8Array);
    }
    return { bytes: Buffer.concat(chunks), url: res.url || url };
  }

  async #resolveTree(specifier: string, parsed: { type: 'npm' | 'jsr'; name: string; range: string; subpath: string }, signal: AbortSignal): Promise<LockEntry> {
    const packuments = new Map<string, Promise<Packument>>();
    const packument = (name: string): Promise<Packument> => {
      let p = packuments.get(name);
      if (p === undefined) {
        const url = `${registryFor(this.#registry, name)}${name.replace('/', '%2f')}`;
        p = this.#get(url, signal, 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8').then(({ bytes }) => {
          try {
            return JSON.parse(Buffer.from(bytes).toString('utf8')) as Packument;
          } catch {
            throw new ModuleError(`the registry's metadata for ${name} (${url}) is not JSON`);
          }
        });
        packuments.set(name, p);
      }
      return p;
    };
    const pick = async (name: string, range: string, at: string): Promise<PlacedPackage> => {
      const doc = await packument(name);
      const versions = doc.versions ?? {};
      const tags = doc['dist-tags'] ?? {};
      let version = tags[range];
      if (version === undefined) {
        if (/^(npm|git|file|link|workspace|https?):|[/\\]/.test(range)) throw new ModuleError(`${name}@${range}: only semver ranges and dist-tags are supported`);
        try {
          parseRange(range);
        } catch {
          throw new ModuleError(`${name}@${range}: '${range}' is not a version range runjs understands`);
        }
        const latest = tags['latest'];
        version = latest !== undefined && Object.hasOwn(versions, latest) && maxSatisfying([latest], range) !== undefined
          ? latest
          : maxSatisfying(Object.keys(versions), range);
      }
      const meta = version === undefined ? undefined : versions[version];
      if (version === undefined || meta === undefined) {
        const listed = Object.keys(versions).slice(-10).join(', ') || 'none';
        throw new ModuleError(`no version of ${name} matches '${range}' (latest versions: ${listed})`);
      }
      const tarball = meta.dist?.tarball;
      const integrity = meta.dist?.integrity?.split(/\s+/).find((i) => i.startsWith('sha512-'))
        ?? (meta.dist?.shasum !== undefined ? `sha1-${Buffer.from(meta.dist.shasum, 'hex').toString('base64')}` : undefined);
      if (tarball === undefined || integrity === undefined) throw new ModuleError(`${name}@${version} has no tarball with an integrity in the registry's metadata`);
      // Peers are installed as npm 7+ installs them (unless optional): found where the package
      // can see them, or placed like any dependency.
      const peers = Object.entries(meta.peerDependencies ?? {}).filter(([n]) => meta.peerDependenciesMeta?.[n]?.optional !== true);
      return { path: at, name, version, tarball, integrity, dependencies: { ...Object.fromEntries(peers), ...meta.dependencies } };
    };
    try {
      const rootPath = `node_modules/${parsed.name}`;
      const placed = new Map<string, PlacedPackage>([[rootPath, await pick(parsed.name, parsed.range, rootPath)]]);
      const queue = [rootPath];
      while (queue.length > 0) {
        const at = queue.shift()!;
        const deps = Object.entries(placed.get(at)!.dependencies).sort(([a], [b]) => (a < b ? -1 : 1));
        for (const [dep, range] of deps) {
          // The name becomes a directory of the bundling tree: a registry may not choose where.
          if (!isPackageName(dep)) throw new ModuleError(`${placed.get(at)!.name}@${placed.get(at)!.version} depends on '${dep}', which is not a valid package name`);
          // Node's lookup from `at`: its own node_modules, then each ancestor's.
          const parts = at.split('/node_modules/');
          const candidates = parts.map((_, i) => `${parts.slice(0, parts.length - i).join('/node_modules/')}/node_modules/${dep}`);
          candidates.push(`node_modules/${dep}`);
          const found = candidates.find((c) => placed.has(c));
          if (found !== undefined && maxSatisfying([placed.get(found)!.version], range === '' ? '*' : range) !== undefined) continue;
          const target = found === undefined ? `node_modules/${dep}` : candidates[0]!;
          if (placed.size >= this.#limits.maxPackages) throw new ModuleError(`the dependency tree has more than ${this.#limits.maxPackages} packages`);
          placed.set(target, await pick(dep, range === '' ? 'latest' : range, target));
          queue.push(target);
        }
      }
      const root = placed.get(rootPath)!;
      const packages = [...placed.values()].map(({ dependencies: _d, ...p }) => p);
      return { type: parsed.type, resolvedUrl: root.tarball, entry: parsed.subpath === '' ? parsed.name : `${parsed.name}/${parsed.subpath}`, packages };
    } catch (e) {
      if (e instanceof ModuleError) throw new ModuleError(`Cannot import '${specifier}': ${e.message}`);
      throw e;
    }
  }

  /** The tarball's bytes: from the cache, or downloaded and verified (only then stored). */
  async #tarball(p: LockedPackage, signal: AbortSignal): Promise<Uint8Array> {
    const sha512 = p.integrity.startsWith('sha512-') ? p.integrity : undefined;
    const cached = sha512 === undefined ? undefined : this.#cache.getBlob(sha512);
    if (cached !== undefined) return cached;
    const shared = sha512 === undefined ? undefined : await this.#sharedBlob(sha512);
    if (shared !== undefined) { this.#cache.putBlob(shared); return shared; }
    const { bytes } = await this.#get(p.tarball, signal);
    const [algo] = p.integrity.split('-', 1);
    const actual = `${algo}-${createHash(algo!).update(bytes).digest('base64')}`;
    if (actual !== p.integrity) {
      throw new ModuleError(`integrity check failed for ${p.name}@${p.version} (${p.tarball}): expected ${p.integrity}, got ${actual}`);
    }
    this.#cache.putBlob(bytes);
    return bytes;
  }

  async #bundleNpm(specifier: string, entry: LockEntry & { type: 'npm' | 'jsr' }, signal: AbortSignal): Promise<string> {
    const root = path.join(this.#cache.dir, 'tmp', randomBytes(8).toString('hex'));
    try {
      const tarballs = await Promise.all(entry.packages.map((p) => this.#tarball(p, signal)));
      entry.packages.forEach((p, i) => {
        let files: Map<string, Uint8Array>;
        try {
          files = readTarGz(tarballs[i]!, { maxBytes: this.#limits.maxPackageBytes, maxFiles: this.#limits.maxFiles });
        } catch (e) {
          if (e instanceof TarError) throw new ModuleError(`${p.name}@${p.version}: ${e.message}`);
          throw e;
        }
        for (const [name, bytes] of files) {
          // npm tarballs hold one top directory (usually `package/`).
          const rest = name.slice(name.indexOf('/') + 1);
          if (!name.includes('/') || rest === '') continue;
          const file = path.join(root, p.path, rest);
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, bytes);
        }
      });
      return await bundle({ entryPoints: [entry.entry], absWorkingDir: root, plugins: [builtinPlugin] });
    } catch (e) {
      if (e instanceof ModuleError && !e.message.startsWith('Cannot import')) throw new ModuleError(`Cannot import '${specifier}': ${e.message}`);
      throw e;
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }

  async #bundleUrl(specifier: string, url: string, locked: (LockEntry & { type: 'url' }) | undefined, signal: AbortSignal): Promise<{ entry: LockEntry; source: string }> {
    const pinned = new Map((locked?.urls ?? []).map((u) => [u.url, u]));
    const fetched = new Map<string, LockedUrl>();
    /** Where each module was found after redirects: its relative imports resolve against that. */
    const finalUrl = (u: string): string => fetched.get(u)?.redirectedTo ?? u;
    const body = async (u: string): Promise<Uint8Array> => {
      const lockedUrl = pinned.get(u);
      let bytes = lockedUrl === undefined ? undefined : this.#cache.getBlob(lockedUrl.integrity) ?? await this.#sharedBlob(lockedUrl.integrity);
      let redirectedTo = lockedUrl?.redirectedTo;
      if (bytes === undefined) {
        const got = await this.#get(u, signal);
        bytes = got.bytes;
        redirectedTo = got.url !== u ? got.url : undefined;
        if (lockedUrl !== undefined && sha512Integrity(bytes) !== lockedUrl.integrity) {
          throw new ModuleError(`integrity check failed for ${u}: it changed since it was locked (expected ${lockedUrl.integrity}, got ${sha512Integrity(bytes)})`);
        }
        this.#cache.putBlob(bytes);
      }
      fetched.set(u, { url: u, integrity: sha512Integrity(bytes), ...(redirectedTo !== undefined ? { redirectedTo } : {}) });
      return bytes;
    };
    const plugin: esbuild.Plugin = {
      name: 'runjs-url-modules',
      setup(build) {
        build.onResolve({ filter: /.*/ }, (a) => {
          if (a.kind === 'entry-point') return { path: a.path, namespace: URL_NS };
          if (builtinName(a.path) !== undefined && !a.path.includes('/')) return undefined;
          if (a.path.startsWith('npm:') || a.path.startsWith('jsr:')) return { errors: [{ text: `'${a.path}': npm: and jsr: imports inside URL modules are not supported` }] };
          let next: URL;
          try {
            next = new URL(a.path, finalUrl(a.importer));
          } catch {
            return { errors: [{ text: `'${a.path}' (imported by ${a.importer}) is not a relative import or a URL` }] };
          }
          if (!/^(\.{0,2}\/|https?:)/.test(a.path)) return { errors: [{ text: `bare import '${a.path}' in ${a.importer}: URL modules may import relative paths and URLs only` }] };
          if (next.protocol !== 'https:' && next.protocol !== 'http:') return { errors: [{ text: 'only https/http modules are supported' }] };
          return { path: next.href, namespace: URL_NS };
        });
        build.onLoad({ filter: /.*/, namespace: URL_NS }, async (a) => {
          const bytes = await body(a.path);
          const ext = path.posix.extname(new URL(a.path).pathname);
          return { contents: bytes, loader: LOADERS[ext] ?? 'js' };
        });
      },
    };
    try {
      const source = await bundle({ entryPoints: [url], plugins: [builtinPlugin, plugin] });
      const urls = [...fetched.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
      return { entry: { type: 'url', resolvedUrl: url, urls }, source };
    } catch (e) {
      if (e instanceof ModuleError) throw new ModuleError(`Cannot import '${specifier}': ${e.message}`);
      throw e;
    }
  }
}
