// The supervisor's side of ops a worker delegates upward (artifacts today; stores, upstream MCP
// tools later): one table from op name to handler, filled by the composition root (app.ts) from
// each capability's routes. A handler's failures reach the guest as structured errors (name,
// message, code) — a GuestOpError says exactly what the script sees; anything else is the
// server's trouble: logged in full, and the guest gets the route's short public text.
import type { GuestErrorShape } from '../../shared/protocol.ts';
import { GuestError } from '../../shared/guest-error.ts';

/** A failure the script should see as an exception with this name, message and code. */
export { GuestError as GuestOpError } from '../../shared/guest-error.ts';

/** The run a delegated op acts for. */
export interface DelegatedRun {
  readonly runId: string;
  /** Aborts when the run ends (completed, failed, timed out, cancelled): work for it may stop. */
  readonly signal?: AbortSignal;
}

export interface OpRoute {
  /** Acts for `run`; `args` come from a worker and are untrusted: narrow them before use. */
  serve(args: unknown, run: DelegatedRun): Promise<unknown>;
  /** What the guest is told when the handler fails with anything but a GuestOpError. */
  readonly unavailable: string;
  /** The largest answer the route sends back (bytes): held against the run's delegated-op budget while it runs. */
  readonly maxAnswerBytes?: number;
}

export type OpRoutes = Readonly<Record<string, OpRoute>>;

export class OpRouter {
  readonly #routes: ReadonlyMap<string, OpRoute>;
  readonly #log: (line: string) => void;

  /** Routes from several capabilities; two may not claim one op. */
  constructor(routeTables: readonly OpRoutes[], log: (line: string) => void) {
    const routes = new Map<string, OpRoute>();
    for (const table of routeTables) {
      for (const [op, route] of Object.entries(table)) {
        if (routes.has(op)) throw new Error(`runjs: delegated op '${op}' is routed twice`);
        routes.set(op, route);
      }
    }
    this.#routes = routes;
    this.#log = log;
  }

  has(op: string): boolean {
    return this.#routes.has(op);
  }

  /** The largest answer `op`'s route may send back (0 when it declares none or there is no such route). */
  maxAnswerBytes(op: string): number {
    return this.#routes.get(op)?.maxAnswerBytes ?? 0;
  }

  /** Serves `op` for `run`: its value, or a GuestErrorShape to send back as the failure. */
  async serve(op: string, args: unknown, run: DelegatedRun): Promise<{ ok: true; value: unknown } | { ok: false; error: GuestErrorShape }> {
    const route = this.#routes.get(op);
    if (route === undefined) return { ok: false, error: { name: 'Error', message: `runjs: op '${op}' is not available on this server` } };
    try {
      return { ok: true, value: await route.serve(args, run) };
    } catch (e) {
      if (e instanceof GuestError) return { ok: false, error: { name: e.guestName, message: e.message, ...(e.code !== undefined ? { code: e.code } : {}) } };
      this.#log(`runjs: ${op} for execution ${run.runId} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return { ok: false, error: { name: 'Error', message: route.unavailable } };
    }
  }
}
