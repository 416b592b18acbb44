// The child of fs-crash.test.ts: commits snapshot after snapshot into a dir store and moves the
// label `main` to each, printing `committed <id>` as soon as a commit returns (the moment a run's
// result may report the id) and `labelled <id>` after the label moved, until it is SIGKILLed.
import { DirBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { FsStore, type FsChange } from '../../../supervisor/fs/fs-store.ts';
import { LabelsDb } from '../../../supervisor/fs/labels-db.ts';

const [storeDir, labelsDir, firstRound] = process.argv.slice(2);
const store = new FsStore({ blobs: new DirBlobStore({ root: storeDir! }), log: () => {} });
const labels = new LabelsDb(labelsDir!);
let head = labels.head('main');
for (let round = Number(firstRound); ; round++) {
  const changes = new Map<string, FsChange>([[`d${round % 7}/f${round}.txt`, { kind: 'file', bytes: Buffer.from(`round ${round}\n`) }]]);
  // Every fifth round also rewrites a chunked file (several chunks and a chunk list in one batch).
  if (round % 5 === 0) changes.set('big.bin', { kind: 'file', bytes: Buffer.alloc(1536 * 1024, round % 251) });
  const root = await store.commit(head, changes);
  process.stdout.write(`committed ${root}\n`);
  labels.compareAndSet('main', head, root, `round ${round}`);
  head = root;
  process.stdout.write(`labelled ${root}\n`);
}
