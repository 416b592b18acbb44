// A tiny npm registry on 127.0.0.1 for the external-module tests: packuments and gzipped ustar
// tarballs built by the test (the tar format written by hand below), plus plain files for URL
// modules. It records what was asked, and can lie about an integrity or a body.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** One ustar header + data blocks for a regular file. */
function tarEntry(name: string, data: Uint8Array): Buffer {
  const header = Buffer.alloc(512);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  header.write(base, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148); // checksum placeholder: eight spaces
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const padded = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  Buffer.from(data).copy(padded);
  return Buffer.concat([header, padded]);
}

/** A gzipped tarball holding `files` under `package/`, as npm packs them. */
export function makeTarball(files: Record<string, string | Uint8Array>, top = 'package'): Buffer {
  const blocks = Object.entries(files).map(([p, content]) => tarEntry(`${top}/${p}`, typeof content === 'string' ? Buffer.from(content) : content));
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

export interface PackageVersion {
  /** Files besides package.json (written from `manifest`). */
  readonly files: Record<string, string>;
  /** package.json fields besides name and version. */
  readonly manifest?: Record<string, unknown>;
  /** Publish a wrong dist.integrity for this version. */
  readonly badIntegrity?: boolean;
}

export interface NpmRegistry {
  readonly url: string;
  /** Request paths seen, in order. */
  readonly seen: string[];
  /** Adds (or replaces) a version of a package. */
  publish(name: string, version: string, pkg: PackageVersion, tag?: string): void;
  /** While true, every request fails (the socket is destroyed): the registry is down. */
  down: boolean;
  /** Answers `path` with a 302 to `to`. */
  redirect(path: string, to: string): void;
  /** Serves `body` at `path` (URL modules). */
  file(path: string, body: string, contentType?: string): void;
  close(): Promise<void>;
}

export async function startNpmRegistry(): Promise<NpmRegistry> {
  const packuments = new Map<string, { 'dist-tags': Record<string, string>; versions: Record<string, unknown> }>();
  const blobs = new Map<string, { body: Buffer; type: string }>();
  const redirects = new Map<string, string>();
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    seen.push(path);
    if (self.down) { req.socket.destroy(); return; }
    const to = redirects.get(path);
    if (to !== undefined) { res.writeHead(302, { location: to }).end(); return; }
    const blob = blobs.get(path);
    if (blob !== undefined) { res.writeHead(200, { 'content-type': blob.type }).end(blob.body); return; }
    const doc = packuments.get(path.slice(1));
    if (doc !== undefined) { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: path.slice(1), ...doc })); return; }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const self: NpmRegistry = {
    url,
    seen,
    down: false,
    publish(name, version, pkg, tag = 'latest') {
      const manifest = { name, version, ...pkg.manifest };
      const tarball = makeTarball({ 'package.json': JSON.stringify(manifest), ...pkg.files });
      const tarPath = `/${name}/-/${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;
      blobs.set(tarPath, { body: tarball, type: 'application/octet-stream' });
      const integrity = `sha512-${createHash('sha512').update(pkg.badIntegrity ? Buffer.from('not this') : tarball).digest('base64')}`;
      const doc = packuments.get(name) ?? { 'dist-tags': {}, versions: {} };
      doc.versions[version] = { ...manifest, dist: { tarball: `${url}${tarPath}`, integrity } };
      doc['dist-tags'][tag] = version;
      packuments.set(name, doc);
    },
    redirect(path, to) {
      redirects.set(path, to);
    },
    file(path, body, contentType = 'application/javascript') {
      blobs.set(path, { body: Buffer.from(body), type: contentType });
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  return self;
}
