// Node's argument checks for Buffer's read*/write* methods (lib/internal/buffer.js): feross/buffer
// coerces offsets and throws its own RangeErrors; these wrappers check first, with Node's codes
// and messages, and then let feross do the byte work on arguments it accepts as they are.
import core from 'runjs:part/core';

const { nodeError, invalidArgType, outOfRange } = core.shared;

function validateNumber(value, name) {
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
}

function boundsError(value, length, type) {
  if (Math.floor(value) !== value) {
    validateNumber(value, type);
    throw outOfRange(type || 'offset', 'an integer', value);
  }
  if (length < 0) throw nodeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', 'Attempt to access memory outside buffer bounds');
  throw outOfRange(type || 'offset', `>= ${type ? 1 : 0} and <= ${length}`, value);
}

/** `size` bytes at `offset` must lie inside `buf`. */
function checkBounds(buf, offset, size) {
  validateNumber(offset, 'offset');
  if (buf[offset] === undefined || buf[offset + size - 1] === undefined) boundsError(offset, buf.length - size);
}

function checkInt(value, min, max, buf, offset, size) {
  if (value > max || value < min) {
    const n = typeof min === 'bigint' ? 'n' : '';
    let range;
    if (size > 4) {
      if (min === 0 || min === 0n) range = `>= 0${n} and < 2${n} ** ${size * 8}${n}`;
      else range = `>= -(2${n} ** ${size * 8 - 1}${n}) and < 2${n} ** ${size * 8 - 1}${n}`;
    } else {
      range = `>= ${min}${n} and <= ${max}${n}`;
    }
    throw outOfRange('value', range, value);
  }
  checkBounds(buf, offset, size);
}

/** Node's validateOffset: an integer from `min` to `max`. */
function validateOffset(value, name, min = 0, max = Number.MAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
  if (!Number.isInteger(value)) throw outOfRange(name, 'an integer', value);
  if (value < min || value > max) throw outOfRange(name, `>= ${min} && <= ${max}`, value);
}

function toInteger(n, defaultValue) {
  n = +n;
  if (!Number.isNaN(n) && n >= Number.MIN_SAFE_INTEGER && n <= Number.MAX_SAFE_INTEGER) return n % 1 === 0 ? n : Math.floor(n);
  return defaultValue;
}

const isUint8Array = (v) => v instanceof Uint8Array;
const bufferOrUint8Array = 'an instance of Buffer or Uint8Array';

function intRange(size, signed) {
  return signed ? [-(2 ** (size * 8 - 1)), 2 ** (size * 8 - 1) - 1] : [0, 2 ** (size * 8) - 1];
}

export function installBufferChecks(Buffer) {
  const proto = Buffer.prototype;
  // Wraps `name` (and its lower-case `Uint` alias, which stays the same function).
  const replace = (name, make) => {
    const original = proto[name];
    const wrapped = make(original);
    Object.defineProperty(wrapped, 'name', { value: name });
    proto[name] = wrapped;
    const alias = name.replace('UInt', 'Uint');
    if (alias !== name && alias in proto) proto[alias] = wrapped;
  };
  const fixed = [['UInt8', 1, false], ['Int8', 1, true], ['UInt16LE', 2, false], ['UInt16BE', 2, false], ['Int16LE', 2, true], ['Int16BE', 2, true],
    ['UInt32LE', 4, false], ['UInt32BE', 4, false], ['Int32LE', 4, true], ['Int32BE', 4, true]];
  for (const [type, size, signed] of fixed) {
    const [min, max] = intRange(size, signed);
    replace(`read${type}`, (original) => function (offset = 0) {
      checkBounds(this, offset, size);
      return original.call(this, offset);
    });
    replace(`write${type}`, (original) => function (value, offset = 0) {
      value = +value;
      if (size === 1) {
        validateNumber(offset, 'offset');
        if (value > max || value < min) throw outOfRange('value', `>= ${min} and <= ${max}`, value);
        if (this[offset] === undefined) boundsError(offset, this.length - 1);
      } else {
        checkInt(value, min, max, this, offset, size);
      }
      return original.call(this, value, offset);
    });
  }
  for (const [type, size] of [['FloatLE', 4], ['FloatBE', 4], ['DoubleLE', 8], ['DoubleBE', 8]]) {
    replace(`read${type}`, (original) => function (offset = 0) {
      checkBounds(this, offset, size);
      return original.call(this, offset);
    });
    replace(`write${type}`, (original) => function (value, offset = 0) {
      value = +value;
      checkBounds(this, offset, size);
      return original.call(this, value, offset);
    });
  }
  for (const [type, signed] of [['BigUInt64LE', false], ['BigUInt64BE', false], ['BigInt64LE', true], ['BigInt64BE', true]]) {
    const [min, max] = signed ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
    replace(`read${type}`, (original) => function (offset = 0) {
      checkBounds(this, offset, 8);
      return original.call(this, offset);
    });
    replace(`write${type}`, (original) => function (value, offset = 0) {
      checkInt(value, min, max, this, offset, 8);
      return original.call(this, value, offset);
    });
  }
  // Variable widths: 1 to 6 bytes.
  for (const [type, signed] of [['UIntLE', false], ['UIntBE', false], ['IntLE', true], ['IntBE', true]]) {
    replace(`read${type}`, (original) => function (offset, byteLength) {
      if (offset === undefined) throw invalidArgType('offset', 'of type number', offset);
      if (byteLength === 1 || byteLength === 2 || byteLength === 3 || byteLength === 4 || byteLength === 5 || byteLength === 6) {
        checkBounds(this, offset, byteLength);
        return original.call(this, offset, byteLength);
      }
      return boundsError(byteLength, 6, 'byteLength');
    });
    replace(`write${type}`, (original) => function (value, offset, byteLength) {
      if (byteLength === 1 || byteLength === 2 || byteLength === 3 || byteLength === 4 || byteLength === 5 || byteLength === 6) {
        const [min, max] = intRange(byteLength, signed);
        value = +value;
        if (byteLength === 1) {
          validateNumber(offset, 'offset');
          if (value > max || value < min) throw outOfRange('value', `>= ${min} and <= ${max}`, value);
          if (this[offset] === undefined) boundsError(offset, this.length - 1);
        } else {
          checkInt(value, min, max, this, offset, byteLength);
        }
        return original.call(this, value, offset, byteLength);
      }
      return boundsError(byteLength, 6, 'byteLength');
    });
  }
}

