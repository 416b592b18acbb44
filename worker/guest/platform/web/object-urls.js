// URL.createObjectURL / revokeObjectURL and node:buffer's resolveObjectURL, as Node has them:
// `blob:nodedata:<uuid>` URLs naming Blobs registered in this realm (a run's realm), until
// revoked. No fetch() reads them (fetch is absent); resolveObjectURL gives the Blob back.
import { invalidArgType, nodeError } from './errors.js';
import { randomUUID } from './crypto.js';
import { requirePart } from './parts.js';

const registry = new Map(); // uuid → Blob

function blobClass() {
  return requirePart('fetch').globals.Blob;
}

export function createObjectURL(obj) {
  if (!(obj instanceof blobClass())) throw invalidArgType('obj', 'an instance of Blob', obj);
  const id = randomUUID();
  registry.set(id, obj);
  return `blob:nodedata:${id}`;
}

/** The uuid of a `blob:nodedata:<uuid>` URL, or undefined. */
function idOf(url) {
  const s = String(url);
  if (!s.startsWith('blob:nodedata:')) return undefined;
  const rest = s.slice('blob:nodedata:'.length);
  let end = rest.length;
  for (const c of ['?', '#']) { const i = rest.indexOf(c); if (i !== -1 && i < end) end = i; }
  return rest.slice(0, end);
}

export function revokeObjectURL(url) {
  if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "url" argument must be specified');
  const id = idOf(url);
  if (id !== undefined) registry.delete(id);
}

/** node:buffer's resolveObjectURL: a Blob with the registered one's contents and type, or undefined. */
export function resolveObjectURL(url) {
  const id = idOf(url);
  const blob = id === undefined ? undefined : registry.get(id);
  return blob === undefined ? undefined : blob.slice(0, blob.size, blob.type);
}
