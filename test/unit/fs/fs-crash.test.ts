// A commit's objects are durable before its id exists anywhere else: a writer killed with SIGKILL
// at any moment (between commits, inside one, or between a commit and its label update) leaves a
// store in which every id it reported and the label's head are whole trees, every file reads
// back verified, and every named object matches its key (a half-written object never gets a
// name). SIGKILL keeps the page cache, so this checks the order of the writes, not the fsyncs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DirBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { FsStore } from '../../../supervisor/fs/fs-store.ts';
import { LabelsDb } from '../../../supervisor/fs/labels-db.ts';

const WRITER = join(import.meta.dirname, 'crash-writer.ts');

/** Runs the writer from `firstRound` and SIGKILLs it `delayMs` after its `commits`-th commit; returns the ids it reported. */
async function runAndKill(storeDir: string, labelsDir: string, firstRound: number, commits: number, delayMs: number): Promise<string[]> {
  const child = spawn(process.execPath, [WRITER, storeDir, labelsDir, String(firstRound)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const reported: string[] = [];
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  for await (const line of createInterface({ input: child.stdout })) {
    const m = /^committed ([0-9a-f]{64})$/.exec(line);
    if (m === null) continue;
    reported.push(m[1]!);
    if (reported.length === commits) setTimeout(() => child.kill('SIGKILL'), delayMs);
  }
  assert.equal(await exited, 'SIGKILL');
  return reported;
}

/** Every file of snapshot `root` read back (verified by the store): path → text. */
async function readAll(store: FsStore, root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const [path, e] of store.walk(root)) {
    if (e.kind === 'file') out.set(path, path === 'big.bin' ? `${e.size} bytes` : Buffer.from(await store.readFile(e)).toString());
  }
  return out;
}

test('a writer killed with SIGKILL never leaves a reported id or the label pointing at a missing or torn object', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-crash-'));
  try {
    const storeDir = join(dir, 'blobs');
    const labelsDir = join(dir, 'labels');
    const reported: string[] = [];
    // Three writers in turn on one store, killed at different moments: each later one commits
    // over whatever temp files the previous one left behind.
    for (const [i, delayMs] of [0, 3, 11].entries()) reported.push(...await runAndKill(storeDir, labelsDir, i * 1000, 12, delayMs));
    const blobs = new DirBlobStore({ root: storeDir });
    const store = new FsStore({ blobs, log: () => {} });
    for (const root of reported) {
      for (const [path, text] of await readAll(store, root)) {
        const round = /^d\d\/f(\d+)\.txt$/.exec(path)?.[1];
        if (round === undefined) assert.equal(`${path}: ${text}`, 'big.bin: 1572864 bytes');
        else assert.equal(text, `round ${round}\n`);
      }
    }
    const labels = new LabelsDb(labelsDir);
    const head = labels.head('main');
    assert.ok(head !== undefined && reported.includes(head), 'the label names a reported snapshot');
    // The label moved only after its commit returned: its head is one of the last two reported.
    assert.ok(reported.slice(-2).includes(head));
    labels.close();
    let named = 0;
    for await (const { key } of blobs.list()) {
      assert.ok((await blobs.get(key)) !== undefined);
      named++;
    }
    assert.ok(named > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
