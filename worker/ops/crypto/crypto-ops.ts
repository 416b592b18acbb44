// Cryptography for the guest: random bytes, hashes and HMACs (node:crypto), key derivation, and
// WebCrypto (crypto.subtle) through Node's implementation. Keys live in the guest as their
// exported material (raw bytes for secret keys, JWK for key pairs) and are imported again for
// each operation, so no host object outlives an op and heap images stay self-contained.
import { createHash, createHmac, getHashes, pbkdf2, pbkdf2Sync, randomBytes, scrypt, scryptSync, hkdfSync, webcrypto } from 'node:crypto';
import { OpError, type OpContext, type OpFactory } from '../op-types.ts';
import type { HostOpLimits } from '../../../shared/worker-settings.ts';
import { kdfBudget, checkPbkdf2, KDF_QUEUE, planScrypt } from './kdf-limits.ts';
import { HOST_WORK } from '../../runtime/host-work.ts';

const subtle = webcrypto.subtle;
/** Bytes per crypto.random call; the guest asks repeatedly for more. */
const MAX_RANDOM = 1 << 20;
const MAX_KEYLEN = 1 << 20;
/** RSA moduli generateKey makes at most: 8192 bits take ~10 s; OpenSSL's 16384 take minutes of threadpool time. */
const MAX_RSA_MODULUS_BITS = 8192;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface KeyMaterial { type: webcrypto.KeyType; algorithm: Json; usages: webcrypto.KeyUsage[]; raw?: string; jwk?: webcrypto.JsonWebKey }

function fail(e: unknown): never {
  if (e instanceof OpError) throw e;
  const err = e as { name?: string; message?: string; code?: string };
  const name = typeof err?.name === 'string' && err.name !== 'Error' ? err.name : 'Error';
  throw new OpError(String(err?.message ?? e), name === 'DOMException' ? 'OperationError' : name, err?.code);
}

function obj(args: unknown, op: string): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new OpError(`${op} expects an object`, 'TypeError');
  return args as Record<string, unknown>;
}

function int(v: unknown, name: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new OpError(`${name} must be an integer in [${min}, ${max}]`, 'RangeError', 'ERR_OUT_OF_RANGE');
  return v;
}

/** Guest-side JSON back to WebCrypto values: {__bytes: base64} → bytes, {__key: material} → CryptoKey. */
async function revive(v: unknown): Promise<unknown> {
  if (Array.isArray(v)) return Promise.all(v.map(revive));
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  if (typeof o['__bytes'] === 'string') return Buffer.from(o['__bytes'], 'base64');
  if (typeof o['__key'] === 'object' && o['__key'] !== null) return importMaterial(o['__key'] as KeyMaterial);
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(o)) out[k] = await revive(val);
  return out;
}

/** WebCrypto values to JSON the guest can read: bytes → {__bytes}. */
function toJson(v: unknown): Json {
  if (v instanceof Uint8Array || v instanceof ArrayBuffer) return { __bytes: Buffer.from(v as Uint8Array).toString('base64') };
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, Json> = {};
    for (const [k, val] of Object.entries(v)) out[k] = toJson(val);
    return out;
  }
  return v as Json;
}

/** Key-derivation base keys can never be extractable in WebCrypto; the guest keeps their raw bytes. */
function derivationOnly(algorithm: unknown): boolean {
  const name = typeof algorithm === 'string' ? algorithm : (algorithm as { name?: unknown } | null)?.name;
  return typeof name === 'string' && (name.toUpperCase() === 'PBKDF2' || name.toUpperCase() === 'HKDF');
}

async function importMaterial(m: KeyMaterial): Promise<webcrypto.CryptoKey> {
  const algorithm = (await revive(m.algorithm)) as webcrypto.AlgorithmIdentifier;
  if (m.raw !== undefined) return subtle.importKey('raw', Buffer.from(m.raw, 'base64'), algorithm, !derivationOnly(algorithm), m.usages);
  return subtle.importKey('jwk', m.jwk!, algorithm, true, m.usages);
}

async function describeKey(key: webcrypto.CryptoKey): Promise<KeyMaterial> {
  const base = { type: key.type, algorithm: toJson(key.algorithm), usages: key.usages };
  if (key.type === 'secret') return { ...base, raw: Buffer.from(await subtle.exportKey('raw', key)).toString('base64') };
  return { ...base, jwk: await subtle.exportKey('jwk', key) };
}

