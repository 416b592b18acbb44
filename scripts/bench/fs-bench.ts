// Filesystem snapshots (issue 15 targets), on a `dir` blob store in a temporary directory:
//
//   fs.mount_run_small_ms             the data path of one run on a 1,000-file tree: the
//                                     supervisor reads the tree's structure (mount-image.ts
//                                     loadMount), the worker's MountFs takes it, the run reads one
//                                     file and rewrites another (their contents read from the store
//                                     as the object pipe's route reads them), and its changes are
//                                     committed into a new snapshot. In process, without an engine
//                                     or IPC (engine.trivial_run_ms and rest.trivial_run_p50_ms
//                                     report those costs; a pipe round trip is well under 1 ms).
//                                     Target ≤ 10 ms.
//   fs.bytes_stored_per_small_change  bytes the store grows by when one line of one file of the
//                                     1,000-file tree changes. Target ≤ 8 KiB.
//
// Peer, when `git` is installed: the same one-line change committed in a 1,000-file git
// repository (`git commit -qam`, loose objects), time and bytes added under .git/objects. git does
// not fsync; its step is followed (untimed) by a `sync`, so neither side pays for the other's writes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirBlobStore } from '../../supervisor/stores/blob/index.ts';
import { FsStore, type FsChange } from '../../supervisor/fs/fs-store.ts';
import { commitMount, loadMount } from '../../supervisor/fs/mount-image.ts';
import { MountFs } from '../../worker/ops/fs/mount-fs.ts';
import { DEFAULT_MOUNT_LIMITS } from '../../shared/fs-mount.ts';
import { comparedMetric, dirBytes, median, metric, roundFigure, type BenchOptions, type Metric } from './bench-kit.ts';

export const metricPrefixes = ['fs.'];

const FILES = 1000;

/** 1,000 small text files in 20 directories of 50, a few lines each (a source tree's shape). */
function treeFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < FILES; i++) {
    const lines = Array.from({ length: 20 }, (_, k) => `export const v${k} = ${i * 100 + k}; // line ${k} of file ${i}`);
    out.set(`src/d${String(i % 20).padStart(2, '0')}/f${String(i).padStart(4, '0')}.ts`, `${lines.join('\n')}\n`);
  }
  return out;
}

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One line of `text` changed: the one the round names. */
function edit(text: string, round: number): string {
  return text.replace(/line 7 of file \d+/, `line 7 edited in round ${round}`);
}

interface Subject {
  /** One run: mount, read one file, rewrite one, commit; returns its duration (ms) and the bytes stored. */
  step(round: number): Promise<{ ms: number; bytes: number }>;
  /** Where the subject's time went, per step: [mount structure + fetches, commit] in ms. */
  readonly parts?: [number, number][];
  close(): void;
}

