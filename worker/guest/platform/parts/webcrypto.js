// crypto.subtle (Web Cryptography): every method runs on the host through Node's WebCrypto
// (op crypto.subtle). A CryptoKey keeps its material inside the platform (raw bytes for secret
// keys, JWK for key pairs), unreachable from scripts; the host imports it again per operation.
import core from 'runjs:part/core';

const { opAsync, bytesToBase64, base64ToBytes, nodeError } = core.shared;
const { DOMException } = core.globals;

const keys = new WeakMap(); // CryptoKey → { material, extractable }
const CREATE = Symbol('create');

export class CryptoKey {
  constructor(token, material, extractable) {
    if (token !== CREATE) throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
    keys.set(this, { material, extractable, algorithm: fromJson(material.algorithm), usages: material.usages.slice() });
  }
  get type() { return k(this).material.type; }
  get extractable() { return k(this).extractable; }
  get algorithm() { return k(this).algorithm; }
  get usages() { return k(this).usages; }
  // util.inspect shows a key's four attributes under its class name, as Node does.
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const opts = { ...options, depth: options.depth == null ? null : options.depth - 1 };
    return `CryptoKey ${inspect({ type: this.type, extractable: this.extractable, algorithm: this.algorithm, usages: this.usages }, opts)}`;
  }
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

/**
 * A BufferSource (not [AllowShared]: a view over a SharedArrayBuffer is a TypeError too), with
 * Node's ERR_INVALID_ARG_TYPE texts naming the argument by position (`ordinal`).
 */
function bufferSource(v, name, ordinal = '2nd') {
  if (ArrayBuffer.isView(v)) {
    if (!isShared(v.buffer)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Failed to execute '${name}' on 'SubtleCrypto': ${ordinal} argument is a view on a SharedArrayBuffer, which is not allowed.`);
  }
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Failed to execute '${name}' on 'SubtleCrypto': ${ordinal} argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.`);
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
    throw nodeError(TypeError, 'ERR_MISSING_OPTION', "Failed to normalize algorithm: passed algorithm cannot be converted to 'Algorithm' because 'name' is required in 'Algorithm'.");
  }
  return algorithm;
}

/** The digest algorithms of Node 24's crypto.subtle (the host), lower-cased. */
const DIGEST_NAMES = new Set(['sha-1', 'sha-256', 'sha-384', 'sha-512', 'sha3-256', 'sha3-384', 'sha3-512', 'cshake128', 'cshake256', 'turboshake128', 'turboshake256']);

/**
 * The host's answer. Its TypeErrors are WebIDL conversions of the script's own arguments (an
 * [EnforceRange] length past 2^32, a required member missing): Node throws them as they are,
 * with their `code` (WPT generateKey failures want TypeError there); a plain Error is an
 * OperationError, and a DOMException keeps its name.
 */
async function call(args, bytes = undefined) {
  try {
    return await opAsync('crypto.subtle', args, bytes);
  } catch (e) {
    if (e.name === 'TypeError') throw typeof e.code === 'string' ? nodeError(TypeError, e.code, e.message) : new TypeError(e.message);
    throw new DOMException(e.message, e.name === 'Error' ? 'OperationError' : e.name);
  }
}

/**
 * exportKey and wrapKey ask whether the key's algorithm can be exported at all (NotSupportedError)
 * before whether this key may be (InvalidAccessError): HKDF and PBKDF2 keys are never extractable,
 * so the order shows (WebCrypto exportKey steps 6–7, wrapKey steps 11–12; Node's texts).
 */
