// Where a one-time upload goes: absolute on --public-url (the only address this server knows
// clients can reach), else the path, which the client resolves against the URL it uses.
export const UPLOAD_PATH_PREFIX = '/api/artifact-uploads/';

export function uploadUrl(token: string, publicBaseUrl: string | undefined): string {
  const path = `${UPLOAD_PATH_PREFIX}${token}`;
  if (publicBaseUrl === undefined || publicBaseUrl === '') return path;
  return `${publicBaseUrl.replace(/\/+$/, '')}${path}`;
}

/** The REST download path of an artifact (keys need no escaping: their charset is URL-safe). */
export function artifactPath(key: string): string {
  return `/api/artifacts/${key}`;
}

/**
 * `url` with the token of an upload path replaced by `<token>`, for log lines: a token in flight
 * returns to issued when its upload fails, so a logged one would be a usable credential.
 */
export function redactUploadTokens(url: string): string {
  return url.replace(/(\/api\/artifact-uploads\/)[^/?#]*/gi, '$1<token>');
}
