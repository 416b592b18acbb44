// The `crypto` global: getRandomValues and randomUUID here (random bytes from the host's CSPRNG,
// never pooled in the guest, so two realms forked from one heap image never share randomness);
// `crypto.subtle` loads the webcrypto part on first use.
import { DOMException, QuotaExceededError } from './dom-exception.js';
import { op } from './host.js';
import { nodeError } from './errors.js';
import { requirePart } from './parts.js';

const CREATE = Symbol('create');
const INTEGER_ARRAYS = ['[object Int8Array]', '[object Uint8Array]', '[object Uint8ClampedArray]', '[object Int16Array]',
  '[object Uint16Array]', '[object Int32Array]', '[object Uint32Array]', '[object BigInt64Array]', '[object BigUint64Array]'];

export function randomBytes(n) {
  return n === 0 ? new Uint8Array(0) : op('crypto.random', n);
}

export function getRandomValues(view) {
  if (!ArrayBuffer.isView(view) || !INTEGER_ARRAYS.includes(Object.prototype.toString.call(view))) {
    throw new DOMException("The data argument must be an integer-type TypedArray", 'TypeMismatchError');
  }
  if (view.byteLength > 65536) {
    throw new QuotaExceededError(`The ArrayBufferView's byte length (${view.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`);
  }
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(randomBytes(view.byteLength));
  return view;
}

let HEX;

export function randomUUID() {
  if (HEX === undefined) {
    HEX = [];
    for (let i = 0; i < 256; i++) HEX.push((i + 0x100).toString(16).slice(1));
  }
  const b = randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return `${HEX[b[0]]}${HEX[b[1]]}${HEX[b[2]]}${HEX[b[3]]}-${HEX[b[4]]}${HEX[b[5]]}-${HEX[b[6]]}${HEX[b[7]]}-${HEX[b[8]]}${HEX[b[9]]}-${HEX[b[10]]}${HEX[b[11]]}${HEX[b[12]]}${HEX[b[13]]}${HEX[b[14]]}${HEX[b[15]]}`;
}

/** Node's error for a Crypto member called on anything but the `crypto` object. */
const invalidThis = () => nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type Crypto');

export class Crypto {
  constructor(token) {
    if (token !== CREATE) throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }
  get subtle() {
    if (this !== crypto) throw invalidThis();
    return requirePart('webcrypto').subtle;
  }
  getRandomValues(view) {
    if (this !== crypto) throw invalidThis();
    if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.");
    return getRandomValues(view);
  }
  randomUUID() {
    if (this !== crypto) throw invalidThis();
    return randomUUID();
  }
}
Object.defineProperty(Crypto.prototype, Symbol.toStringTag, { value: 'Crypto', configurable: true });

export const crypto = new Crypto(CREATE);
