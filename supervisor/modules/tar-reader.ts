// Reads the files of a gzipped ustar archive (an npm tarball): regular files only, with pax
// (`x`) and GNU (`L`) long names; links, devices and directories are skipped. Paths are checked:
// absolute paths and `..` segments fail the archive. Limits bound the unpacked size and file count.
import { gunzipSync } from 'node:zlib';

export interface TarLimits {
  readonly maxBytes: number;
  readonly maxFiles: number;
}

export class TarError extends Error {
  override readonly name = 'TarError';
}

function field(block: Uint8Array, start: number, length: number): string {
  const bytes = block.subarray(start, start + length);
  const nul = bytes.indexOf(0);
  return Buffer.from(nul === -1 ? bytes : bytes.subarray(0, nul)).toString('utf8');
}

function octal(block: Uint8Array, start: number, length: number): number {
  const text = field(block, start, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarError(`malformed tar header (size field '${text}')`);
  return parseInt(text, 8);
}

function paxPath(data: Uint8Array): string | undefined {
  let text = Buffer.from(data).toString('utf8');
  let path: string | undefined;
  while (text.length > 0) {
    const space = text.indexOf(' ');
    const len = Number(text.slice(0, space));
    if (space <= 0 || !Number.isInteger(len) || len <= 0) break;
    const record = text.slice(space + 1, len - 1);
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    text = text.slice(len);
  }
  return path;
}

/** Gunzips and reads `gz`: path → contents, for regular files. Throws TarError. */
export function readTarGz(gz: Uint8Array, limits: TarLimits): Map<string, Uint8Array> {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz, { maxOutputLength: limits.maxBytes + 1024 * 1024 });
  } catch (e) {
    throw new TarError(`cannot gunzip the tarball: ${e instanceof Error ? e.message : String(e)}`);
  }
  const files = new Map<string, Uint8Array>();
  let total = 0;
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] ?? 0);
    const dataStart = offset + 512;
    if (dataStart + size > tar.length) throw new TarError('truncated tar archive');
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'x') { longName = paxPath(data) ?? longName; continue; }
    if (type === 'L') { longName = field(data, 0, data.length); continue; }
    if (type === 'g') continue;
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix === '' ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`);
    longName = undefined;
    if (type !== '0' && type !== '\0' && type !== '7') continue;
    const parts = name.split('/').filter((p) => p !== '' && p !== '.');
    if (name.startsWith('/') || parts.includes('..')) throw new TarError(`tar entry '${name}' escapes the package`);
    total += size;
    if (total > limits.maxBytes) throw new TarError(`the package unpacks to more than ${limits.maxBytes} bytes`);
    if (files.size >= limits.maxFiles) throw new TarError(`the package has more than ${limits.maxFiles} files`);
    files.set(parts.join('/'), new Uint8Array(data));
  }
  return files;
}
