// Filesystem snapshots over the blob store: write files and directories, read them back by path
// without loading the whole tree, and commit a set of changes to a base snapshot by rewriting only
// the directories on the changed paths (copy-on-write). Everything is put-if-absent and verified
// on read by the blob store; trees are immutable, so decoded nodes are cached freely.
import { RunjsError } from '../../shared/errors.ts';
import { isBlobKey, type BlobStore } from '../stores/blob/index.ts';
import { chunkBoundaries } from './fs-chunker.ts';
import { decodeObject, guarded } from './fs-objects.ts';
import { ObjectBatch } from './object-batch.ts';
import {
  bucketOf, CHUNKED_FILE_BYTES, decodeChunkList, decodeTree, encodeChunkList, encodeIndex, encodeLeaf, MAX_LEAF_ENTRIES,
  TreeFormatError, type ChunkRef, type DirEntry, type FileEntry, type TreeEntry, type TreeNode,
} from './tree-format.ts';
import { splitPath } from './tree-paths.ts';
import { StructureCache } from './tree-structure.ts';

export const DEFAULT_FILE_MODE = 0o644;
const NODE_CACHE_ENTRIES = 4096;
const READ_CONCURRENCY = 16;
/** Deepest bucket split: beyond it a leaf may be large (only reachable with sha256 collisions). */
const MAX_SPLIT_DEPTH = 63;

/** One change in a commit: write a file, make a symlink, or delete a path (and everything under it). */
export type FsChange =
  | { readonly kind: 'file'; readonly bytes: Uint8Array; readonly mode?: number }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'delete' };

export interface FsStoreOptions {
  readonly blobs: BlobStore;
  readonly log?: (line: string) => void;
  /** Records a snapshot id as in use (LabelsDb.pin), so garbage collection keeps it for its grace period. */
  readonly pin?: (id: string) => void;
}

/** What one stored tree node refers to: further tree nodes, and file contents (a chunk list's chunks included). */
export interface NodeReferences {
  readonly trees: string[];
  readonly blobs: string[];
}

interface ChangeTrie {
  change?: FsChange;
  readonly children: Map<string, ChangeTrie>;
}

export class FsStore {
  readonly #blobs: BlobStore;
  readonly #log: (line: string) => void;
  readonly #pin: ((id: string) => void) | undefined;
  /** Decoded nodes, least recently used first. */
  readonly #nodes = new Map<string, TreeNode>();
  /** Mount structures by directory id (tree-structure.ts). */
  readonly structures = new StructureCache(this);

  constructor(opts: FsStoreOptions) {
    this.#blobs = opts.blobs;
    this.#log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.#pin = opts.pin;
  }

  /** Marks `id` as in use now (see FsStoreOptions.pin); a no-op for undefined. */
  pin(id: string | undefined): void {
    if (id !== undefined) this.#pin?.(id);
  }