async function fsSubject(files: Map<string, string>): Promise<Subject> {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-bench-'));
  const store = new FsStore({ blobs: new DirBlobStore({ root: dir }), log: () => {} });
  let head = await store.commit(undefined, new Map<string, FsChange>([...files].map(([p, t]) => [p, { kind: 'file', bytes: Buffer.from(t) }])));
  const paths = [...files.keys()];
  const parts: [number, number][] = [];
  return {
    parts,
    async step(round) {
      const before = dirBytes(dir);
      const readPath = paths[(round * 7) % paths.length]!;
      const writePath = paths[(round * 13 + 1) % paths.length]!;
      const t0 = performance.now();
      const loaded = await loadMount(store, head, DEFAULT_MOUNT_LIMITS);
      // The worker would ask for these two over its pipe: the same store reads, done up front.
      const wanted = loaded.image.entries.filter((e) => e.kind === 'file' && (e.path === readPath || e.path === writePath));
      const fetched = new Map(await Promise.all(wanted.map(async (e) => [e.kind === 'file' ? e.id : '', await loaded.read(e.kind === 'file' ? e.id : '')] as const)));
      const mount = new MountFs(loaded.image, DEFAULT_MOUNT_LIMITS, (id) => fetched.get(id)!);
      mount.readFile(`/work/${readPath}`);
      const text = Buffer.from(mount.readFile(`/work/${writePath}`)).toString();
      mount.writeFile(`/work/${writePath}`, Buffer.from(edit(text, round)), 'w', undefined);
      const t1 = performance.now();
      head = await commitMount(store, head, mount.changes(), loaded);
      const ms = performance.now() - t0;
      parts.push([t1 - t0, ms - (t1 - t0)]);
      return { ms, bytes: dirBytes(dir) - before };
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function gitSubject(files: Map<string, string>): Subject {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-bench-git-'));
  const git = (...args: string[]): void => { execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'gc.auto=0', ...args], { cwd: dir, stdio: 'ignore' }); };
  git('init', '-q');
  for (const [p, t] of files) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  git('add', '-A');
  git('commit', '-qm', 'base');
  const paths = [...files.keys()];
  const current = new Map(files);
  return {
    async step(round) {
      const before = dirBytes(join(dir, '.git', 'objects'));
      const writePath = paths[(round * 13 + 1) % paths.length]!;
      const next = edit(current.get(writePath)!, round);
      current.set(writePath, next);
      const t0 = performance.now();
      writeFileSync(join(dir, writePath), next);
      git('commit', '-qam', `round ${round}`);
      const ms = performance.now() - t0;
      // git leaves its writes in the page cache; flushed here (untimed), so the next subject step's
      // fsync does not write git's dirty pages too (the steps alternate on one disk).
      execFileSync('sync', [], { stdio: 'ignore' });
      return { ms, bytes: dirBytes(join(dir, '.git', 'objects')) - before };
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const wantTime = opts.wants('fs.mount_run_small_ms');
  const wantBytes = opts.wants('fs.bytes_stored_per_small_change');
  if (!wantTime && !wantBytes) return [];
  const files = treeFiles();
  const subject = await fsSubject(files);
  const peer = hasGit() ? gitSubject(files) : undefined;
  if (peer === undefined) opts.log('  fs.*: git is not installed; no peer');
  opts.log(`  fs.mount_run_small_ms / fs.bytes_stored_per_small_change: mount a ${FILES}-file tree, read one file, rewrite one line of another, commit${peer ? ' (peer: git commit -qam of the same change)' : ''}`);
  try {
    const warmup = opts.count(5, 1);
    const rounds = opts.count(60, 3);
    const own: { ms: number; bytes: number }[] = [];
    const theirs: { ms: number; bytes: number }[] = [];
    for (let round = 0; round < warmup + rounds; round++) {
      // Alternate who goes first, so neither always runs on the other's warm caches.
      const pair = round % 2 === 0 ? [subject, peer] : [peer, subject];
      for (const s of pair) {
        if (s === undefined) continue;
        const r = await s.step(round);
        if (round >= warmup) (s === subject ? own : theirs).push(r);
      }
    }
    const kept = subject.parts!.slice(warmup);
    opts.log(`    median mount (structure + 2 fetches) ${roundFigure(median(kept.map((p) => p[0])))} ms, commit (durable puts) ${roundFigure(median(kept.map((p) => p[1])))} ms`);
    const out: Metric[] = [];
    const pick = (rs: readonly { ms: number; bytes: number }[], k: 'ms' | 'bytes'): number[] => rs.map((r) => r[k]);
    if (wantTime) {
      out.push(peer ? comparedMetric('fs.mount_run_small_ms', 'ms', pick(own, 'ms'), 'git_commit_one_line', pick(theirs, 'ms')) : metric('fs.mount_run_small_ms', 'ms', pick(own, 'ms')));
    }
    if (wantBytes) {
      const bytes = median(pick(own, 'bytes'));
      out.push(peer
        ? { name: 'fs.bytes_stored_per_small_change', median: roundFigure(bytes), unit: 'bytes', runs: own.length, peer: { name: 'git_objects_one_line', median: roundFigure(median(pick(theirs, 'bytes'))) }, ratio: roundFigure(bytes / median(pick(theirs, 'bytes'))) }
        : { name: 'fs.bytes_stored_per_small_change', median: roundFigure(bytes), unit: 'bytes', runs: own.length });
    }
    return out;
  } finally {
    subject.close();
    peer?.close();
  }
}
