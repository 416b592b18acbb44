// crypto.subtle (Web Cryptography): every method runs on the host through Node's WebCrypto
// (op crypto.subtle). A CryptoKey keeps its material inside the platform (raw bytes for secret
// keys, JWK for key pairs), unreachable from scripts; the host imports it again per operation.
import core from 'runjs:part/core';

const { opAsync, bytesToBase64, base64ToBytes } = core.shared;
const { DOMException } = core.globals;

const keys = new WeakMap(); // CryptoKey → { material, extractable }
const CREATE = Symbol('create');

export class CryptoKey {
  constructor(token, material, extractable) {
    if (token !== CREATE) throw new TypeError('Illegal constructor');
    keys.set(this, { material, extractable, algorithm: fromJson(material.algorithm), usages: material.usages.slice() });
  }
  get type() { return k(this).material.type; }
  get extractable() { return k(this).extractable; }
  get algorithm() { return k(this).algorithm; }
  get usages() { return k(this).usages; }
}
Object.defineProperty(CryptoKey.prototype, Symbol.toStringTag, { value: 'CryptoKey', configurable: true });

// As Node's deep equality: two CryptoKeys are equal when their type, extractability, algorithm,
// usages and key material are.
core.host.deepEqualHooks.push((a, b) => {
  const x = keys.get(a);
  if (x === undefined) return undefined;
  const y = keys.get(b);
  return y !== undefined && x.extractable === y.extractable && JSON.stringify(x.material) === JSON.stringify(y.material);
});

