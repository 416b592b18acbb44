// node:buffer and node:string_decoder: feross/buffer (patched for 'base64url') and runjs's
// StringDecoder (string-decoder.js), plus what newer Node versions added to node:buffer.
import bufferModule from 'buffer';
import { stringDecoderModule } from './string-decoder.js';
import { installArgumentChecks, installBufferChecks, validatedBytes } from './buffer-checks.js';
import { defineInspectMaxBytes, installBufferInspect } from './buffer-inspect.js';
import { installIndexOf } from './buffer-indexof.js';
import core from 'runjs:part/core';

const { Buffer } = bufferModule;
const { atob, btoa } = core.globals;
const { requirePart } = core.shared;

installBufferChecks(Buffer);
installArgumentChecks(Buffer);
// feross's module object holds the realm's INSPECT_MAX_BYTES (its own inspect reads it too).
installBufferInspect(Buffer, bufferModule);
installIndexOf(Buffer);
// Node's lower-case aliases of the BigInt methods (feross has those of the others only).
for (const name of ['readBigUInt64LE', 'readBigUInt64BE', 'writeBigUInt64LE', 'writeBigUInt64BE']) {
  Buffer.prototype[name.replace('UInt', 'Uint')] ??= Buffer.prototype[name];
}

// Node's Buffer.of and Buffer[Symbol.species]: buffers made by Uint8Array methods (of, map,
// filter, subarray…) come from FastBuffer, not from Buffer() itself, so they do not warn DEP0005.
function FastBuffer(bufferOrLength, byteOffset, length) {
  return Reflect.construct(Uint8Array, [bufferOrLength, byteOffset, length], FastBuffer);
}
FastBuffer.prototype = Buffer.prototype;
Object.setPrototypeOf(FastBuffer, Uint8Array);
Object.defineProperty(Buffer, Symbol.species, { get: () => FastBuffer, enumerable: false, configurable: true });
Buffer.of = function of(...items) {
  const buf = new FastBuffer(items.length);
  for (let i = 0; i < items.length; i++) buf[i] = items[i];
  return buf;
};

function isUtf8(input) {
  const bytes = validatedBytes(input);
  try {
    new core.globals.TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function isAscii(input) {
  const bytes = validatedBytes(input);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}

function validateInteger(value, name) {
  if (typeof value !== 'number') throw core.shared.invalidArgType(name, 'of type number', value);
  if (!Number.isInteger(value)) throw core.shared.outOfRange(name, 'an integer', value);
  if (value < 0 || value > Number.MAX_SAFE_INTEGER) throw core.shared.outOfRange(name, `>= 0 && <= ${Number.MAX_SAFE_INTEGER}`, value);
}

// Node's Buffer.copyBytesFrom: offset and length count elements of the view, and are integers.
Buffer.copyBytesFrom = function copyBytesFrom(view, offset = undefined, length = undefined) {
  if (!ArrayBuffer.isView(view) || view instanceof DataView) throw core.shared.invalidArgType('view', 'an instance of TypedArray', view);
  if (view.length === 0) return Buffer.alloc(0);
  if (offset !== undefined || length !== undefined) {
    if (offset !== undefined) {
      validateInteger(offset, 'offset');
      if (offset >= view.length) return Buffer.alloc(0);
    } else offset = 0;
    let end = view.length;
    if (length !== undefined) {
      validateInteger(length, 'length');
      end = offset + length;
    }
    view = view.slice(offset, end);
  }
  return Buffer.from(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
};

// Node's Buffer carries per-encoding `<enc>Write(string, offset, length)` / `<enc>Slice(start, end)`
// methods; libraries probe for them (protobufjs takes Buffer only when `utf8Write` exists).
for (const [prefix, encoding] of [['utf8', 'utf8'], ['latin1', 'latin1'], ['ascii', 'ascii'], ['hex', 'hex'], ['base64', 'base64'], ['base64url', 'base64url'], ['ucs2', 'ucs2']]) {
  Object.defineProperty(Buffer.prototype, `${prefix}Write`, {
    value(string, offset = 0, length = this.length - offset) { return this.write(string, offset, length, encoding); },
    writable: true, configurable: true,
  });
  Object.defineProperty(Buffer.prototype, `${prefix}Slice`, {
    value(start = 0, end = this.length) { return this.toString(encoding, start, end); },
    writable: true, configurable: true,
  });
}

// Node's SlowBuffer: a size that is not a number in 0..kMaxLength throws (feross makes NaN 0);
// the first call warns DEP0030, as Node's util.deprecate wrapper does.
let slowBufferWarned = false;
function SlowBuffer(size) {
  if (!slowBufferWarned) {
    slowBufferWarned = true;
    core.process.emitWarning('SlowBuffer() is deprecated. Please use Buffer.allocUnsafeSlow()', 'DeprecationWarning', 'DEP0030');
  }
  if (typeof size !== 'number') throw core.shared.invalidArgType('size', 'of type number', size);
  if (!(size >= 0 && size <= bufferModule.kMaxLength)) throw core.shared.outOfRange('size', `>= 0 && <= ${bufferModule.kMaxLength}`, size);
  return Buffer.allocUnsafeSlow(size);
}
Object.setPrototypeOf(SlowBuffer.prototype, Uint8Array.prototype);
Object.setPrototypeOf(SlowBuffer, Uint8Array);

const constants = { MAX_LENGTH: bufferModule.kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 };

const buffer = {
  Buffer,
  SlowBuffer,
  kMaxLength: bufferModule.kMaxLength,
  kStringMaxLength: constants.MAX_STRING_LENGTH,
  constants,
  atob,
  btoa,
  isUtf8,
  isAscii,
  resolveObjectURL(url) { return core.shared.resolveObjectURL(url); },
  transcode(source, fromEnc, toEnc) {
    return Buffer.from(Buffer.from(source).toString(fromEnc), toEnc);
  },
};
defineInspectMaxBytes(buffer, bufferModule);
// Blob and File live in the fetch part: evaluated only if a script reaches for them.
for (const name of ['Blob', 'File']) {
  Object.defineProperty(buffer, name, { enumerable: true, configurable: true, get: () => requirePart('fetch').globals[name] });
}

export const modules = { buffer, string_decoder: stringDecoderModule(Buffer) };
export const globals = { Buffer };