/** Node's checks of the other methods' arguments (concat, compare, equals, copy, fill, write, toString, from, byteLength). */
export function installArgumentChecks(Buffer) {
  const proto = Buffer.prototype;
  const define = (target, name, fn) => {
    Object.defineProperty(fn, 'name', { value: name });
    target[name] = fn;
  };
  const { concat, byteLength, from, compare: staticCompare, alloc } = Buffer;
  // Node fills a string with `encoding` as fill() does, so one that is not a string (nor missing)
  // is ERR_INVALID_ARG_TYPE; feross ignores it.
  define(Buffer, 'alloc', function (size, fill, encoding) {
    if (typeof fill === 'string' && encoding != null && typeof encoding !== 'string' && size > 0) throw invalidArgType('encoding', 'of type string', encoding);
    return alloc.call(this, size, fill, encoding);
  });
  define(Buffer, 'concat', function (list, length) {
    if (!Array.isArray(list)) throw invalidArgType('list', 'an instance of Array', list);
    for (let i = 0; i < list.length; i++) if (!isUint8Array(list[i])) throw invalidArgType(`list[${i}]`, bufferOrUint8Array, list[i]);
    if (length !== undefined) validateOffset(length, 'length');
    return concat.call(this, list, length);
  });
  define(Buffer, 'compare', function (buf1, buf2) {
    if (!isUint8Array(buf1)) throw invalidArgType('buf1', bufferOrUint8Array, buf1);
    if (!isUint8Array(buf2)) throw invalidArgType('buf2', bufferOrUint8Array, buf2);
    return staticCompare.call(this, buf1, buf2);
  });
  define(Buffer, 'byteLength', function (string, encoding) {
    if (typeof string !== 'string' && !ArrayBuffer.isView(string) && !isAnyArrayBuffer(string)) {
      throw invalidArgType('string', 'of type string or an instance of Buffer or ArrayBuffer', string);
    }
    if (typeof string !== 'string') return string.byteLength;
    return byteLength.call(this, string, encoding);
  });
  const firstArgument = (value) => invalidArgType('first argument', 'of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object', value);
  define(Buffer, 'from', function (value, encodingOrOffset, length) {
    if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) throw firstArgument(value);
    // feross recognises a SharedArrayBuffer by the platform's captured constructor, which is not
    // the script's on V8: Node's fromArrayBuffer, shared memory and all.
    if (isAnyArrayBuffer(value) && !(value instanceof ArrayBuffer)) return fromSharedArrayBuffer(Buffer, value, encodingOrOffset, length);
    // feross takes anything that inherits from ArrayBuffer.prototype for one (and then fails on it).
    if (value instanceof ArrayBuffer && !isAnyArrayBuffer(value)) throw firstArgument(value);
    if (typeof value === 'object' && !ArrayBuffer.isView(value) && !isAnyArrayBuffer(value)) {
      // Node's order for other objects: a string or object from valueOf() is converted instead
      // (feross also follows a number or boolean, and then fails on it); then array-likes and
      // {type: 'Buffer', data}; then a string from Symbol.toPrimitive; else the type error.
      const valueOf = value.valueOf && value.valueOf();
      if (valueOf != null && valueOf !== value && (typeof valueOf === 'string' || typeof valueOf === 'object')) return Buffer.from(valueOf, encodingOrOffset, length);
      if (value.length !== undefined || isAnyArrayBuffer(value.buffer)) {
        if (typeof value.length !== 'number') return Buffer.alloc(0);
      } else if (!(value.type === 'Buffer' && Array.isArray(value.data))) {
        if (typeof value[Symbol.toPrimitive] === 'function') {
          const primitive = value[Symbol.toPrimitive]('string');
          if (typeof primitive === 'string') return Buffer.from(primitive, encodingOrOffset);
        }
        throw firstArgument(value);
      }
    }
    try {
      return from.call(this, value, encodingOrOffset, length);
    } catch (e) {
      if (e instanceof TypeError && e.code === undefined && /^The first argument must be one of type/.test(e.message)) throw firstArgument(value);
      throw e;
    }
  });

  define(proto, 'equals', function (otherBuffer) {
    if (!isUint8Array(otherBuffer)) throw invalidArgType('otherBuffer', bufferOrUint8Array, otherBuffer);
    if (this === otherBuffer) return true;
    if (this.byteLength !== otherBuffer.byteLength) return false;
    for (let i = 0; i < this.byteLength; i++) if (this[i] !== otherBuffer[i]) return false;
    return true;
  });
  define(proto, 'compare', function (target, targetStart, targetEnd, sourceStart, sourceEnd) {
    if (!isUint8Array(target)) throw invalidArgType('target', bufferOrUint8Array, target);
    if (arguments.length === 1) return compareBytes(this, 0, this.length, target, 0, target.length);
    if (targetStart === undefined) targetStart = 0;
    else validateOffset(targetStart, 'targetStart');
    if (targetEnd === undefined) targetEnd = target.length;
    else validateOffset(targetEnd, 'targetEnd', 0, target.length);
    if (sourceStart === undefined) sourceStart = 0;
    else validateOffset(sourceStart, 'sourceStart');
    if (sourceEnd === undefined) sourceEnd = this.length;
    else validateOffset(sourceEnd, 'sourceEnd', 0, this.length);
    if (sourceStart >= sourceEnd) return targetStart >= targetEnd ? 0 : -1;
    if (targetStart >= targetEnd) return 1;
    return compareBytes(this, sourceStart, sourceEnd, target, targetStart, targetEnd);
  });
  define(proto, 'copy', function (target, targetStart, sourceStart, sourceEnd) {
    if (!isUint8Array(this)) throw invalidArgType('source', bufferOrUint8Array, this);
    if (!isUint8Array(target)) throw invalidArgType('target', bufferOrUint8Array, target);
    if (targetStart === undefined) targetStart = 0;
    else {
      targetStart = Number.isInteger(targetStart) ? targetStart : toInteger(targetStart, 0);
      if (targetStart < 0) throw outOfRange('targetStart', '>= 0', targetStart);
    }
    if (sourceStart === undefined) sourceStart = 0;
    else {
      sourceStart = Number.isInteger(sourceStart) ? sourceStart : toInteger(sourceStart, 0);
      if (sourceStart < 0 || sourceStart > this.byteLength) throw outOfRange('sourceStart', `>= 0 && <= ${this.byteLength}`, sourceStart);
    }
    if (sourceEnd === undefined) sourceEnd = this.byteLength;
    else {
      sourceEnd = Number.isInteger(sourceEnd) ? sourceEnd : toInteger(sourceEnd, 0);
      if (sourceEnd < 0) throw outOfRange('sourceEnd', '>= 0', sourceEnd);
    }
    if (targetStart >= target.byteLength || sourceStart >= sourceEnd) return 0;
    if (sourceEnd - sourceStart > target.byteLength - targetStart) sourceEnd = sourceStart + target.byteLength - targetStart;
    const n = Math.min(sourceEnd - sourceStart, this.byteLength - sourceStart);
    if (n <= 0) return 0;
    Uint8Array.prototype.set.call(target, Uint8Array.prototype.subarray.call(this, sourceStart, sourceStart + n), targetStart);
    return n;
  });
  const { fill, write, toString } = proto;
  // Node's order: the range is clamped first (an empty one is '' whatever the encoding), then
  // only a missing encoding means UTF-8 — any other value is converted to a string and must name
  // an encoding (0, null, '' and false are unknown encodings; feross takes a falsy one for UTF-8).
  define(proto, 'toString', function (encoding, start, end) {
    if (arguments.length === 0) return toString.call(this);
    const len = this.length;
    if (start <= 0) start = 0;
    else if (start >= len) return '';
    else start = Math.trunc(start) || 0;
    if (end === undefined || end > len) end = len;
    else end = Math.trunc(end) || 0;
    if (end <= start) return '';
    if (encoding === undefined) return toString.call(this, 'utf8', start, end);
    const name = `${encoding}`;
    if (!Buffer.isEncoding(name)) throw nodeError(TypeError, 'ERR_UNKNOWN_ENCODING', `Unknown encoding: ${name}`);
    return toString.call(this, name, start, end);
  });
  proto.toLocaleString = proto.toString;
  define(proto, 'fill', function (value, offset, end, encoding) {
    if (typeof value === 'string') {
      if (offset === undefined || typeof offset === 'string') {
        encoding = offset;
        offset = undefined;
        end = undefined;
      } else if (typeof end === 'string') {
        encoding = end;
        end = undefined;
      }
      if (encoding !== undefined && encoding !== null && !Buffer.isEncoding(encoding)) {
        if (typeof encoding !== 'string') throw invalidArgType('encoding', 'of type string', encoding);
        throw nodeError(TypeError, 'ERR_UNKNOWN_ENCODING', `Unknown encoding: ${encoding}`);
      }
    }
    if (offset !== undefined) {
      validateOffset(offset, 'offset');
      if (end !== undefined) validateOffset(end, 'end', 0, this.length);
      else end = this.length;
      if (offset >= end) return this;
    }
    return fill.call(this, value, offset ?? 0, end ?? this.length, encoding ?? undefined);
  });
  define(proto, 'write', function (string, offset, length, encoding) {
    if (typeof string !== 'string') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'argument must be a string');
    if (offset === undefined) return write.call(this, string, 0, this.length);
    if (length === undefined && typeof offset === 'string') return write.call(this, string, offset);
    validateOffset(offset, 'offset', 0, this.length);
    const remaining = this.length - offset;
    if (length === undefined) length = remaining;
    else if (typeof length === 'string') {
      encoding = length;
      length = remaining;
    } else {
      validateOffset(length, 'length', 0, this.length);
      if (length > remaining) length = remaining;
    }
    return write.call(this, string, offset, length, encoding);
  });
}

