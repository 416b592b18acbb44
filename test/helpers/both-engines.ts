// Guest tests run on every engine and must agree (one guest, two engines). A guest test file
// calls `guestSuite(name, (g) => { g.test(...) })`; each test runs once per engine through a
// real pool, and `g.run()` returns the same RunResult shape for both.
import { describe, test, before, after } from 'node:test';
import type { EngineName } from '../../shared/protocol.ts';
import { PoolRunner, type RunOptions, type RunResult } from './pool-runner.ts';
import type { PoolOptions } from '../../supervisor/pool/worker-pool.ts';

export const ENGINES: readonly EngineName[] = ['v8', 'quickjs'];

export interface GuestContext {
  readonly engine: EngineName;
  run(code: string, opts?: Omit<RunOptions, 'engine'>): Promise<RunResult>;
  /** Runs `code`, asserts it completed, and returns its console output. */
  output(code: string, opts?: Omit<RunOptions, 'engine'>): Promise<string>;
}

export interface GuestSuiteOptions {
  /** Routes the ops a worker delegates to the supervisor (artifacts); none by default. */
  readonly ops?: PoolOptions['ops'];
  /** More pool options (the network settings, host-op limits). */
  readonly pool?: Partial<PoolOptions>;
  /**
   * A pool of its own per engine. By default both engines' suites share one pool (one worker,
   * which runs either engine): a worker's start is most of a small suite's CPU. Suites that count
   * what a worker keeps between runs (pooled connections, caches) ask for their own.
   */
  readonly poolPerEngine?: boolean;
}

export function guestSuite(name: string, body: (g: { test(title: string, fn: (ctx: GuestContext) => Promise<void>): void }) => void, opts: GuestSuiteOptions = {}): void {
  let shared: PoolRunner | undefined;
  // The last engine's suite closes the shared pool; this hook (registered where guestSuite is
  // called, the file's top level) closes it when that suite never ran (a --test-name-pattern).
  if (opts.poolPerEngine !== true) after(() => shared?.close());
  for (const engine of ENGINES) {
    describe(`${name} [${engine}]`, () => {
      let runner: PoolRunner;
      before(async () => {
        runner = opts.poolPerEngine === true ? new PoolRunner(1, 100, 200, opts.ops, opts.pool) : (shared ??= new PoolRunner(1, 100, 200, opts.ops, opts.pool));
        await runner.pool.ready();
      });
      after(async () => {
        if (runner !== shared) await runner.close();
        else if (engine === ENGINES.at(-1)) { shared = undefined; await runner.close(); }
      });
      const ctx: GuestContext = {
        engine,
        run: (code, opts = {}) => runner.run(code, { ...opts, engine }),
        async output(code, opts = {}) {
          const res = await runner.run(code, { ...opts, engine });
          if (res.outcome.status !== 'completed') {
            throw new Error(`expected completed on ${engine}, got ${JSON.stringify(res.outcome)} with output ${JSON.stringify(res.output)}`);
          }
          return res.output;
        },
      };
      body({ test: (title, fn) => test(title, () => fn(ctx)) });
    });
  }
}