  /** Tree node `key` from the store, decoded (no cache): not found and corrupt are RunjsErrors. */
  async #readNode(key: string): Promise<TreeNode> {
    const payload = await this.#read(key);
    if (payload === undefined) throw new RunjsError('FS_SNAPSHOT_NOT_FOUND', key);
    try {
      return decodeTree(payload);
    } catch (e) {
      if (e instanceof TreeFormatError) throw new RunjsError('FS_SNAPSHOT_CORRUPT', key, e.message);
      throw e;
    }
  }

  /**
   * The objects tree node `key` refers to, read without the node cache (a collection walks every
   * reachable node once; caching them would evict what runs use). A chunked file's chunk list is
   * read to name its chunks.
   */
  async references(key: string): Promise<NodeReferences> {
    const node = await this.#readNode(key);
    if (node.type !== 'leaf') return { trees: node.buckets.filter((b): b is string => b !== undefined), blobs: [] };
    const trees: string[] = [];
    const blobs: string[] = [];
    for (const e of node.entries.values()) {
      if (e.kind === 'dir') trees.push(e.id);
      else if (e.kind === 'file') {
        blobs.push(e.id);
        if (e.chunked) blobs.push(...(await this.#chunkIds(e.id)));
      }
    }
    return { trees, blobs };
  }

  async #chunkIds(listId: string): Promise<string[]> {
    const payload = await this.#read(listId);
    // A missing chunk list has no chunks left to keep; a collection reports it, nothing more.
    if (payload === undefined) return [];
    try {
      return decodeChunkList(payload).map((r) => r.id);
    } catch (e) {
      if (e instanceof TreeFormatError) throw new RunjsError('FS_SNAPSHOT_CORRUPT', listId, e.message);
      throw e;
    }
  }

  get location(): string {
    return this.#blobs.location;
  }

  /** The payload of a stored object, or undefined when absent. */
  async #read(key: string): Promise<Uint8Array | undefined> {
    const stored = await guarded(this.#log, `reading ${key}`, () => this.#blobs.get(key));
    return stored === undefined ? undefined : decodeObject(key, stored);
  }

  /** The tree node under `key`; FS_SNAPSHOT_NOT_FOUND when absent, FS_SNAPSHOT_CORRUPT when it does not parse. */
  async node(key: string): Promise<TreeNode> {
    const hit = this.#nodes.get(key);
    if (hit) {
      this.#nodes.delete(key);
      this.#nodes.set(key, hit);
      return hit;
    }
    if (!isBlobKey(key)) throw new RunjsError('FS_INVALID_ID', key);
    const node = await this.#readNode(key);
    this.#remember(key, node);
    return node;
  }

  #remember(key: string, node: TreeNode): void {
    this.#nodes.delete(key);
    this.#nodes.set(key, node);
    if (this.#nodes.size > NODE_CACHE_ENTRIES) this.#nodes.delete(this.#nodes.keys().next().value!);
  }

  /** Whether `id` names a stored tree (a readable root node). */
  async isTree(id: string): Promise<boolean> {
    try {
      await this.node(id);
      return true;
    } catch (e) {
      if (RunjsError.is(e, 'FS_SNAPSHOT_NOT_FOUND', 'FS_SNAPSHOT_CORRUPT', 'FS_INVALID_ID')) return false;
      throw e;
    }
  }

  /** Every entry of the directory `id` (an index node's buckets flattened). */
  async listDir(id: string): Promise<Map<string, TreeEntry>> {
    const node = await this.node(id);
    if (node.type === 'leaf') return new Map(node.entries);
    const out = new Map<string, TreeEntry>();
    for (const bucket of node.buckets) {
      if (bucket === undefined) continue;
      for (const [name, e] of await this.listDir(bucket)) {
        if (out.has(name)) throw new RunjsError('FS_SNAPSHOT_CORRUPT', id, `name ${JSON.stringify(name)} appears in two buckets`);
        out.set(name, e);
      }
    }
    return out;
  }

  /** The entry `name` of directory `id`, reading only the bucket it hashes to. */
  async entry(id: string, name: string): Promise<TreeEntry | undefined> {
    const node = await this.node(id);
    if (node.type === 'leaf') return node.entries.get(name);
    const bucket = node.buckets[bucketOf(name, node.depth)];
    return bucket === undefined ? undefined : this.entry(bucket, name);
  }

  /** The entry at `path` in snapshot `root` (lazy: reads one node per component); undefined when absent. */
  async lookup(root: string, path: string): Promise<TreeEntry | undefined> {
    let dir: TreeEntry = { kind: 'dir', id: root };
    for (const name of splitPath(path)) {
      if (dir.kind !== 'dir') return undefined;
      const next = await this.entry(dir.id, name);
      if (next === undefined) return undefined;
      dir = next;
    }
    return dir;
  }

  /** Stores file content (chunked above CHUNKED_FILE_BYTES) and returns its entry. */
  async putFile(bytes: Uint8Array, mode = DEFAULT_FILE_MODE): Promise<FileEntry> {
    const batch = this.#batch();
    const entry = await this.#addFile(batch, bytes, mode);
    await batch.flush();
    return entry;
  }

  /** A batch whose tree nodes join the node cache once they are durable (no read back after a commit). */
  #batch(): ObjectBatch {
    return new ObjectBatch(this.#blobs, this.#log, (nodes) => { for (const [key, node] of nodes) this.#remember(key, node); });
  }

  async #addFile(batch: ObjectBatch, bytes: Uint8Array, mode: number): Promise<FileEntry> {
    if (bytes.length <= CHUNKED_FILE_BYTES) return { kind: 'file', mode, size: bytes.length, id: batch.add(bytes), chunked: false };
    const chunks: ChunkRef[] = [];
    for (const [start, end] of chunkBoundaries(bytes)) {
      chunks.push({ length: end - start, id: batch.add(bytes.subarray(start, end)) });
      if (batch.full) await batch.flush();
    }
    return { kind: 'file', mode, size: bytes.length, id: batch.add(encodeChunkList(chunks)), chunked: true };
  }

  /** A file's bytes, checked against the entry's size. */
  async readFile(entry: FileEntry): Promise<Uint8Array> {
    const payload = await this.#read(entry.id);
    if (payload === undefined) throw new RunjsError('FS_SNAPSHOT_CORRUPT', entry.id, 'file content is missing from the store');
    let bytes = payload;
    if (entry.chunked) {
      let refs: ChunkRef[];
      try {
        refs = decodeChunkList(payload);
      } catch (e) {
        if (e instanceof TreeFormatError) throw new RunjsError('FS_SNAPSHOT_CORRUPT', entry.id, e.message);
        throw e;
      }
      const parts: Uint8Array[] = [];
      for (const ref of refs) {
        const chunk = await this.#read(ref.id);
        if (chunk === undefined || chunk.length !== ref.length) throw new RunjsError('FS_SNAPSHOT_CORRUPT', ref.id, 'a chunk is missing or has the wrong length');
        parts.push(chunk);
      }
      bytes = Buffer.concat(parts);
    }
    if (bytes.length !== entry.size) throw new RunjsError('FS_SNAPSHOT_CORRUPT', entry.id, `content is ${bytes.length} bytes, the entry says ${entry.size}`);
    return bytes;
  }

  /** Writes a directory with these entries in canonical form and returns its id. */
  async writeDir(entries: ReadonlyMap<string, TreeEntry>): Promise<string> {
    const batch = this.#batch();
    const id = this.#addDir(batch, entries);
    await batch.flush();
    return id;
  }

  /** Adds a directory (split into buckets above MAX_LEAF_ENTRIES) to `batch`; returns its id. */
  #addDir(batch: ObjectBatch, entries: ReadonlyMap<string, TreeEntry>, depth = 0): string {
    if (entries.size <= MAX_LEAF_ENTRIES || depth > MAX_SPLIT_DEPTH) return batch.add(encodeLeaf(entries), { type: 'leaf', entries: new Map(entries) });
    const groups = Array.from({ length: 16 }, () => new Map<string, TreeEntry>());
    for (const [name, e] of entries) groups[bucketOf(name, depth)]!.set(name, e);
    const buckets = groups.map((g) => (g.size === 0 ? undefined : this.#addDir(batch, g, depth + 1)));
    return batch.add(encodeIndex(depth, buckets), { type: 'index', depth, buckets });
  }

  /** The id of the empty snapshot (stored on first use). */
  emptyTree(): Promise<string> {
    return this.writeDir(new Map());
  }

  /**
   * Applies `changes` (path → change) to snapshot `base` (undefined: empty) and returns the new
   * snapshot id. Only directories on changed paths are rewritten; a directory left empty by
   * deletes disappears (directories exist through what they hold, as in the mount's overlay).
   */
  async commit(base: string | undefined, changes: ReadonlyMap<string, FsChange>): Promise<string> {
    // Pinned first: the commit keeps the base's unchanged subtrees without writing them again.
    this.pin(base);
    const trie: ChangeTrie = { children: new Map() };
    for (const [path, change] of changes) {
      let at = trie;
      const parts = splitPath(path);
      for (const name of parts) {
        // A deleted path may be rebuilt as a directory in the same commit (delete, then write under it).
        if (at.change !== undefined && at.change.kind !== 'delete') throw new RunjsError('FS_INVALID_PATH', path, 'a parent directory is also written as a file in this commit');
        let next = at.children.get(name);
        if (next === undefined) at.children.set(name, next = { children: new Map() });
        at = next;
      }
      if (at.children.size > 0 && change.kind !== 'delete') throw new RunjsError('FS_INVALID_PATH', path, 'written as a file and as a directory in one commit');
      at.change = change;
    }
    // Every new object goes into one batch, stored with one durability barrier at the end: the
    // new root is returned (and may be reported) only once all of it is durable.
    const batch = this.#batch();
    const root = (await this.#apply(base, trie, '', batch)) ?? this.#addDir(batch, new Map());
    await batch.flush();
    this.pin(root);
    return root;
  }

  /** The new id of directory `id` with `trie` applied, or undefined when it ends up empty. */
  async #apply(id: string | undefined, trie: ChangeTrie, at: string, batch: ObjectBatch): Promise<string | undefined> {
    const entries = id === undefined ? new Map<string, TreeEntry>() : await this.listDir(id);
    // Children are independent: read their directories concurrently, a bounded number at a time.
    await eachLimited([...trie.children], READ_CONCURRENCY, async ([name, sub]) => {
      const path = at === '' ? name : `${at}/${name}`;
      const c = sub.change;
      if (c?.kind === 'delete' && sub.children.size > 0) {
        const child = await this.#apply(undefined, { children: sub.children }, path, batch);
        if (child === undefined) entries.delete(name);
        else entries.set(name, { kind: 'dir', id: child });
        return;
      }
      if (c !== undefined) {
        if (c.kind === 'delete') entries.delete(name);
        else if (c.kind === 'symlink') entries.set(name, { kind: 'symlink', target: c.target });
        else entries.set(name, await this.#addFile(batch, c.bytes, c.mode ?? DEFAULT_FILE_MODE));
        return;
      }
      const existing = entries.get(name);
      if (existing !== undefined && existing.kind !== 'dir') throw new RunjsError('FS_INVALID_PATH', path, `'${path}' is a ${existing.kind}, not a directory`);
      const child = await this.#apply((existing as DirEntry | undefined)?.id, sub, path, batch);
      if (child === undefined) entries.delete(name);
      else entries.set(name, { kind: 'dir', id: child });
    });
    return entries.size === 0 && at !== '' ? undefined : this.#addDir(batch, entries);
  }

  /** Every file, symlink and directory under `id`, depth first in name order, with paths. */
  async *walk(id: string, prefix = ''): AsyncGenerator<[string, TreeEntry]> {
    const entries = [...(await this.listDir(id))].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    for (const [name, e] of entries) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      yield [path, e];
      if (e.kind === 'dir') yield* this.walk(e.id, path);
    }
  }

  async close(): Promise<void> {
    await this.#blobs.close();
  }
}

/** Runs `fn` over `items`, at most `limit` at a time; the first failure rejects (the rest finish first). */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      try { await fn(item); } catch (e) { errors.push(e); }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}
