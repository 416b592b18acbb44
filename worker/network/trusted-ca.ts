// The certificate authorities outbound TLS trusts (fetch, wss, HTTP/2): Node's bundled roots plus
// the operator's --fetch-ca-file (WorkerSettings.network.caCerts). Undefined when the operator
// added none, so the clients keep their own default (the same roots) without a copy of them.
import { rootCertificates } from 'node:tls';
import type { NetworkSettings } from '../../shared/worker-settings.ts';

export function trustedCa(network: NetworkSettings): string[] | undefined {
  const extra = network.caCerts ?? [];
  return extra.length > 0 ? [...rootCertificates, ...extra] : undefined;
}
