// The `artifact` global: `artifact(key, mime, bytes)` stores a payload the client can download
// (REST GET /api/artifacts/{key}, MCP get_artifact) and resolves to its ArtifactMeta;
// `artifact.get(key)` resolves to the stored bytes as a Uint8Array, or null. Wrong argument
// types throw a TypeError at once; a key, mime type or size the service refuses rejects the
// promise (the host checks them: worker/ops/artifacts/). Strings are sent as text and stored as
// UTF-8; views are sent as exactly the bytes they cover.
(function () {
  'use strict';
  const g = globalThis;
  const internal = g.__runjs_internal;
  if (internal === undefined) return;
  const opAsync = internal.opAsync;

  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectGetPrototypeOf = Object.getPrototypeOf;
  const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const ArrayBufferIsView = ArrayBuffer.isView;
  const Uint8ArrayCtor = Uint8Array;
  const TypeErrorCtor = TypeError;
  const getter = (proto, name) => uncurry(ObjectGetOwnPropertyDescriptor(proto, name).get);
  const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);
  const typedArrayTag = getter(TypedArrayPrototype, Symbol.toStringTag);
  const typedArrayBuffer = getter(TypedArrayPrototype, 'buffer');
  const typedArrayOffset = getter(TypedArrayPrototype, 'byteOffset');
  const typedArrayLength = getter(TypedArrayPrototype, 'byteLength');
  const dataViewBuffer = getter(DataView.prototype, 'buffer');
  const dataViewOffset = getter(DataView.prototype, 'byteOffset');
  const dataViewLength = getter(DataView.prototype, 'byteLength');
  // Throws for anything that is not an ArrayBuffer: the brand check without instanceof.
  const arrayBufferLength = getter(ArrayBuffer.prototype, 'byteLength');
  const sharedArrayBufferLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : undefined;

  const BYTES_ERROR = 'artifact: bytes must be a Uint8Array, another TypedArray, a DataView, an ArrayBuffer, or a string';

  function isBuffer(v) {
    try { arrayBufferLength(v); return true; } catch { /* not an ArrayBuffer */ }
    if (sharedArrayBufferLength === undefined) return false;
    try { sharedArrayBufferLength(v); return true; } catch { return false; }
  }

  /** The payload as a Uint8Array over exactly the bytes the caller meant. */
  function toView(bytes) {
    if (ArrayBufferIsView(bytes)) {
      if (typedArrayTag(bytes) !== undefined) return new Uint8ArrayCtor(typedArrayBuffer(bytes), typedArrayOffset(bytes), typedArrayLength(bytes));
      return new Uint8ArrayCtor(dataViewBuffer(bytes), dataViewOffset(bytes), dataViewLength(bytes));
    }
    if (typeof bytes === 'object' && bytes !== null && isBuffer(bytes)) return new Uint8ArrayCtor(bytes);
    throw new TypeErrorCtor(BYTES_ERROR);
  }

  function checkKey(key) {
    if (typeof key !== 'string' || key === '') throw new TypeErrorCtor('artifact: key must be a non-empty string');
  }

  function artifact(key, mime, bytes) {
    checkKey(key);
    if (typeof mime !== 'string' || mime === '') throw new TypeErrorCtor('artifact: mime must be a non-empty string (e.g. "image/png")');
    if (typeof bytes === 'string') return opAsync('artifacts.put', { key, mime, text: bytes });
    return opAsync('artifacts.put', { key, mime }, toView(bytes));
  }

  function get(key) {
    checkKey(key);
    return opAsync('artifacts.get', { key });
  }

  ObjectDefineProperty(artifact, 'get', { __proto__: null, value: get, writable: true, enumerable: true, configurable: true });
  ObjectDefineProperty(g, 'artifact', { __proto__: null, value: artifact, writable: true, enumerable: false, configurable: true });
})();
