// An HTTP port's MCP endpoint, loaded at the first request to one of its paths. The MCP layer
// (both SDK generations, their zod schemas, the tool surface) is the largest part of the
// supervisor's module graph: ≈ 0.3–0.4 s of CPU at every start, which a server used over REST
// alone (CI runners) never needs. The first MCP request pays it once instead; every later one goes
// straight to the loaded endpoint's own router, which decides exactly as before which requests
// are its own (a path listed here that it does not serve falls through to the 404 as before).
import express, { type NextFunction, type Request, type Response, type Router } from 'express';

export interface HttpMcpEndpoint {
  router(): Router;
  close(): Promise<void>;
}

export function lazyMcpEndpoint(paths: readonly string[], load: () => Promise<HttpMcpEndpoint>): HttpMcpEndpoint {
  let loading: Promise<{ endpoint: HttpMcpEndpoint; router: Router }> | undefined;
  let closed = false;
  const router = express.Router();
  router.all([...paths], (req: Request, res: Response, next: NextFunction) => {
    loading ??= load().then((endpoint) => ({ endpoint, router: endpoint.router() }));
    loading.then(({ router: inner }) => {
      // A request that arrived while the server was closing is not served by a new endpoint.
      if (closed) next();
      else inner(req, res, next);
    }, next);
  });
  return {
    router: () => router,
    close: async () => {
      closed = true;
      const loaded = await loading?.catch(() => undefined);
      await loaded?.endpoint.close();
    },
  };
}
