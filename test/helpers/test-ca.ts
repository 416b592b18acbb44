// A certificate authority made by the test (selfsigned, EC keys: fast) and a server certificate
// it signed for 127.0.0.1 and localhost: what an operator's intranet CA looks like to runjs.
import { generate } from 'selfsigned';

export interface TestCa {
  /** The CA's certificate (PEM): what --fetch-ca-file holds. */
  readonly caCert: string;
  /** The server's key and certificate chain (leaf, then the CA). */
  readonly key: string;
  readonly cert: string;
}

export async function makeTestCa(): Promise<TestCa> {
  const ca = await generate([{ name: 'commonName', value: 'runjs test CA' }], {
    keyType: 'ec', algorithm: 'sha256',
    extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', algorithm: 'sha256', ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { caCert: ca.cert, key: leaf.private, cert: `${leaf.cert.trim()}\n${ca.cert.trim()}\n` };
}
