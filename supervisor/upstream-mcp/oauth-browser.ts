// `auth: {type: "oauth_browser"}` on an `http` upstream: the SDK's OAuthClientProvider for the
// authorization-code flow with PKCE (S256, done by the SDK's auth()), where "the browser" is the
// operator's — runjs is a server. When the upstream answers 401 and no token (or refresh token)
// helps, the SDK calls redirectToAuthorization: the URL is logged on stderr and kept as the
// pending authorization, which calls to the server report. The operator opens it, logs in, and
// the authorization server redirects the browser to runjs's listener on
// `http://127.0.0.1:<redirect_port>/callback?code=…&state=…`; the state is checked and the code
// handed to `onCode` (upstream-server.ts: the transport's finishAuth, then a reconnect).
//
// Tokens live here, in the supervisor, and in the token cache file (token-cache.ts) — never in a
// run: scripts reach the upstream only through the supervisor's client. The client is the one
// configured (client_id, client_secret), else one registered dynamically (RFC 7591) and cached.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthBrowserConfig } from './upstream-config.ts';
import { TokenCache } from './token-cache.ts';

export interface OAuthBrowserOptions {
  /** The upstream's name (in log lines and pages). */
  readonly name: string;
  /** The upstream's URL (the token cache's key). */
  readonly url: string;
  readonly config: OAuthBrowserConfig;
  readonly log: { info(line: string): void; warn(line: string): void };
  /** The browser came back with a code: exchange it and connect; a rejection is shown on the callback page. */
  readonly onCode: (code: string) => Promise<void>;
}

const CALLBACK_PATH = '/callback';

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The port of a registered client's loopback redirect URL (`http://127.0.0.1:<port>/callback`). */
function portOf(client: OAuthClientInformationMixed | undefined): number | undefined {
  const uris = client !== undefined && 'redirect_uris' in client ? client.redirect_uris : undefined;
  const url = typeof uris?.[0] === 'string' ? URL.parse(uris[0]) : null;
  if (url === null || url.hostname !== '127.0.0.1' || url.pathname !== CALLBACK_PATH || url.port === '') return undefined;
  return Number(url.port);
}

export class OAuthBrowserProvider implements OAuthClientProvider {
  readonly #opts: OAuthBrowserOptions;
  readonly #cache: TokenCache | undefined;
  #tokens: OAuthTokens | undefined;
  /** A dynamically registered client (a configured one comes from the config each time). */
  #client: OAuthClientInformationMixed | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #verifier: string | undefined;
  #state: string | undefined;
  #pending: string | undefined;
  #exchanging = false;
  #listener: Server | undefined;
  #port: number;

  constructor(opts: OAuthBrowserOptions) {
    this.#opts = opts;
    this.#port = opts.config.redirectPort;
    const tokenCache = opts.config.tokenCache;
    this.#cache = tokenCache === undefined ? undefined : new TokenCache(tokenCache, opts.url, (line) => opts.log.warn(`upstream MCP server '${opts.name}': ${line}`));
    const cached = this.#cache?.load() ?? {};
    this.#tokens = cached.tokens;
    if (opts.config.clientId === undefined) this.#client = cached.client;
  }

  /** The authorization URL the operator has to open, while the flow waits for them. */
  get pendingAuthorization(): string | undefined {
    return this.#pending;
  }

