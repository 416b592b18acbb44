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
