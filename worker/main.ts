// Worker child-process entry: see worker/serve.ts.
import { serveWorker } from './serve.ts';

serveWorker();
