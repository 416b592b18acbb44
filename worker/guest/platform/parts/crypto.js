// node:crypto: hashes, HMACs, random values and key derivation on the host (ops crypto.*), with
// Node's API shapes: Hash/Hmac objects hold a host-side hash and stream their input to it.
import core from 'runjs:part/core';
import bufferPart from 'runjs:part/buffer';

const { op, opAsync, nodeError, invalidArgType, outOfRange, randomBytes: hostRandom, randomUUID, getRandomValues } = core.shared;
const { Buffer } = bufferPart.globals;

function toBytes(data, encoding, name = 'data') {
  if (typeof data === 'string') return Buffer.from(data, encoding ?? 'utf8');
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw invalidArgType(name, 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

function concat(chunks) {
  if (chunks.length === 1) return chunks[0];
  let n = 0;
  for (let i = 0; i < chunks.length; i++) n += chunks[i].length;
  const out = new Uint8Array(n);
  let o = 0;
  for (let i = 0; i < chunks.length; i++) { out.set(chunks[i], o); o += chunks[i].length; }
  return out;
}

function encode(bytes, encoding) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return encoding === undefined || encoding === 'buffer' ? buf : buf.toString(encoding);
}

/** Input is sent to the host hash in batches of about this many bytes (one op per batch). */
const BATCH_BYTES = 64 * 1024;

/**
 * The guest side of a host hash handle (ops crypto.hash*, worker/ops/crypto/hash-handles.ts):
 * small updates are batched here, big ones go straight through, so memory stays bounded.
 */
class HashState {
  id;
  #pending = [];
  #pendingBytes = 0;
  constructor(id) {
    this.id = id;
  }
  update(bytes) {
    if (bytes.length >= BATCH_BYTES) {
      this.flush();
      op('crypto.hashUpdate', { id: this.id }, bytes);
      return;
    }
    this.#pending.push(bytes.slice());
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes >= BATCH_BYTES) this.flush();
  }
  flush() {
    if (this.#pendingBytes === 0 && this.#pending.length === 0) return;
    const all = concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    op('crypto.hashUpdate', { id: this.id }, all);
  }
  digest() {
    const rest = concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    return op('crypto.hashDigest', { id: this.id }, rest);
  }
}

class Hash {
  #state;
  #done = false;
  constructor(algorithm, options = undefined) {
    if (typeof algorithm !== 'string') throw invalidArgType('algorithm', 'of type string', algorithm);
    // Opening validates the algorithm now, as Node does.
    this.#state = new HashState(options instanceof HashState
      ? options.id
      : op('crypto.hashOpen', { algorithm, outputLength: options?.outputLength }, new Uint8Array(0)));
  }
  update(data, encoding = undefined) {
    if (this.#done) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this.#state.update(toBytes(data, encoding));
    return this;
  }
  digest(encoding = undefined) {
    if (this.#done) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this.#done = true;
    return encode(this.#state.digest(), encoding);
  }
  copy(options = undefined) {
    if (this.#done) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this.#state.flush();
    const id = op('crypto.hashCopy', { id: this.#state.id, outputLength: options?.outputLength }, new Uint8Array(0));
    return new Hash('copy', new HashState(id));
  }
}

class Hmac {
  #state;
  #done = false;
  constructor(algorithm, key) {
    if (typeof algorithm !== 'string') throw invalidArgType('hmac', 'of type string', algorithm);
    // Node's wording for a key of the wrong type (it also takes KeyObjects and CryptoKeys).
    if (!(key instanceof KeyObject) && typeof key !== 'string' && !ArrayBuffer.isView(key) && !(key instanceof ArrayBuffer)) {
      throw invalidArgType('key', 'of type string or an instance of ArrayBuffer, Buffer, TypedArray, DataView, KeyObject, or CryptoKey', key);
    }
    const bytes = key instanceof KeyObject ? key.export() : toBytes(key, undefined, 'key');
    this.#state = new HashState(op('crypto.hashOpen', { algorithm, hmac: true }, bytes));
  }
  update(data, encoding = undefined) {
    if (this.#done) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this.#state.update(toBytes(data, encoding));
    return this;
  }
  digest(encoding = undefined) {
    if (this.#done) return encode(new Uint8Array(0), encoding);
    this.#done = true;
    return encode(this.#state.digest(), encoding);
  }
}

/** Secret keys only (createSecretKey); asymmetric keys are available through webcrypto. */
class KeyObject {
  #bytes;
  constructor(bytes) {
    this.#bytes = bytes;
  }
  get type() { return 'secret'; }
  get symmetricKeySize() { return this.#bytes.length; }
  export(options = undefined) {
    if (options?.format === 'jwk') return { kty: 'oct', k: Buffer.from(this.#bytes).toString('base64url') };
    return Buffer.from(this.#bytes);
  }
  equals(other) {
    return other instanceof KeyObject && timingSafeEqual(this.#bytes, other.export());
  }
}

/** What createSecretKey makes, named as Node's (`util.inspect` shows `SecretKeyObject {}`). */
class SecretKeyObject extends KeyObject {}

function randomBytes(size, callback = undefined) {
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 2 ** 31 - 1) {
    throw outOfRange('size', `>= 0 && <= ${2 ** 31 - 1}`, size);
  }
  const out = Buffer.alloc(size);
  fill(out);
  if (typeof callback === 'function') {
    queueMicrotask(() => callback(null, out));
    return undefined;
  }
  return out;
}

function fill(view, offset = 0, size = undefined) {
  const bytes = new Uint8Array(view.buffer ?? view, view.byteOffset ?? 0, view.byteLength);
  const end = size === undefined ? bytes.length : offset + size;
  for (let at = offset; at < end; at += 1 << 20) bytes.set(hostRandom(Math.min(1 << 20, end - at)), at);
  return view;
}

function randomInt(min, max = undefined, callback = undefined) {
  if (typeof max === 'function' || max === undefined) {
    callback = max;
    max = min;
    min = 0;
  }
  if (!Number.isSafeInteger(min)) throw invalidArgType('min', 'a safe integer', min);
  if (!Number.isSafeInteger(max)) throw invalidArgType('max', 'a safe integer', max);
  if (max <= min) throw outOfRange('max', `greater than the value of "min" (${min})`, max);
  const range = max - min;
  if (range > 2 ** 48) throw outOfRange('max - min', `<= ${2 ** 48}`, range);
  // Rejection sampling over 48 random bits, as Node does.
  const limit = 2 ** 48 - (2 ** 48 % range);
  let x;
  do {
    const b = hostRandom(6);
    x = b[0] * 2 ** 40 + b[1] * 2 ** 32 + b[2] * 2 ** 24 + b[3] * 2 ** 16 + b[4] * 2 ** 8 + b[5];
  } while (x >= limit);
  const n = min + (x % range);
  if (typeof callback === 'function') {
    queueMicrotask(() => callback(null, n));
    return undefined;
  }
  return n;
}

function timingSafeEqual(a, b) {
  const x = toBytes(a, undefined, 'buf1');
  const y = toBytes(b, undefined, 'buf2');
  if (x.length !== y.length) throw nodeError(RangeError, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

function keyAndSalt(password, salt) {
  const p = password instanceof KeyObject ? password.export() : toBytes(password, undefined, 'password');
  const s = toBytes(salt, undefined, 'salt');
  return [p, concat([p, s])];
}

function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  const [p, bytes] = keyAndSalt(password, salt);
  return encode(op('crypto.pbkdf2', { passwordLength: p.length, iterations, keylen, digest }, bytes));
}

function pbkdf2(password, salt, iterations, keylen, digest, callback) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  const [p, bytes] = keyAndSalt(password, salt);
  opAsync('crypto.pbkdf2Async', { passwordLength: p.length, iterations, keylen, digest }, bytes).then((k) => callback(null, encode(k)), (e) => callback(e));
}

function scryptSync(password, salt, keylen, options = undefined) {
  const [p, bytes] = keyAndSalt(password, salt);
  return encode(op('crypto.scryptSync', { passwordLength: p.length, keylen, options: options ?? {} }, bytes));
}

function scrypt(password, salt, keylen, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'function' ? {} : options ?? {};
  if (typeof cb !== 'function') throw invalidArgType('callback', 'of type function', cb);
  const [p, bytes] = keyAndSalt(password, salt);
  opAsync('crypto.scrypt', { passwordLength: p.length, keylen, options: opts }, bytes).then((k) => cb(null, encode(k)), (e) => cb(e));
}

function hkdfSync(digest, ikm, salt, info, keylen) {
  const k = ikm instanceof KeyObject ? ikm.export() : toBytes(ikm, undefined, 'ikm');
  const s = toBytes(salt, undefined, 'salt');
  const i = toBytes(info, undefined, 'info');
  const out = op('crypto.hkdf', { digest, keyLength: k.length, saltLength: s.length, keylen }, concat([k, s, i]));
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
}

function hkdf(digest, ikm, salt, info, keylen, callback) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  let result;
  let error = null;
  try {
    result = hkdfSync(digest, ikm, salt, info, keylen);
  } catch (e) {
    error = e;
  }
  queueMicrotask(() => (error ? callback(error) : callback(null, result)));
}

let hashesCache;
const webcrypto = core.globals.crypto;

const crypto = {
  createHash: (algorithm, options = undefined) => new Hash(algorithm, options),
  createHmac: (algorithm, key, options = undefined) => { void options; return new Hmac(algorithm, key); },
  hash(algorithm, data, outputEncoding = 'hex') {
    return encode(op('crypto.hash', { algorithm }, toBytes(data)), outputEncoding);
  },
  getHashes() {
    hashesCache ??= op('crypto.hashes');
    return hashesCache.slice();
  },
  createSecretKey: (key, encoding = undefined) => new SecretKeyObject(toBytes(key, encoding, 'key').slice()),
  randomBytes,
  pseudoRandomBytes: randomBytes,
  randomFillSync: (buf, offset = 0, size = undefined) => fill(buf, offset, size),
  randomFill(buf, offset, size, callback) {
    const cb = [offset, size, callback].find((x) => typeof x === 'function');
    const o = typeof offset === 'number' ? offset : 0;
    const s = typeof size === 'number' ? size : undefined;
    fill(buf, o, s);
    queueMicrotask(() => cb(null, buf));
  },
  randomUUID: () => randomUUID(),
  randomInt,
  getRandomValues: (view) => getRandomValues(view),
  timingSafeEqual,
  pbkdf2,
  pbkdf2Sync,
  scrypt,
  scryptSync,
  hkdf,
  hkdfSync,
  webcrypto,
  get subtle() { return webcrypto.subtle; },
  Hash,
  Hmac,
  KeyObject,
  constants: {},
};

// As Node's deep equality: two KeyObjects are equal when equals() says so.
core.host.deepEqualHooks.push((a, b) => (a instanceof KeyObject ? b instanceof KeyObject && a.equals(b) : undefined));

export const modules = { crypto };
export const globals = {};
