// Small source patches to pinned npm packages, applied while bundling. Each replacement must
// match exactly once, so upgrading a package fails the build loudly instead of silently
// dropping a patch.
export interface Patch { readonly find: string; readonly replace: string }

export const PATCHES: Readonly<Record<string, readonly Patch[]>> = {
  // web-streams-polyfill 4.3.0: pipeTo's read request wrote its chunk to the destination inside
  // the chunk steps, so an enqueue() that fulfilled a pending pipe read ran the sink's write()
  // synchronously inside enqueue() (WPT streams/piping/general-addition; Node does not). The
  // write now starts one microtask later; _currentWrite still tracks it for shutdown.
  'web-streams-polyfill/dist/ponyfill.mjs': [
    {
      find: '_chunkSteps(t){this._state._currentWrite=f(Yt(this._state._writer,t),void 0,e),this._resolvePromise(!1)}',
      replace: '_chunkSteps(t){const s=this._state;s._currentWrite=f(c(void 0),()=>f(Yt(s._writer,t),void 0,e)),this._resolvePromise(!1)}',
    },
    // The 'owning' ReadableStream type (WPT readable-streams/owning-type*, a tentative addition
    // not yet in the standard): a default controller whose enqueue(chunk, { transfer }) stores a
    // structured clone of the chunk with the listed objects transferred; a stream of any other
    // type refuses a non-empty transfer list. Its tee() gives the second branch a clone of each
    // chunk (a chunk that cannot be cloned errors both branches and cancels the stream with it).
    { find: 'if("bytes"!==(e=`${e}`))throw', replace: 'if("bytes"!==(e=`${e}`)&&"owning"!==e)throw' },
    {
      find: 'i=void 0!==t.start?()=>t.start(n):()=>{},a=void 0!==t.pull?()=>t.pull(n):()=>c(void 0),s=void 0!==t.cancel?e=>t.cancel(e):()=>c(void 0),qr(e,n,i,a,s,r,o)}',
      replace: 'n._runjsOwning="owning"===t.type,i=void 0!==t.start?()=>t.start(n):()=>{},a=void 0!==t.pull?()=>t.pull(n):()=>c(void 0),s=void 0!==t.cancel?e=>t.cancel(e):()=>c(void 0),qr(e,n,i,a,s,r,o)}',
    },
    {
      find: 'enqueue(e=void 0){if(!yr(this))throw Er("enqueue");if(!Cr(this))throw new TypeError("The stream is not in a state that permits enqueue");return Rr(this,e)}',
      // (No options: nothing to convert, the common case stays as cheap as before.)
      replace: 'enqueue(e=void 0,o=void 0){if(!yr(this))throw Er("enqueue");let l;if(null!=o){if("object"!=typeof o&&"function"!=typeof o)throw new TypeError("The options argument must be an object");l=__runjs_require("core").shared.transferList(o.transfer);if(l.length>0&&!0!==this._runjsOwning)throw new TypeError("A transfer list is only allowed for a ReadableStream of type \'owning\'")}if(!Cr(this))throw new TypeError("The stream is not in a state that permits enqueue");if(!0===this._runjsOwning)try{e=__runjs_require("core").shared.serializeWithTransfer(e,void 0===l?[]:l)}catch(t){throw Tr(this,t),t}return Rr(this,e)}',
    },
    { find: 'function(e){const t=V(e);let r,o,n,i,a,s=!1,l=!1,d=!1,f=!1;', replace: 'function(e){const t=V(e),__runjs_stream=e;let r,o,n,i,a,s=!1,l=!1,d=!1,f=!1;' },
    {
      find: '_chunkSteps:e=>{y(()=>{l=!1;const t=e,r=e;d||Rr(n._readableStreamController,t),f||Rr(i._readableStreamController,r),s=!1,l&&b()})}',
      replace: '_chunkSteps:e=>{y(()=>{l=!1;const t=e;let r=e;if(!f&&!0===__runjs_stream._readableStreamController._runjsOwning)try{r=__runjs_require("core").shared.serializeWithTransfer(e,[])}catch(e){return Tr(n._readableStreamController,e),Tr(i._readableStreamController,e),void a(Mr(__runjs_stream,e))}d||Rr(n._readableStreamController,t),f||Rr(i._readableStreamController,r),s=!1,l&&b()})}',
    },
  ],
  // feross/buffer 6.0.3 lacks Node's 'base64url' encoding (JWTs and friends need it).
  // base64-js already decodes the URL-safe alphabet; encoding needs the translation.
  'buffer/index.js': [
    { find: "    case 'base64':\n    case 'ucs2':", replace: "    case 'base64':\n    case 'base64url':\n    case 'ucs2':" },
    // Buffer.byteLength(s, 'base64') is Node's estimate from the length, not the decoded size.
    {
      find: "      case 'base64':\n        return base64ToBytes(string).length",
      replace: "      case 'base64':\n      case 'base64url': {\n        let n = string.length\n        if (string.charCodeAt(n - 1) === 0x3D) n--\n        if (n > 1 && string.charCodeAt(n - 1) === 0x3D) n--\n        return (n * 3) >>> 2\n      }",
    },
    {
      find: "      case 'base64':\n        return base64Slice(this, start, end)\n",
      replace: "      case 'base64':\n        return base64Slice(this, start, end)\n\n      case 'base64url':\n        return base64Slice(this, start, end).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')\n",
    },
    { find: "      case 'base64':\n        // Warning: maxLength", replace: "      case 'base64':\n      case 'base64url':\n        // Warning: maxLength" },
    // Node's allocation pool (Node 24's 64 KiB): allocUnsafe(n), from(string) and from(array-like)
    // below half the pool size share one ArrayBuffer, marked untransferable as Node marks its pool
    // (so postMessage/structuredClone cannot detach other buffers' memory); alloc(),
    // allocUnsafeSlow() and the host-converted strings (over BULK_MIN) get their own.
    { find: 'Buffer.poolSize = 8192 // not used by this implementation', replace: 'Buffer.poolSize = 65536' },
    {
      find: 'function createBuffer (length) {\n',
      replace: `let __runjs_pool
let __runjs_poolOffset = 0
function __runjs_pooled (length) {
  if (!(length > 0 && length < (Buffer.poolSize >>> 1))) return createBuffer(length)
  if (__runjs_pool === undefined || length > __runjs_pool.byteLength - __runjs_poolOffset) {
    __runjs_pool = new ArrayBuffer(Buffer.poolSize)
    require('runjs:part/core').shared.markUntransferable(__runjs_pool)
    __runjs_poolOffset = 0
  }
  const buf = new Uint8Array(__runjs_pool, __runjs_poolOffset, length)
  Object.setPrototypeOf(buf, Buffer.prototype)
  __runjs_poolOffset += length
  if (__runjs_poolOffset & 0x7) __runjs_poolOffset = (__runjs_poolOffset | 0x7) + 1
  return buf
}
function createBuffer (length) {
`,
    },
    {
      find: 'Buffer.allocUnsafe = function (size) {\n  return allocUnsafe(size)\n}',
      replace: 'Buffer.allocUnsafe = function (size) {\n  assertSize(size)\n  return __runjs_pooled(size < 0 ? 0 : checked(size) | 0)\n}',
    },
    {
      find: '  const length = array.length < 0 ? 0 : checked(array.length) | 0\n  const buf = createBuffer(length)\n',
      replace: '  const length = array.length < 0 ? 0 : checked(array.length) | 0\n  const buf = __runjs_pooled(length)\n',
    },
    // Node: an empty needle is found at the (clamped) offset; feross never finds it.
    {
      find: 'function bidirectionalIndexOf (buffer, val, byteOffset, encoding, dir) {\n',
      replace: 'function bidirectionalIndexOf (buffer, val, byteOffset, encoding, dir) {\n  if ((typeof val === \'string\' || isInstance(val, Uint8Array)) && val.length === 0) {\n    let o = typeof byteOffset === \'string\' ? NaN : +byteOffset\n    if (numberIsNaN(o)) o = dir ? 0 : buffer.length\n    if (o < 0) o = Math.max(buffer.length + o, 0)\n    return Math.min(o, buffer.length)\n  }\n',
    },
    // Node compares with any Uint8Array.
    {
      find: "  if (!Buffer.isBuffer(b)) throw new TypeError('Argument must be a Buffer')\n  if (this === b) return true",
      replace: "  if (!isInstance(b, Uint8Array)) throw new TypeError('The \"otherBuffer\" argument must be an instance of Buffer or Uint8Array.' + ' Received ' + (b === null ? 'null' : typeof b))\n  if (this === b) return true",
    },
    // Node 24's kMaxLength (64-bit): sizes up to it pass the size check and fail, if at all, when
    // allocated; feross's 2 ** 31 - 1 stays its internal limit.
    { find: 'exports.kMaxLength = K_MAX_LENGTH\n', replace: 'exports.kMaxLength = 9007199254740991\n' },
    {
      find: "      throw new TypeError(\n        'The \"string\" argument must be of type string. Received type number'\n      )\n",
      replace: "      throw require('runjs:part/core').shared.invalidArgType('string', 'of type string', arg)\n",
    },
    // Node's DEP0005: calling Buffer() itself (with or without `new`) warns, once per process
    // (here per realm; the platform's own code never calls it).
    {
      find: 'function Buffer (arg, encodingOrOffset, length) {\n',
      replace: "let __runjs_bufferWarned = false\nfunction Buffer (arg, encodingOrOffset, length) {\n  if (!__runjs_bufferWarned) {\n    __runjs_bufferWarned = true\n    require('runjs:part/core').process.emitWarning('Buffer() is deprecated due to security and usability issues. Please use the Buffer.alloc(), Buffer.allocUnsafe(), or Buffer.from() methods instead.', 'DeprecationWarning', 'DEP0005')\n  }\n",
    },
    // Node says how many bytes it left out.
    { find: "  if (this.length > max) str += ' ... '\n", replace: "  if (this.length > max) str += ' ... ' + (this.length - max) + ' more byte' + (this.length - max > 1 ? 's' : '')\n" },
    // Node stops at the first pair that is not two hex digits ('0g' is not 0).
    { find: '    const parsed = parseInt(string.substr(i * 2, 2), 16)\n    if (numberIsNaN(parsed)) return i\n', replace: '    const pair = string.substr(i * 2, 2)\n    if (!/^[0-9a-fA-F]{2}$/.test(pair)) return i\n    const parsed = parseInt(pair, 16)\n' },
    // Node's errors, with their codes: ERR_UNKNOWN_ENCODING, and alloc's size checks (Node checks
    // against its kMaxLength, 2 ** 53 - 1; larger sizes fail when allocated).
    {
      find: 'function assertSize (size) {\n  if (typeof size !== \'number\') {\n    throw new TypeError(\'"size" argument must be of type number\')\n  } else if (size < 0) {\n    throw new RangeError(\'The value "\' + size + \'" is invalid for option "size"\')\n  }\n}\n',
      replace: 'function __runjs_unknownEncoding (encoding) {\n  return require(\'runjs:part/core\').shared.nodeError(TypeError, \'ERR_UNKNOWN_ENCODING\', \'Unknown encoding: \' + encoding)\n}\nfunction assertSize (size) {\n  const { invalidArgType, outOfRange } = require(\'runjs:part/core\').shared\n  if (typeof size !== \'number\') throw invalidArgType(\'size\', \'of type number\', size)\n  if (!(size >= 0 && size <= 9007199254740991)) throw outOfRange(\'size\', \'>= 0 && <= 9007199254740991\', size)\n}\n',
    },
    { find: "  if (!Buffer.isEncoding(encoding)) {\n    throw new TypeError('Unknown encoding: ' + encoding)", replace: "  if (!Buffer.isEncoding(encoding)) {\n    throw __runjs_unknownEncoding(encoding)" },
    { find: "        return utf16leSlice(this, start, end)\n\n      default:\n        if (loweredCase) throw new TypeError('Unknown encoding: ' + encoding)", replace: "        return utf16leSlice(this, start, end)\n\n      default:\n        if (loweredCase) throw __runjs_unknownEncoding(encoding)" },
    { find: "        return ucs2Write(this, string, offset, length)\n\n      default:\n        if (loweredCase) throw new TypeError('Unknown encoding: ' + encoding)", replace: "        return ucs2Write(this, string, offset, length)\n\n      default:\n        if (loweredCase) throw __runjs_unknownEncoding(encoding)" },
    { find: "&& !Buffer.isEncoding(encoding)) {\n      throw new TypeError('Unknown encoding: ' + encoding)", replace: "&& !Buffer.isEncoding(encoding)) {\n      throw __runjs_unknownEncoding(encoding)" },
    { find: "    throw new RangeError('\"offset\" is outside of buffer bounds')\n", replace: "    throw require('runjs:part/core').shared.nodeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '\"offset\" is outside of buffer bounds')\n" },
    { find: "    throw new RangeError('\"length\" is outside of buffer bounds')\n", replace: "    throw require('runjs:part/core').shared.nodeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '\"length\" is outside of buffer bounds')\n" },
    { find: "  throw new TypeError('val must be string, number or Buffer')\n", replace: "  throw require('runjs:part/core').shared.invalidArgType('value', 'one of type number or string or an instance of Buffer or Uint8Array', val)\n" },
    {
      find: "      throw new TypeError('The value \"' + val +\n        '\" is invalid for argument \"value\"')\n",
      // Node shows the value as inspect() does: a string quoted, an empty Buffer as `<Buffer >`.
      replace: "      throw require('runjs:part/core').shared.nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', 'The argument \\'value\\' is invalid. Received ' + (typeof val === 'string' ? '\\'' + val + '\\'' : Buffer.isBuffer(val) ? '<Buffer >' : val.constructor.name + '(0) []'))\n",
    },
    { find: "    throw new RangeError('Buffer size must be a multiple of 16-bits')\n", replace: "    throw require('runjs:part/core').shared.nodeError(RangeError, 'ERR_INVALID_BUFFER_SIZE', 'Buffer size must be a multiple of 16-bits')\n" },
    { find: "    throw new RangeError('Buffer size must be a multiple of 32-bits')\n", replace: "    throw require('runjs:part/core').shared.nodeError(RangeError, 'ERR_INVALID_BUFFER_SIZE', 'Buffer size must be a multiple of 32-bits')\n" },
    { find: "    throw new RangeError('Buffer size must be a multiple of 64-bits')\n", replace: "    throw require('runjs:part/core').shared.nodeError(RangeError, 'ERR_INVALID_BUFFER_SIZE', 'Buffer size must be a multiple of 64-bits')\n" },
    // Bulk conversions go to the host past BULK_MIN (worker/guest/platform/web/bulk-codec.js): the
    // byte-at-a-time loops below run at well under 1 MB/s on QuickJS.
    {
      find: '\nfunction fromString (string, encoding) {\n',
      replace: `
const __runjs_bulk = () => require('runjs:part/core').shared
function __runjs_bulkEncoding (encoding) {
  switch (String(encoding).toLowerCase()) {
    case 'utf8': case 'utf-8': return 'utf8'
    case 'hex': return 'hex'
    case 'base64': return 'base64'
    case 'base64url': return 'base64url'
    case 'latin1': case 'binary': return 'latin1'
    case 'ascii': return 'ascii'
    default: return undefined
  }
}
function __runjs_bulkSlice (buf, start, end, encoding) {
  return __runjs_bulk().hostToText(new Uint8Array(buf.buffer, buf.byteOffset + start, end - start), encoding)
}
function fromString (string, encoding) {
`,
    },
    {
      find: '  const length = byteLength(string, encoding) | 0\n  let buf = createBuffer(length)\n',
      replace: `  const bulk = string.length > __runjs_bulk().BULK_MIN ? __runjs_bulkEncoding(encoding) : undefined
  if (bulk !== undefined) {
    const bytes = __runjs_bulk().hostToBytes(string, bulk)
    Object.setPrototypeOf(bytes, Buffer.prototype)
    return bytes
  }
  const length = byteLength(string, encoding) | 0
  let buf = __runjs_pooled(length)
`,
    },
    {
      find: '      case \'utf8\':\n      case \'utf-8\':\n        return utf8ToBytes(string).length\n',
      replace: '      case \'utf8\':\n      case \'utf-8\':\n        if (len > __runjs_bulk().BULK_MIN) return __runjs_bulk().hostByteLength(string, \'utf8\')\n        return utf8ToBytes(string).length\n',
    },
    {
      find: 'function utf8ToBytes (string, units) {\n  units = units || Infinity\n',
      replace: 'function utf8ToBytes (string, units) {\n  units = units || Infinity\n  if (string.length > __runjs_bulk().BULK_MIN && units >= string.length * 3) return __runjs_bulk().hostToBytes(string, \'utf8\')\n',
    },
    {
      find: 'function base64ToBytes (str) {\n',
      replace: 'function base64ToBytes (str) {\n  if (str.length > __runjs_bulk().BULK_MIN) return __runjs_bulk().hostToBytes(str, \'base64\')\n',
    },
    {
      find: 'function utf8Slice (buf, start, end) {\n  end = Math.min(buf.length, end)\n',
      // Every size decodes as WHATWG (and Node) do, through the platform's UTF-8 decoder.
      replace: 'function utf8Slice (buf, start, end) {\n  end = Math.min(buf.length, end)\n  if (end - start > __runjs_bulk().BULK_MIN) return __runjs_bulkSlice(buf, start, end, \'utf8\')\n  if (end > start) return __runjs_bulk().utf8Decode(new Uint8Array(buf.buffer, buf.byteOffset + start, end - start))\n',
    },
    {
      find: 'function base64Slice (buf, start, end) {\n',
      replace: 'function base64Slice (buf, start, end) {\n  if (end - start > __runjs_bulk().BULK_MIN) return __runjs_bulkSlice(buf, start, end, \'base64\')\n',
    },
    {
      find: 'function asciiSlice (buf, start, end) {\n  let ret = \'\'\n  end = Math.min(buf.length, end)\n',
      replace: 'function asciiSlice (buf, start, end) {\n  let ret = \'\'\n  end = Math.min(buf.length, end)\n  if (end - start > __runjs_bulk().BULK_MIN) return __runjs_bulkSlice(buf, start, end, \'ascii\')\n',
    },
    {
      find: 'function latin1Slice (buf, start, end) {\n  let ret = \'\'\n  end = Math.min(buf.length, end)\n',
      replace: 'function latin1Slice (buf, start, end) {\n  let ret = \'\'\n  end = Math.min(buf.length, end)\n  if (end - start > __runjs_bulk().BULK_MIN) return __runjs_bulkSlice(buf, start, end, \'latin1\')\n',
    },
    {
      find: '  if (!end || end < 0 || end > len) end = len\n\n  let out = \'\'\n  for (let i = start; i < end; ++i) {\n    out += hexSliceLookupTable[buf[i]]\n',
      replace: '  if (!end || end < 0 || end > len) end = len\n  if (end - start > __runjs_bulk().BULK_MIN) return __runjs_bulkSlice(buf, start, end, \'hex\')\n\n  let out = \'\'\n  for (let i = start; i < end; ++i) {\n    out += hexSliceLookupTable[buf[i]]\n',
    },
  ],
  // events 3.3.0 (Node 14's EventEmitter) and what Node 24 changed: Node's argument errors, the
  // MaxListenersExceededWarning through process.emitWarning (so process.on('warning') sees it)
  // with Node's text, and captureRejections (constructor option and the static default).
  'events/events.js': [
    // EventTargets warn from the same default (web/event-target.js), as Node's do.
    { find: '    defaultMaxListeners = arg;\n', replace: "    defaultMaxListeners = arg;\n    require('runjs:part/core').shared.setEventTargetDefaultMaxListeners(arg);\n" },
    {
      find: "function ProcessEmitWarning(warning) {\n  if (console && console.warn) console.warn(warning);\n}\n",
      replace: "function ProcessEmitWarning(warning) {\n  require('runjs:part/core').process.emitWarning(warning);\n}\nconst __runjs_shared = () => require('runjs:part/core').shared\nfunction __runjs_validateCount(n, name) {\n  if (typeof n !== 'number') throw __runjs_shared().invalidArgType(name, 'of type number', n)\n  if (n < 0 || NumberIsNaN(n)) throw __runjs_shared().outOfRange(name, '>= 0', n)\n}\nconst kCapture = Symbol('kCapture')\nconst kShapeMode = Symbol('shapeMode')\nconst kRejection = Symbol.for('nodejs.rejection')\nfunction __runjs_addCatch(that, promise, type, args) {\n  try {\n    const then = promise.then\n    if (typeof then === 'function') {\n      then.call(promise, undefined, function (err) {\n        require('runjs:part/core').process.nextTick(__runjs_emitRejection, that, err, type, args)\n      })\n    }\n  } catch (err) {\n    that.emit('error', err)\n  }\n}\nfunction __runjs_emitRejection(ee, err, type, args) {\n  if (typeof ee[kRejection] === 'function') {\n    require('runjs:part/core').host.watchDropped(ee[kRejection](err, type, ...args))\n  } else {\n    const prev = ee[kCapture]\n    try {\n      ee[kCapture] = false\n      ee.emit('error', err)\n    } finally {\n      ee[kCapture] = prev\n    }\n  }\n}\n",
    },
    { find: "function EventEmitter() {\n  EventEmitter.init.call(this);\n}\n", replace: "function EventEmitter(opts) {\n  EventEmitter.init.call(this, opts);\n}\n" },
    {
      find: "    throw new TypeError('The \"listener\" argument must be of type Function. Received type ' + typeof listener);\n",
      replace: "    throw __runjs_shared().invalidArgType('listener', 'of type function', listener);\n",
    },
    {
      find: "    if (typeof arg !== 'number' || arg < 0 || NumberIsNaN(arg)) {\n      throw new RangeError('The value of \"defaultMaxListeners\" is out of range. It must be a non-negative number. Received ' + arg + '.');\n    }\n",
      replace: "    __runjs_validateCount(arg, 'defaultMaxListeners');\n",
    },
    {
      find: "EventEmitter.init = function() {\n",
      replace: "Object.defineProperty(EventEmitter.prototype, kCapture, { value: false, writable: true, enumerable: false, configurable: true });\nObject.defineProperty(EventEmitter, 'captureRejections', {\n  enumerable: true,\n  get: function() { return EventEmitter.prototype[kCapture]; },\n  set: function(value) {\n    if (typeof value !== 'boolean') throw __runjs_shared().invalidArgType('EventEmitter.captureRejections', 'of type boolean', value);\n    EventEmitter.prototype[kCapture] = value;\n  }\n});\nObject.defineProperty(EventEmitter, 'captureRejectionSymbol', { value: kRejection, enumerable: true, writable: false, configurable: true });\nEventEmitter.init = function(opts) {\n  this[kShapeMode] = !(this._events === undefined || this._events === Object.getPrototypeOf(this)._events);\n  if (opts && opts.captureRejections) {\n    if (typeof opts.captureRejections !== 'boolean') throw __runjs_shared().invalidArgType('options.captureRejections', 'of type boolean', opts.captureRejections);\n    this[kCapture] = Boolean(opts.captureRejections);\n  } else {\n    this[kCapture] = EventEmitter.prototype[kCapture];\n  }\n",
    },
    {
      find: "  if (typeof n !== 'number' || n < 0 || NumberIsNaN(n)) {\n    throw new RangeError('The value of \"n\" is out of range. It must be a non-negative number. Received ' + n + '.');\n  }\n",
      replace: "  __runjs_validateCount(n, 'setMaxListeners');\n",
    },
    {
      find: "  if (typeof handler === 'function') {\n    ReflectApply(handler, this, args);\n  } else {\n    var len = handler.length;\n    var listeners = arrayClone(handler, len);\n    for (var i = 0; i < len; ++i)\n      ReflectApply(listeners[i], this, args);\n  }\n",
      replace: "  if (typeof handler === 'function') {\n    const result = ReflectApply(handler, this, args);\n    if (result !== undefined && result !== null) { if (this[kCapture] === true) __runjs_addCatch(this, result, type, args); else require('runjs:part/core').host.watchDropped(result); }\n  } else {\n    var len = handler.length;\n    var listeners = arrayClone(handler, len);\n    for (var i = 0; i < len; ++i) {\n      const result = ReflectApply(listeners[i], this, args);\n      if (result !== undefined && result !== null) { if (this[kCapture] === true) __runjs_addCatch(this, result, type, args); else require('runjs:part/core').host.watchDropped(result); }\n    }\n  }\n",
    },
    {
      find: "      var w = new Error('Possible EventEmitter memory leak detected. ' +\n                          existing.length + ' ' + String(type) + ' listeners ' +\n                          'added. Use emitter.setMaxListeners() to ' +\n                          'increase limit');\n",
      replace: "      var w = new Error('Possible EventEmitter memory leak detected. ' +\n                          existing.length + ' ' + String(type) + ' listeners ' +\n                          'added to ' + __runjs_describeEmitter(target) + '. MaxListeners is ' + m + '. Use emitter.setMaxListeners() to ' +\n                          'increase limit');\n",
    },
    // Node 24 removes every event's listeners, symbol-keyed ones too (events 3.3.0 took Object.keys).
    { find: '        var keys = Object.keys(events);\n        var key;\n', replace: '        var keys = Reflect.ownKeys(events);\n        var key;\n' },
    {
      find: "function _onceWrap(target, type, listener) {\n",
      replace: "function __runjs_describeEmitter(target) {\n  try {\n    return require('runjs:part/core').host.requirePart('util').modules.util.inspect(target, { depth: -1 });\n  } catch {\n    return '[' + (target && target.constructor && target.constructor.name || 'Object') + ']';\n  }\n}\n\nfunction _onceWrap(target, type, listener) {\n",
    },
  ],
  // node-inspect-extracted 3.3.3 captures the statics of globals some engines lack (QuickJS has
  // no Atomics), and would throw on them.
  'node-inspect-extracted/dist/inspect.js': [
    { find: '["Atomics","JSON","Math","Proxy","Reflect"].forEach(t=>{y(globalThis[t],e,t)})', replace: '["Atomics","JSON","Math","Proxy","Reflect"].forEach(t=>{globalThis[t]&&y(globalThis[t],e,t)})' },
    // Its primordials table is built from the live globals when the part loads, i.e. possibly after
    // user code replaced them: use the table of boot-time captures instead (the original stays as
    // dead code, so the patch stays a small exact match).
    // QuickJS's error.stack holds only the frames ("    at f (file:1:2)…"), V8's starts with
    // "Name: message": prepend that line, as on V8 and Node, so inspect shows what was thrown.
    { find: 'function ir(t,e){let n;try{n=e.stack}catch{}if(n){if("string"==typeof n)return n;', replace: 'function ir(t,e){let n;try{n=e.stack}catch{}if(n){if("string"==typeof n)return /^\\s*at /.test(n)?`${M(e)}\\n${n}`:n;' },
    { find: '683(t){const e={__proto__:null},', replace: '683(t){t.exports=require("runjs-inspect-primordials");return;const e={__proto__:null},' },
    // Its util.types stand-in tells builtins apart by Symbol.toStringTag, so inspect took an object
    // that only claims a tag (a Buffer's copy tagged 'Uint8Array') for the builtin and threw on its
    // getters; Node's checks are the engine's brand checks. Use node:util's types (brand checks).
    { find: '499(t,e,n){const r=n(683),', replace: '499(t,e,n){t.exports=require("runjs-util-types").types;return;const r=n(683),' },
    // Its getOwnNonIndexProperties (Node's is native) built a descriptor object and an entry array
    // per array index: inspecting a 10⁶-element array needed ~100 MB. Names only, and a descriptor
    // only for the keys that are not indices.
    {
      find: 'getOwnNonIndexProperties:function(t,e=2){const n=a(t),r=[];for(const[t,o]of s(n))if(!/^(0|[1-9][0-9]*)$/.test(t)||l(t,10)>=2**32-1){if(2===e&&!o.enumerable)continue;r.push(t)}',
      replace: 'getOwnNonIndexProperties:function(t,e=2){const r=[],g=n(683).ObjectGetOwnPropertyNames(t);for(let i=0;i<g.length;i++){const k=g[i],d=k.charCodeAt(0);if(d>=48&&d<=57&&/^(0|[1-9][0-9]*)$/.test(k)&&l(k,10)<2**32-1)continue;if(2===e&&!c(t,k).enumerable)continue;r.push(k)}',
    },
    // Its `join` is Array.prototype.join, which flattens every level's output into one flat string:
    // on a deep structure that is quadratic (a 1,000-level circular object inspected with
    // `depth: Infinity` took minutes, Node one second). Node's own join concatenates, which leaves
    // the engine's rope strings unflattened.
    {
      find: 'join:o,removeColors:',
      replace: 'join:(t,e)=>{let s="";if(t.length!==0){const l=t.length-1;for(let i=0;i<l;i++){s+=t[i];s+=e}s+=t[l]}return s},removeColors:',
    },
    // Node stops expanding once one indentation level's output passes 2 ** 27 characters; such a
    // result (a 1,000-level circular object at `depth: Infinity` makes 135 million characters)
    // does not fit a run's heap — QuickJS has no rope strings, and V8's ropes needed more than
    // 16 MB. runjs stops at 2 ** 21 (docs/script-environment.md, util.inspect).
    { find: 'T>2**27&&(t.depth=-1)', replace: 'T>2**21&&(t.depth=-1)' },
    // Node's internalGetConstructorName is V8's (the function that made the object, also with its
    // prototype removed: `[Foo: null prototype] {}`); the stub read `constructor.name`, then the tag.
    // Ask V8 first (util/constructor-name.js; QuickJS answers undefined and the stub goes on).
    {
      find: 'getConstructorName(t){if(!t||"object"!=typeof t)throw new i("Invalid object");',
      replace: 'getConstructorName(t){if(!t||"object"!=typeof t)throw new i("Invalid object");const v=require("runjs-constructor-name").engineConstructorName(t);if(v!==void 0)return v;',
    },
    // The bundle is minified: `inspect` itself would be named `Nn` (`{ [inspect.custom]: inspect }`
    // shows the function's name, as in Node's test-util-inspect.js).
    { find: '}Nn.custom=Ne,', replace: '}ft(Nn,"name",{__proto__:null,value:"inspect"}),Nn.custom=Ne,' },
    // Node previews a WeakMap's/WeakSet's entries with showHidden (V8's native previewEntries); the
    // stub answered `[[], false]`, which inspect printed as one entry `[ [length]: 0 ] => false`.
    // runjs cannot see a weak collection's entries: `<items unknown>`, as without showHidden.
    { find: 'm=t.showHidden?Ar:xr;', replace: 'm=xr;' },
    { find: 'm=t.showHidden?vr:xr;', replace: 'm=xr;' },
    // A getter that returns a function (`getters: true`) shows the function as Node 24 does,
    // `[Getter] [Function: x]`; the extracted code formatted it as a primitive and threw.
    { find: 'else if("object"==typeof s)c=`${r(`[${e}]`,o)} ${nr(t,s,n)}`', replace: 'else if("object"==typeof s||"function"==typeof s)c=`${r(`[${e}]`,o)} ${nr(t,s,n)}`' },
    // Node's inspect recurses until the stack overflows and prints the innermost object as
    // `[Object: Inspection interrupted prematurely. Maximum call stack size exceeded.]`; with
    // Node's stack that is about a thousand levels deep. runjs's V8 stack is about eight times
    // deeper, so a 100,000-node linked list inspected with `depth: Infinity` built a string of
    // tens of MB and ran out of the default heap: past 1,000 levels the object is shown as
    // interrupted, as Node shows it at its stack's end.
    { find: 'o+=1,t.seen.push(e),t.currentDepth=o;const k=t.indentationLvl;', replace: 'o+=1,t.seen.push(e),t.currentDepth=o;const k=t.indentationLvl;if(o>1e3)return t.seen.pop(),t.stylize(`[${re(er(e,c,u),0,-1)}: Inspection interrupted prematurely. Maximum call stack size exceeded.]`,"special");' },
    // Node's getPromiseDetails is native; the stub always answered "pending". Ask the engine
    // where it can tell (QuickJS, core.host.promiseDetails): 0 pending, 1 fulfilled, 2 rejected (-1: no promise).
    {
      find: 'getPromiseDetails:()=>[g,void 0]',
      replace: 'getPromiseDetails:t=>{const d=require("runjs:part/core").host.promiseDetails;if(d===void 0)return[g,void 0];const r=d(t);return r[0]<=0?[g,void 0]:[r[0]===2?h:1,r[1]]}',
    },
  ],
};

export function applyPatches(key: string, source: string): string {
  let out = source;
  for (const p of PATCHES[key] ?? []) {
    const count = out.split(p.find).length - 1;
    if (count !== 1) throw new Error(`patch for ${key} matched ${count} times: ${JSON.stringify(p.find.slice(0, 60))}`);
    out = out.replace(p.find, () => p.replace);
  }
  return out;
}
