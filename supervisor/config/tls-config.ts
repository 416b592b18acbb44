// --fetch-ca-file: certificate authorities the operator adds to Node's bundled roots for scripts'
// outbound TLS (fetch, WebSocket), e.g. an intranet CA. Read and checked once at startup (a file
// that is missing or holds no valid certificate stops startup naming the flag); workers receive
// the PEM text in WorkerSettings.network and read no file themselves.
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';

export class TlsConfigError extends Error {
  override readonly name = 'TlsConfigError';
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle (each checked), or `[]` when no file is configured. */
export function readCaCerts(path: string | undefined): string[] {
  if (path === undefined) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new TlsConfigError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const certs = text.match(PEM_BLOCK) ?? [];
  if (certs.length === 0) throw new TlsConfigError(`${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  certs.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch (e) {
      throw new TlsConfigError(`certificate ${i + 1} in ${path} is not valid: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  return certs;
}