function k(key) {
  const s = keys.get(key);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

// A brand check: the platform's captured SharedArrayBuffer is not the script's on every engine.
const isShared = (buffer) => Object.prototype.toString.call(buffer) === '[object SharedArrayBuffer]';

/** A BufferSource (not [AllowShared]: a view over a SharedArrayBuffer is a TypeError too). */
function bufferSource(v, name) {
  if (ArrayBuffer.isView(v) && !isShared(v.buffer)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  throw new TypeError(`Failed to execute '${name}' on 'SubtleCrypto': The provided value is not of type '(ArrayBuffer or ArrayBufferView)'.`);
}

/** Algorithm parameters → JSON for the op: bytes → {__bytes}, CryptoKey → {__key}. */
function toJson(v) {
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return { __bytes: bytesToBase64(bufferSource(v, 'algorithm')) };
  if (v instanceof CryptoKey) return { __key: k(v).material };
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object' && v !== null) {
    const out = {};
    for (const key of Object.keys(v)) out[key] = toJson(v[key]);
    return out;
  }
  return v;
}

function fromJson(v) {
  if (Array.isArray(v)) return v.map(fromJson);
  if (typeof v === 'object' && v !== null) {
    if (typeof v.__bytes === 'string') return base64ToBytes(v.__bytes);
    const out = {};
    for (const key of Object.keys(v)) out[key] = fromJson(v[key]);
    return out;
  }
  return v;
}

// An AlgorithmIdentifier (WebCrypto § 18.4): a non-object is a name; an object needs a name
// (a TypeError without one); an unknown name is the host's NotSupportedError.
function normalize(algorithm) {
  if ((typeof algorithm !== 'object' && typeof algorithm !== 'function') || algorithm === null) return { name: String(algorithm) };
  if (algorithm.name === undefined) {
    throw new TypeError("Failed to normalize algorithm: passed algorithm cannot be converted to 'Algorithm' because 'name' is required in 'Algorithm'.");
  }
  return algorithm;
}

/** The digest algorithms of Node 24's crypto.subtle (the host), lower-cased. */
const DIGEST_NAMES = new Set(['sha-1', 'sha-256', 'sha-384', 'sha-512', 'sha3-256', 'sha3-384', 'sha3-512', 'cshake128', 'cshake256', 'turboshake128', 'turboshake256']);

async function call(args, bytes = undefined) {
  try {
    return await opAsync('crypto.subtle', args, bytes);
  } catch (e) {
    throw new DOMException(e.message, e.name === 'Error' || e.name === 'TypeError' ? 'OperationError' : e.name);
  }
}

function toArrayBuffer(bytes) {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

function makeKey(material, extractable) {
  return new CryptoKey(CREATE, material, extractable);
}

function wrapKeys(result, extractable) {
  if (result.publicKey !== undefined) {
    return { publicKey: makeKey(result.publicKey, true), privateKey: makeKey(result.privateKey, extractable) };
  }
  return makeKey(result, extractable);
}

function checkKey(key, method) {
  if (!(key instanceof CryptoKey)) throw new TypeError(`Failed to execute '${method}' on 'SubtleCrypto': parameter is not of type 'CryptoKey'.`);
}

export class SubtleCrypto {
  // Operations called on anything but the platform's SubtleCrypto reject (WebIDL's brand check).
  #brand = true;
  static #check(self) {
    if (self === null || typeof self !== 'object' || !(#brand in self)) throw new TypeError('Illegal invocation');
  }
  constructor(token) {
    if (token !== CREATE) throw new TypeError('Illegal constructor');
  }
  async digest(algorithm, data) {
    SubtleCrypto.#check(this);
    const normalized = normalize(algorithm);
    // WebCrypto normalizes the algorithm before digest() returns its promise: a name digest does
    // not know rejects before any later microtask runs (WPT digest checks), not after the host.
    if (!DIGEST_NAMES.has(String(normalized.name).toLowerCase())) throw new DOMException('Unrecognized algorithm name', 'NotSupportedError');
    const bytes = await call({ method: 'digest', algorithm: toJson(normalized) }, bufferSource(data, 'digest'));
    return toArrayBuffer(bytes);
  }
  async importKey(format, keyData, algorithm, extractable, usages) {
    SubtleCrypto.#check(this);
    const args = { method: 'importKey', format, algorithm: toJson(normalize(algorithm)), usages: [...usages] };
    let material;
    if (format === 'jwk') material = await call({ ...args, jwk: keyData });
    else material = await call(args, bufferSource(keyData, 'importKey'));
    return makeKey(material, !!extractable);
  }
  async exportKey(format, key) {
    SubtleCrypto.#check(this);
    checkKey(key, 'exportKey');
    if (!k(key).extractable) throw new DOMException('key is not extractable', 'InvalidAccessError');
    const result = await call({ method: 'exportKey', format, key: k(key).material });
    if (format === 'jwk') return { ...result, key_ops: [...k(key).usages], ext: true };
    return toArrayBuffer(result);
  }
  async generateKey(algorithm, extractable, usages) {
    SubtleCrypto.#check(this);
    const result = await call({ method: 'generateKey', algorithm: toJson(normalize(algorithm)), usages: [...usages] });
    return wrapKeys(result, !!extractable);
  }
  async sign(algorithm, key, data) {
    SubtleCrypto.#check(this);
    checkKey(key, 'sign');
    return toArrayBuffer(await call({ method: 'sign', algorithm: toJson(normalize(algorithm)), key: k(key).material }, bufferSource(data, 'sign')));
  }
  async verify(algorithm, key, signature, data) {
    SubtleCrypto.#check(this);
    checkKey(key, 'verify');
    return call({ method: 'verify', algorithm: toJson(normalize(algorithm)), key: k(key).material, signature: bytesToBase64(bufferSource(signature, 'verify')) }, bufferSource(data, 'verify'));
  }
  async encrypt(algorithm, key, data) {
    SubtleCrypto.#check(this);
    checkKey(key, 'encrypt');
    return toArrayBuffer(await call({ method: 'encrypt', algorithm: toJson(normalize(algorithm)), key: k(key).material }, bufferSource(data, 'encrypt')));
  }
  async decrypt(algorithm, key, data) {
    SubtleCrypto.#check(this);
    checkKey(key, 'decrypt');
    return toArrayBuffer(await call({ method: 'decrypt', algorithm: toJson(normalize(algorithm)), key: k(key).material }, bufferSource(data, 'decrypt')));
  }
  async deriveBits(algorithm, baseKey, length = null) {
    SubtleCrypto.#check(this);
    checkKey(baseKey, 'deriveBits');
    return toArrayBuffer(await call({ method: 'deriveBits', algorithm: toJson(normalize(algorithm)), key: k(baseKey).material, length }));
  }
  async deriveKey(algorithm, baseKey, derivedKeyType, extractable, usages) {
    SubtleCrypto.#check(this);
    const type = normalize(derivedKeyType);
    let length = type.length;
    if (length === undefined) {
      const hashName = typeof type.hash === 'string' ? type.hash : type.hash?.name;
      length = type.name === 'HMAC' ? ({ 'SHA-1': 512, 'SHA-256': 512, 'SHA-384': 1024, 'SHA-512': 1024 })[hashName] ?? 512 : 256;
    }
    checkKey(baseKey, 'deriveKey');
    if (!k(baseKey).usages.includes('deriveKey')) throw new DOMException('baseKey does not have deriveKey usage', 'InvalidAccessError');
    // deriveKey is deriveBits then importKey; the host checks usages, so ask it for the bits.
    const material = { ...k(baseKey).material, usages: ['deriveBits'] };
    const bits = toArrayBuffer(await call({ method: 'deriveBits', algorithm: toJson(normalize(algorithm)), key: material, length }));
    return this.importKey('raw', bits, derivedKeyType, extractable, usages);
  }
  async wrapKey(format, key, wrappingKey, wrapAlgorithm) {
    SubtleCrypto.#check(this);
    checkKey(key, 'wrapKey');
    checkKey(wrappingKey, 'wrapKey');
    if (!k(key).extractable) throw new DOMException('key is not extractable', 'InvalidAccessError');
    return toArrayBuffer(await call({ method: 'wrapKey', format, key: k(key).material, wrappingKey: k(wrappingKey).material, algorithm: toJson(normalize(wrapAlgorithm)) }));
  }
  async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, usages) {
    SubtleCrypto.#check(this);
    checkKey(unwrappingKey, 'unwrapKey');
    const material = await call({
      method: 'unwrapKey', format, unwrappingKey: k(unwrappingKey).material, algorithm: toJson(normalize(unwrapAlgorithm)),
      keyAlgorithm: toJson(normalize(unwrappedKeyAlgorithm)), usages: [...usages],
    }, bufferSource(wrappedKey, 'unwrapKey'));
    return makeKey(material, !!extractable);
  }
}
Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });

export const subtle = new SubtleCrypto(CREATE);
export const modules = {};
export const globals = { SubtleCrypto, CryptoKey };
