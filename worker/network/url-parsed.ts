// The `url_parsed` member of a network policy input document (fetch, websocket): the URL's parts
// as a policy matches on them (docs/policies.md).

export interface UrlParsed {
  readonly scheme: string;
  /** The host name, without the brackets of an IPv6 literal. */
  readonly host: string;
  /** Null when the URL names no port (the scheme's default applies). */
  readonly port: number | null;
  readonly path: string;
  /** Without the `?`; empty when there is none. */
  readonly query: string;
}

export function urlParsed(url: URL): UrlParsed {
  return {
    scheme: url.protocol.slice(0, -1),
    host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port === '' ? null : Number(url.port),
    path: url.pathname,
    query: url.search.startsWith('?') ? url.search.slice(1) : url.search,
  };
}