  /**
   * Binds the redirect listener on 127.0.0.1 (once; before the first connection, which may need
   * the redirect URL). Without a configured port, the port of a cached registration's redirect
   * URL is tried first, so that registration stays valid across restarts.
   */
  async listen(): Promise<void> {
    if (this.#listener !== undefined) return;
    const cachedPort = this.#port === 0 ? portOf(this.#client) : undefined;
    const server = createServer((req, res) => { void this.#serve(req, res); });
    const bind = (port: number): Promise<void> => new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => { server.off('error', reject); resolve(); });
    });
    try {
      await bind(cachedPort ?? this.#port).catch((e: unknown) => {
        if (cachedPort === undefined) throw e;
        return bind(0);
      });
    } catch (e) {
      throw new Error(`the OAuth redirect listener cannot listen on 127.0.0.1:${this.#port}: ${messageOf(e)}`);
    }
    server.unref();
    this.#listener = server;
    this.#port = (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.#listener;
    this.#listener = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  // ── OAuthClientProvider ────────────────────────────────────────────────

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.#port}${CALLBACK_PATH}`;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { scope, clientSecret } = this.#opts.config;
    return {
      client_name: 'runjs',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: clientSecret === undefined ? 'none' : 'client_secret_post',
      ...(scope !== undefined ? { scope } : {}),
    };
  }

  state(): string {
    this.#state = randomBytes(24).toString('base64url');
    return this.#state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.#opts.config;
    if (clientId !== undefined) return { client_id: clientId, ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}) };
    // A registration made for another redirect URL (its port was taken at this start) is made
    // again for a new authorization; a refresh token still goes with the client it was issued to.
    const client = this.#client;
    if (this.#tokens?.refresh_token === undefined && client !== undefined && 'redirect_uris' in client && Array.isArray(client.redirect_uris) && !client.redirect_uris.includes(this.redirectUrl)) return undefined;
    return client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    // The SDK also "saves" a configured client, to stamp it with the issuer: it stays in the config, secret and all.
    if (this.#opts.config.clientId !== undefined) return;
    this.#client = info;
    this.#persist();
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
    this.#pending = undefined;
    this.#persist();
  }

  redirectToAuthorization(url: URL): void {
    this.#pending = url.href;
    this.#opts.log.warn(`upstream MCP server '${this.#opts.name}' needs authorization: open ${url.href}`);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error('no authorization is in progress (no PKCE code verifier)');
    return this.#verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
    if (scope === 'all' || scope === 'client') this.#client = undefined;
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
    if (scope !== 'verifier' && scope !== 'discovery') this.#persist();
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  // ── the redirect listener ──────────────────────────────────────────────

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const page = (status: number, text: string): void => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`${text}\n`);
    };
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) return page(404, 'not found');
    const name = this.#opts.name;
    if (this.#pending === undefined || this.#state === undefined) return page(400, `runjs: no authorization of MCP server '${name}' is in progress.`);
    if (url.searchParams.get('state') !== this.#state) return page(400, `runjs: the state does not match the authorization of MCP server '${name}' in progress; open the latest authorization URL from runjs's log.`);
    const error = url.searchParams.get('error');
    if (error !== null) {
      const description = url.searchParams.get('error_description');
      this.#opts.log.warn(`upstream MCP server '${name}': the authorization server refused: ${error}${description !== null ? ` (${description})` : ''}`);
      return page(400, `runjs: the authorization of MCP server '${name}' failed: ${error}${description !== null ? ` (${description})` : ''}.`);
    }
    const code = url.searchParams.get('code');
    if (code === null || code === '') return page(400, 'runjs: the redirect has no code.');
    if (this.#exchanging) return page(409, `runjs: the authorization of MCP server '${name}' is already being completed.`);
    this.#exchanging = true;
    try {
      await this.#opts.onCode(code);
      this.#state = undefined;
      this.#verifier = undefined;
      page(200, `runjs: MCP server '${name}' is authorized. You can close this window.`);
    } catch (e) {
      this.#opts.log.warn(`upstream MCP server '${name}': completing the authorization failed: ${messageOf(e)}`);
      page(502, `runjs: completing the authorization of MCP server '${name}' failed: ${messageOf(e)}`);
    } finally {
      this.#exchanging = false;
    }
  }

  #persist(): void {
    if (this.#cache === undefined) return;
    try {
      this.#cache.save({ ...(this.#tokens !== undefined ? { tokens: this.#tokens } : {}), ...(this.#client !== undefined ? { client: this.#client } : {}) });
    } catch (e) {
      this.#opts.log.warn(`upstream MCP server '${this.#opts.name}': writing the token cache ${this.#cache.file} failed: ${messageOf(e)}`);
    }
  }
}
