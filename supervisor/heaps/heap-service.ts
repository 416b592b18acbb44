// What the transports call for heaps and sessions: tags, queries and the session log, with the
// argument checks and the "not configured" errors in one place. Disabled (no heap store) it
// still answers, with errors that say which flag turns the feature on.
import type { DatabaseSync } from 'node:sqlite';
import { RunjsError } from '../../shared/errors.ts';
import { checkSessionName } from '../mcp/session-name.ts';
import type { HeapStore } from './heap-store.ts';
import { isHeapKey } from './heap-store.ts';
import { HeapTagStore, type HeapTagMatch, type Tags } from './heap-tags.ts';
import { SessionLog, type SessionSnapshotEntry } from './session-log.ts';

export const MAX_TAGS = 64;
export const MAX_TAG_NAME = 128;
export const MAX_TAG_VALUE = 1024;

export class HeapService {
  readonly store: HeapStore | undefined;
  readonly tagStore: HeapTagStore;
  readonly log: SessionLog;
  /** Sessions persist something: a heap store, or a filesystem store (enableFsSessions). */
  #fsSessions = false;

  constructor(db: DatabaseSync, store: HeapStore | undefined) {
    this.store = store;
    this.tagStore = new HeapTagStore(db);
    this.log = new SessionLog(db);
  }

  get enabled(): boolean {
    return this.store !== undefined;
  }

  /** Sessions keep a log even without a heap store: their runs' filesystem snapshots (output_fs). */
  enableFsSessions(): void {
    this.#fsSessions = true;
  }

  get sessionsEnabled(): boolean {
    return this.store !== undefined || this.#fsSessions;
  }

  #requireHeaps(): void {
    if (!this.store) throw new RunjsError('HEAP_NOT_ENABLED');
  }

  #requireSessions(): void {
    if (!this.sessionsEnabled) throw new RunjsError('SESSIONS_NOT_ENABLED');
  }

  getTags(heap: string): Tags {
    this.#requireHeaps();
    return this.tagStore.get(checkHeapKey(heap));
  }

  setTags(heap: string, tags: unknown): Tags {
    this.#requireHeaps();
    const key = checkHeapKey(heap);
    this.tagStore.set(key, checkTags(tags));
    return this.tagStore.get(key);
  }

  deleteTags(heap: string, names?: readonly string[]): Tags {
    this.#requireHeaps();
    return this.tagStore.delete(checkHeapKey(heap), names);
  }

  queryByTags(filter: unknown): HeapTagMatch[] {
    this.#requireHeaps();
    return this.tagStore.query(checkTags(filter));
  }

  sessions(): string[] {
    this.#requireSessions();
    return this.log.sessions();
  }

  snapshots(session: string | undefined): SessionSnapshotEntry[] {
    this.#requireSessions();
    if (session === undefined) throw new RunjsError('NO_SESSION');
    return this.log.entries(checkSession(session));
  }
}

export function checkHeapKey(heap: unknown): string {
  if (!isHeapKey(heap)) throw new RunjsError('INVALID_HEAP_KEY', heap);
  return heap;
}

export function checkSession(session: unknown): string {
  const c = checkSessionName(session, 'session');
  if (!c.ok) throw new RunjsError('INVALID_SESSION', c.error);
  if (c.value === undefined) throw new RunjsError('NO_SESSION');
  return c.value;
}

/** A tag map: at most MAX_TAGS string pairs, names 1..MAX_TAG_NAME characters, values up to MAX_TAG_VALUE. */
export function checkTags(tags: unknown): Tags {
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) throw new RunjsError('INVALID_TAGS', 'expected an object of string values');
  const entries = Object.entries(tags);
  if (entries.length > MAX_TAGS) throw new RunjsError('INVALID_TAGS', `at most ${MAX_TAGS} tags, got ${entries.length}`);
  for (const [k, v] of entries) {
    if (k.length === 0 || k.length > MAX_TAG_NAME) throw new RunjsError('INVALID_TAGS', `tag names must be 1 to ${MAX_TAG_NAME} characters, got ${JSON.stringify(k.slice(0, 40))}`);
    if (typeof v !== 'string') throw new RunjsError('INVALID_TAGS', `tag '${k}' must be a string, got ${typeof v}`);
    if (v.length > MAX_TAG_VALUE) throw new RunjsError('INVALID_TAGS', `tag '${k}' is longer than ${MAX_TAG_VALUE} characters`);
  }
  return Object.fromEntries(entries) as Tags;
}