function fromSharedArrayBuffer(Buffer, sab, byteOffset, length) {
  byteOffset = byteOffset === undefined ? 0 : +byteOffset;
  if (Number.isNaN(byteOffset)) byteOffset = 0;
  const maxLength = sab.byteLength - byteOffset;
  if (maxLength < 0) throw nodeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"offset" is outside of buffer bounds');
  if (length === undefined) length = maxLength;
  else {
    length = +length;
    if (length > maxLength) throw nodeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"length" is outside of buffer bounds');
    if (!(length > 0)) length = 0;
  }
  const buf = new Uint8Array(sab, byteOffset, length);
  Object.setPrototypeOf(buf, Buffer.prototype);
  return buf;
}

const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;

function isAnyArrayBuffer(v) {
  if (v === null || typeof v !== 'object') return false;
  // Brand checks, as Node's isAnyArrayBuffer: an object that only inherits from
  // ArrayBuffer.prototype is not one (its byteLength getter throws on it).
  if (v instanceof ArrayBuffer) {
    try {
      arrayBufferByteLength.call(v);
      return true;
    } catch {
      return false;
    }
  }
  // The platform's captured SharedArrayBuffer is not the script's on every engine.
  return Object.prototype.toString.call(v) === '[object SharedArrayBuffer]';
}

function compareBytes(a, aStart, aEnd, b, bStart, bEnd) {
  const n = Math.min(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < n; i++) {
    const x = a[aStart + i];
    const y = b[bStart + i];
    if (x !== y) return x < y ? -1 : 1;
  }
  const la = aEnd - aStart;
  const lb = bEnd - bStart;
  return la < lb ? -1 : la > lb ? 1 : 0;
}

/** The bytes of what node:buffer's isUtf8/isAscii accept: a TypedArray or an (Shared)ArrayBuffer. */
export function validatedBytes(input) {
  if (ArrayBuffer.isView(input) && !(input instanceof DataView)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (isAnyArrayBuffer(input)) {
    // A detached buffer has no bytes (Node: true for both checks).
    return input.detached === true ? new Uint8Array(0) : new Uint8Array(input);
  }
  throw invalidArgType('input', 'an instance of ArrayBuffer, Buffer, or TypedArray', input);
}