function algorithmName(algorithm: unknown): string {
  const name = typeof algorithm === 'string' ? algorithm : (algorithm as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name.toUpperCase() : '';
}

/**
 * WebCrypto work that runs long in the threadpool: PBKDF2 under the same cap as node:crypto's,
 * RSA key generation up to MAX_RSA_MODULUS_BITS. Such calls go through the run's key-derivation
 * queue (true is returned); the rest run at once.
 */
function heavySubtle(limits: HostOpLimits, a: Record<string, unknown>): boolean {
  const algorithm = a['algorithm'] as Record<string, unknown> | string | null;
  const name = algorithmName(algorithm);
  const params = typeof algorithm === 'object' && algorithm !== null ? algorithm : {};
  if (a['method'] === 'deriveBits' && name === 'PBKDF2') {
    const iterations = params['iterations'];
    const hash = algorithmName(params['hash']).replace(/^SHA-/, 'sha');
    const length = a['length'];
    if (typeof iterations === 'number' && typeof length === 'number' && hash !== '') checkPbkdf2(limits, iterations, Math.ceil(length / 8), hash, true);
    return true;
  }
  if (a['method'] === 'generateKey' && name.startsWith('RSA')) {
    const bits = params['modulusLength'];
    // Past an unsigned long, Node's own normalization answers (a TypeError, [EnforceRange]).
    if (typeof bits === 'number' && bits > MAX_RSA_MODULUS_BITS && bits <= 0xffffffff) {
      throw new OpError(`RSA modulusLength ${bits} is over runjs's limit of ${MAX_RSA_MODULUS_BITS} bits`, 'OperationError');
    }
    return true;
  }
  return false;
}

/**
 * The arguments every key derivation op takes: its bytes are the password then the salt
 * (`passwordLength` splits them), and `keylen` is the output size.
 */
function kdfInput(args: unknown, bytes: Uint8Array | undefined, op: string): { a: Record<string, unknown>; password: Uint8Array; salt: Uint8Array; keylen: number } {
  const a = obj(args, op);
  const all = bytes ?? new Uint8Array(0);
  const split = int(a['passwordLength'], 'passwordLength', 0, all.length);
  return { a, password: all.subarray(0, split), salt: all.subarray(split), keylen: int(a['keylen'], 'keylen', 0, MAX_KEYLEN) };
}

/** A run's threadpool-bound crypto work, through its queue (KDF_QUEUE); counted while it computes. */
function queued<T>(limits: HostOpLimits, ctx: OpContext, bytes: number, signal: AbortSignal, job: () => Promise<T>): Promise<T> {
  return ctx.resources.get(KDF_QUEUE).run({ maxRunning: limits.maxConcurrentKeyDerivations, heapBytes: kdfBudget(ctx.limits.heapBytes) }, bytes, signal, () => ctx.resources.get(HOST_WORK).track(job()));
}

async function subtleOp(a: Record<string, unknown>, bytes: Uint8Array | undefined): Promise<unknown> {
  const data = bytes ?? new Uint8Array(0);
  const algorithm = (await revive(a['algorithm'])) as webcrypto.AlgorithmIdentifier;
  const key = a['key'] !== undefined ? await importMaterial(a['key'] as KeyMaterial) : undefined;
  const usages = (a['usages'] ?? []) as webcrypto.KeyUsage[];
  switch (a['method']) {
    case 'digest': return new Uint8Array(await subtle.digest(algorithm, data));
    case 'sign': return new Uint8Array(await subtle.sign(algorithm, key!, data));
    case 'verify': return subtle.verify(algorithm, key!, Buffer.from(String(a['signature']), 'base64'), data);
    case 'encrypt': return new Uint8Array(await subtle.encrypt(algorithm, key!, data));
    case 'decrypt': return new Uint8Array(await subtle.decrypt(algorithm, key!, data));
    case 'deriveBits': return new Uint8Array(await subtle.deriveBits(algorithm as webcrypto.EcdhKeyDeriveParams, key!, (a['length'] ?? null) as number));
    case 'importKey': {
      const format = a['format'] as 'raw' | 'spki' | 'pkcs8' | 'jwk';
      if (derivationOnly(algorithm)) {
        const imported = await subtle.importKey(format as 'raw', data, algorithm, false, usages);
        return { type: imported.type, algorithm: toJson(imported.algorithm), usages: imported.usages, raw: Buffer.from(data).toString('base64') };
      }
      const imported = format === 'jwk'
        ? await subtle.importKey('jwk', a['jwk'] as webcrypto.JsonWebKey, algorithm, true, usages)
        : await subtle.importKey(format, data, algorithm, true, usages);
      return describeKey(imported);
    }
    case 'generateKey': {
      const generated = await subtle.generateKey(algorithm, true, usages) as webcrypto.CryptoKey | webcrypto.CryptoKeyPair;
      if ('privateKey' in generated) return { publicKey: await describeKey(generated.publicKey), privateKey: await describeKey(generated.privateKey) };
      return describeKey(generated);
    }
    case 'exportKey': {
      const format = a['format'] as 'raw' | 'spki' | 'pkcs8' | 'jwk';
      if (format === 'jwk') return subtle.exportKey('jwk', key!);
      return new Uint8Array(await subtle.exportKey(format, key!));
    }
    case 'wrapKey': {
      const wrapping = await importMaterial(a['wrappingKey'] as KeyMaterial);
      return new Uint8Array(await subtle.wrapKey(a['format'] as 'raw' | 'spki' | 'pkcs8' | 'jwk', key!, wrapping, algorithm));
    }
    case 'unwrapKey': {
      const unwrapping = await importMaterial(a['unwrappingKey'] as KeyMaterial);
      const keyAlgorithm = (await revive(a['keyAlgorithm'])) as webcrypto.AlgorithmIdentifier;
      const unwrapped = await subtle.unwrapKey(a['format'] as 'raw' | 'spki' | 'pkcs8' | 'jwk', data, unwrapping, algorithm, keyAlgorithm, true, usages);
      return describeKey(unwrapped);
    }
    default: throw new OpError('crypto.subtle: unknown method', 'NotSupportedError');
  }
}

/** The capability's ops, with the key-derivation limits of the worker's settings. */
export const createCryptoOps: OpFactory = (settings) => {
  const limits = settings.limits;
  return {
    'crypto.random': {
      kind: 'sync',
      run(args) {
        return new Uint8Array(randomBytes(int(args, 'size', 0, MAX_RANDOM)));
      },
    },
    'crypto.hashes': {
      kind: 'sync',
      run() {
        return getHashes();
      },
    },
    'crypto.hash': {
      kind: 'sync',
      run(args, bytes) {
        const a = obj(args, 'crypto.hash');
        try {
          const opts = a['outputLength'] === undefined ? undefined : { outputLength: int(a['outputLength'], 'outputLength', 0, MAX_KEYLEN) };
          return new Uint8Array(createHash(String(a['algorithm']), opts).update(bytes ?? new Uint8Array(0)).digest());
        } catch (e) {
          fail(e);
        }
      },
    },
    'crypto.hmac': {
      kind: 'sync',
      run(args, bytes) {
        const a = obj(args, 'crypto.hmac');
        const all = bytes ?? new Uint8Array(0);
        const keyLength = int(a['keyLength'], 'keyLength', 0, all.length);
        try {
          return new Uint8Array(createHmac(String(a['algorithm']), all.subarray(0, keyLength)).update(all.subarray(keyLength)).digest());
        } catch (e) {
          fail(e);
        }
      },
    },
    'crypto.pbkdf2': {
      kind: 'sync',
      run(args, bytes) {
        const { a, password, salt, keylen } = kdfInput(args, bytes, 'crypto.pbkdf2');
        const iterations = int(a['iterations'], 'iterations', 1, 2 ** 31 - 1);
        checkPbkdf2(limits, iterations, keylen, String(a['digest']));
        try {
          return new Uint8Array(pbkdf2Sync(password, salt, iterations, keylen, String(a['digest'])));
        } catch (e) {
          fail(e);
        }
      },
    },
    'crypto.pbkdf2Async': {
      kind: 'async',
      run(args, bytes, ctx, signal) {
        const { a, password, salt, keylen } = kdfInput(args, bytes, 'crypto.pbkdf2Async');
        const iterations = int(a['iterations'], 'iterations', 1, 2 ** 31 - 1);
        checkPbkdf2(limits, iterations, keylen, String(a['digest']));
        return queued(limits, ctx, keylen, signal, () => new Promise((resolve, reject) => {
          pbkdf2(password, salt, iterations, keylen, String(a['digest']),
            (err, key) => (err ? reject(new OpError(err.message, 'Error', (err as { code?: string }).code)) : resolve(new Uint8Array(key))));
        }));
      },
    },
    'crypto.scrypt': {
      kind: 'async',
      run(args, bytes, ctx, signal) {
        const { a, password, salt, keylen } = kdfInput(args, bytes, 'crypto.scrypt');
        const plan = planScrypt(limits, ctx.limits.heapBytes, a['options']);
        return queued(limits, ctx, plan.memory + keylen, signal, () => new Promise((resolve, reject) => {
          try {
            scrypt(password, salt, keylen, plan.options,
              (err, key) => (err ? reject(new OpError(err.message, 'Error', (err as { code?: string }).code)) : resolve(new Uint8Array(key))));
          } catch (e) {
            fail(e);
          }
        }));
      },
    },
    'crypto.scryptSync': {
      kind: 'sync',
      run(args, bytes, ctx) {
        const { a, password, salt, keylen } = kdfInput(args, bytes, 'crypto.scryptSync');
        const plan = planScrypt(limits, ctx.limits.heapBytes, a['options']);
        try {
          return new Uint8Array(scryptSync(password, salt, keylen, plan.options));
        } catch (e) {
          fail(e);
        }
      },
    },
    'crypto.hkdf': {
      kind: 'sync',
      run(args, bytes) {
        const a = obj(args, 'crypto.hkdf');
        const all = bytes ?? new Uint8Array(0);
        const k = int(a['keyLength'], 'keyLength', 0, all.length);
        const s = int(a['saltLength'], 'saltLength', 0, all.length - k);
        try {
          return new Uint8Array(hkdfSync(String(a['digest']), all.subarray(0, k), all.subarray(k, k + s), all.subarray(k + s), int(a['keylen'], 'keylen', 0, 255 * 64)));
        } catch (e) {
          fail(e);
        }
      },
    },
    'crypto.subtle': {
      kind: 'async',
      async run(args, bytes, ctx, signal) {
        try {
          const a = obj(args, 'crypto.subtle');
          if (!heavySubtle(limits, a)) return await ctx.resources.get(HOST_WORK).track(subtleOp(a, bytes));
          return await queued(limits, ctx, 0, signal, () => subtleOp(a, bytes));
        } catch (e) {
          fail(e);
        }
      },
    },
  };
};