function checkExportable(key) {
  const { name } = k(key).algorithm;
  if (name === 'HKDF' || name === 'PBKDF2') throw new DOMException(`${name} key export is not supported`, 'NotSupportedError');
  if (!k(key).extractable) throw new DOMException('key is not extractable', 'InvalidAccessError');
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

const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th', '6th', '7th'];

/** WebIDL's argument count check, with Node's ERR_MISSING_ARGS text (the method's promise rejects). */
function arity(method, given, required) {
  if (given < required) throw nodeError(TypeError, 'ERR_MISSING_ARGS', `Failed to execute '${method}' on 'SubtleCrypto': ${required} arguments required, but only ${given} present.`);
}

/** A sequence<KeyUsage> argument: an iterable object (a string is not one), copied. */
function usagesOf(usages, method, position) {
  if (typeof usages !== 'object' || usages === null || typeof usages[Symbol.iterator] !== 'function') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Failed to execute '${method}' on 'SubtleCrypto': ${ORDINALS[position - 1]} argument cannot be converted to sequence.`);
  }
  return [...usages];
}

const missing = (dictionary, member) => nodeError(TypeError, 'ERR_MISSING_OPTION', `Failed to normalize algorithm: passed algorithm cannot be converted to '${dictionary}' because '${member}' is required in '${dictionary}'.`);

/**
 * WebCrypto's "get key length" of deriveKey's derivedKeyType, with Node's errors: an AES key
 * needs a length of 128, 192 or 256; HMAC defaults to its hash's block size; HKDF and PBKDF2 have
 * none (null: deriving them from PBKDF2 or HKDF is an OperationError, from ECDH all the bits).
 */
function derivedKeyLength(type) {
  const name = String(type.name).toUpperCase();
  if (name.startsWith('AES-')) {
    if (type.length === undefined) throw missing('AesDerivedKeyParams', 'length');
    if (type.length !== 128 && type.length !== 192 && type.length !== 256) throw new DOMException('AES key length must be 128, 192, or 256 bits', 'OperationError');
    return type.length;
  }
  if (name === 'HKDF' || name === 'PBKDF2') return null;
  if (name !== 'HMAC' && name !== 'CHACHA20-POLY1305' && name !== 'KMAC128' && name !== 'KMAC256') throw new DOMException('Unrecognized algorithm name', 'NotSupportedError');
  if (name === 'HMAC') {
    if (type.hash === undefined) throw missing('HmacImportParams', 'hash');
    if (type.length !== undefined) return type.length;
    const hashName = String(typeof type.hash === 'object' && type.hash !== null ? type.hash.name : type.hash).toUpperCase();
    return hashName === 'SHA-384' || hashName === 'SHA-512' ? 1024 : 512;
  }
  return type.length ?? 256;
}

export class SubtleCrypto {
  // Operations called on anything but the platform's SubtleCrypto reject (WebIDL's brand check).
  #brand = true;
  static #check(self) {
    if (self === null || typeof self !== 'object' || !(#brand in self)) throw new TypeError('Illegal invocation');
  }
  constructor(token) {
    if (token !== CREATE) throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }
  async digest(algorithm, data) {
    SubtleCrypto.#check(this);
    arity('digest', arguments.length, 2);
    const normalized = normalize(algorithm);
    // WebCrypto normalizes the algorithm before digest() returns its promise: a name digest does
    // not know rejects before any later microtask runs (WPT digest checks), not after the host.
    if (!DIGEST_NAMES.has(String(normalized.name).toLowerCase())) throw new DOMException('Unrecognized algorithm name', 'NotSupportedError');
    const bytes = await call({ method: 'digest', algorithm: toJson(normalized) }, bufferSource(data, 'digest'));
    return toArrayBuffer(bytes);
  }
  async importKey(format, keyData, algorithm, extractable, usages) {
    SubtleCrypto.#check(this);
    arity('importKey', arguments.length, 5);
    const normalized = normalize(algorithm);
    // Key-derivation keys are never extractable; Node says so before it looks at format or usages.
    const upper = String(normalized.name).toUpperCase();
    if ((upper === 'HKDF' || upper === 'PBKDF2') && extractable) throw new DOMException(`${upper} keys are not extractable`, 'SyntaxError');
    const args = { method: 'importKey', format, algorithm: toJson(normalized), usages: usagesOf(usages, 'importKey', 5) };
    let material;
    if (format === 'jwk') material = await call({ ...args, jwk: keyData });
    else material = await call(args, bufferSource(keyData, 'importKey'));
    return makeKey(material, !!extractable);
  }
  async exportKey(format, key) {
    SubtleCrypto.#check(this);
    arity('exportKey', arguments.length, 2);
    checkKey(key, 'exportKey');
    checkExportable(key);
    const result = await call({ method: 'exportKey', format, key: k(key).material });
    if (format === 'jwk') return { ...result, key_ops: [...k(key).usages], ext: true };
    return toArrayBuffer(result);
  }
  async generateKey(algorithm, extractable, usages) {
    SubtleCrypto.#check(this);
    arity('generateKey', arguments.length, 3);
    const result = await call({ method: 'generateKey', algorithm: toJson(normalize(algorithm)), usages: usagesOf(usages, 'generateKey', 3) });
    return wrapKeys(result, !!extractable);
  }
  async sign(algorithm, key, data) {
    SubtleCrypto.#check(this);
    arity('sign', arguments.length, 3);
    checkKey(key, 'sign');
    return toArrayBuffer(await call({ method: 'sign', algorithm: toJson(normalize(algorithm)), key: k(key).material }, bufferSource(data, 'sign', '3rd')));
  }
  async verify(algorithm, key, signature, data) {
    SubtleCrypto.#check(this);
    arity('verify', arguments.length, 4);
    checkKey(key, 'verify');
    return call({ method: 'verify', algorithm: toJson(normalize(algorithm)), key: k(key).material, signature: bytesToBase64(bufferSource(signature, 'verify', '3rd')) }, bufferSource(data, 'verify', '4th'));
  }
  async encrypt(algorithm, key, data) {
    SubtleCrypto.#check(this);
    arity('encrypt', arguments.length, 3);
    checkKey(key, 'encrypt');
    return toArrayBuffer(await call({ method: 'encrypt', algorithm: toJson(normalize(algorithm)), key: k(key).material }, bufferSource(data, 'encrypt', '3rd')));
  }
  async decrypt(algorithm, key, data) {
    SubtleCrypto.#check(this);
    arity('decrypt', arguments.length, 3);
    checkKey(key, 'decrypt');
    return toArrayBuffer(await call({ method: 'decrypt', algorithm: toJson(normalize(algorithm)), key: k(key).material }, bufferSource(data, 'decrypt', '3rd')));
  }
  async deriveBits(algorithm, baseKey, length = null) {
    SubtleCrypto.#check(this);
    arity('deriveBits', arguments.length, 2);
    checkKey(baseKey, 'deriveBits');
    return toArrayBuffer(await call({ method: 'deriveBits', algorithm: toJson(normalize(algorithm)), key: k(baseKey).material, length }));
  }
  async deriveKey(algorithm, baseKey, derivedKeyType, extractable, usages) {
    SubtleCrypto.#check(this);
    arity('deriveKey', arguments.length, 5);
    checkKey(baseKey, 'deriveKey');
    const keyUsages = usagesOf(usages, 'deriveKey', 5);
    const length = derivedKeyLength(normalize(derivedKeyType));
    if (!k(baseKey).usages.includes('deriveKey')) throw new DOMException('baseKey does not have deriveKey usage', 'InvalidAccessError');
    // deriveKey is deriveBits then importKey; the host checks usages, so ask it for the bits.
    // A key pair's material is a JWK whose key_ops must agree with the usages it is imported with.
    const base = k(baseKey).material;
    const material = { ...base, usages: ['deriveBits'], ...(base.jwk === undefined ? {} : { jwk: { ...base.jwk, key_ops: ['deriveBits'] } }) };
    const bits = toArrayBuffer(await call({ method: 'deriveBits', algorithm: toJson(normalize(algorithm)), key: material, length }));
    return this.importKey('raw', bits, derivedKeyType, extractable, keyUsages);
  }
  async wrapKey(format, key, wrappingKey, wrapAlgorithm) {
    SubtleCrypto.#check(this);
    arity('wrapKey', arguments.length, 4);
    checkKey(key, 'wrapKey');
    checkKey(wrappingKey, 'wrapKey');
    checkExportable(key);
    return toArrayBuffer(await call({ method: 'wrapKey', format, key: k(key).material, wrappingKey: k(wrappingKey).material, algorithm: toJson(normalize(wrapAlgorithm)) }));
  }
  async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, usages) {
    SubtleCrypto.#check(this);
    arity('unwrapKey', arguments.length, 7);
    checkKey(unwrappingKey, 'unwrapKey');
    const material = await call({
      method: 'unwrapKey', format, unwrappingKey: k(unwrappingKey).material, algorithm: toJson(normalize(unwrapAlgorithm)),
      keyAlgorithm: toJson(normalize(unwrappedKeyAlgorithm)), usages: usagesOf(usages, 'unwrapKey', 7),
    }, bufferSource(wrappedKey, 'unwrapKey', '2nd'));
    return makeKey(material, !!extractable);
  }
}
Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });

export const subtle = new SubtleCrypto(CREATE);
export const modules = {};
export const globals = { SubtleCrypto, CryptoKey };
