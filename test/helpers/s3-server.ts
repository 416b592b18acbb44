// A real S3-compatible server (the npm package s3rver) in its own process on 127.0.0.1 with an
// ephemeral port, for the blob store's S3 contract tests. Run directly, this file *is* that
// process; imported, it exports `startS3Server`, which forks it and talks to it over IPC.
// A separate process matters: stopping or freezing it (SIGSTOP) is a real outage for the client.
//
// s3rver ignores `If-None-Match` on PUT, and its reads are always fresh. Behaviours of other
// servers can be switched on (`configure`) in front of the real store: AWS's conditional writes
// (412), servers that reject the header (501), and a HEAD that answers 404 for an object that
// exists (negative caching), which is how a writer can lose a race it did not see coming.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';

/** Responses the server has sent, keyed `METHOD STATUS` (`GET 200`, `PUT 412`). */
export type ResponseCounts = Record<string, number>;

export interface ServerBehaviour {
  /** `ignore` is s3rver's own behaviour. */
  conditionalWrites: 'ignore' | 'enforce' | 'not-implemented';
  /** HEAD of an object answers 404 even when the object exists. */
  staleHead: boolean;
}

type ToServer = { type: 'counts' } | { type: 'configure'; behaviour: ServerBehaviour };
type FromServer = { type: 'ready'; port: number } | { type: 'counts'; counts: ResponseCounts } | { type: 'configured' };

export interface S3TestServer {
  readonly endpoint: string;
  readonly bucket: string;
  /** The credentials s3rver checks signatures against. */
  readonly credentials: { accessKeyId: string; secretAccessKey: string };
  /** The environment a runjs server process needs to reach this server (PATH, credentials, region). */
  serverEnv(): Record<string, string>;
  /** The flags of a runjs server whose stores are on this server (`bucket` defaults to its own). */
  serverFlags(bucket?: string): string[];
  counts(): Promise<ResponseCounts>;
  configure(behaviour: ServerBehaviour): Promise<void>;
  /** SIGSTOP: the port stays open but nothing answers, like a hung server. */
  freeze(): void;
  thaw(): void;
  /** Kills the server and removes its data; connections are refused from then on. */
  stop(): Promise<void>;
}

export async function startS3Server(bucket = 'runjs-test'): Promise<S3TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'runjs-s3rver-'));
  const child = fork(fileURLToPath(import.meta.url), [dataDir, bucket], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('s3rver did not start within 15 s')), 15_000);
    child.once('exit', (code) => reject(new Error(`s3rver exited during startup (code ${code})`)));
    child.once('message', (m: FromServer) => {
      clearTimeout(timer);
      if (m.type === 'ready') resolve(m.port);
    });
  });
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    serverEnv: () => ({ PATH: process.env['PATH'] ?? '', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' }),
    serverFlags: (b = bucket) => ['--heap-store', 's3', '--s3-bucket', b, '--s3-endpoint', `http://127.0.0.1:${port}`, '--s3-force-path-style'],
    counts: async () => {
      const reply = await ask(child, { type: 'counts' }, 'counts');
      return reply.type === 'counts' ? reply.counts : {};
    },
    configure: async (behaviour) => { await ask(child, { type: 'configure', behaviour }, 'configured'); },
    freeze: () => { child.kill('SIGSTOP'); },
    thaw: () => { child.kill('SIGCONT'); },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function ask(child: ChildProcess, message: ToServer, replyType: FromServer['type']): Promise<FromServer> {
  return new Promise((resolve) => {
    const onMessage = (m: FromServer) => {
      if (m.type !== replyType) return;
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

// ── the server process ───────────────────────────────────────────────────────

interface KoaContext {
  method: string;
  path: string;
  status: number;
  type: string;
  body: unknown;
  get(header: string): string;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  httpServer: Server;
  middleware: Middleware[];
  store: { existsObject(bucket: string, key: string): Promise<boolean> };
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

function s3ErrorBody(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

async function serve(dataDir: string, bucket: string): Promise<void> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const server = new S3rver({
    address: '127.0.0.1', port: 0, silent: true, directory: dataDir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  let behaviour: ServerBehaviour = { conditionalWrites: 'ignore', staleHead: false };
  // Koa composes its middleware when the server starts listening, so this runs first.
  server.middleware.unshift(async (ctx, next) => {
    const object = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (object !== null && ctx.method === 'HEAD' && behaviour.staleHead) {
      ctx.status = 404;
      return;
    }
    if (object !== null && ctx.method === 'PUT' && ctx.get('if-none-match') === '*') {
      if (behaviour.conditionalWrites === 'not-implemented') {
        ctx.status = 501;
        ctx.type = 'application/xml';
        ctx.body = s3ErrorBody('NotImplemented', 'A header you provided implies functionality that is not implemented');
        return;
      }
      const [, objectBucket, key] = object;
      if (behaviour.conditionalWrites === 'enforce' && await server.store.existsObject(objectBucket!, decodeURIComponent(key!))) {
        ctx.status = 412;
        ctx.type = 'application/xml';
        ctx.body = s3ErrorBody('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
        return;
      }
    }
    await next();
  });
  const { port } = await server.run();
  const counts: ResponseCounts = {};
  server.httpServer.on('request', (req: { method?: string }, res: { statusCode: number; on(e: 'finish', f: () => void): void }) => {
    res.on('finish', () => {
      const key = `${req.method ?? '?'} ${res.statusCode}`;
      counts[key] = (counts[key] ?? 0) + 1;
    });
  });
  process.on('message', (m: ToServer) => {
    if (m.type === 'counts') process.send!({ type: 'counts', counts } satisfies FromServer);
    if (m.type === 'configure') {
      behaviour = m.behaviour;
      process.send!({ type: 'configured' } satisfies FromServer);
    }
  });
  // If the test process dies, do not linger as an orphan.
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', port } satisfies FromServer);
}

if (import.meta.main) {
  const [dataDir, bucket] = process.argv.slice(2);
  if (dataDir === undefined || bucket === undefined) throw new Error('usage: s3-server.ts <data-dir> <bucket>');
  await serve(dataDir, bucket);
}
