// DOMException (WebIDL): an Error subclass with a name and a legacy numeric code.
const LEGACY_CODES = {
  __proto__: null,
  IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
  NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InUseAttributeError: 10,
  InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14,
  InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20,
  URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
};
const CONSTANTS = [
  ['INDEX_SIZE_ERR', 1], ['DOMSTRING_SIZE_ERR', 2], ['HIERARCHY_REQUEST_ERR', 3], ['WRONG_DOCUMENT_ERR', 4],
  ['INVALID_CHARACTER_ERR', 5], ['NO_DATA_ALLOWED_ERR', 6], ['NO_MODIFICATION_ALLOWED_ERR', 7], ['NOT_FOUND_ERR', 8],
  ['NOT_SUPPORTED_ERR', 9], ['INUSE_ATTRIBUTE_ERR', 10], ['INVALID_STATE_ERR', 11], ['SYNTAX_ERR', 12],
  ['INVALID_MODIFICATION_ERR', 13], ['NAMESPACE_ERR', 14], ['INVALID_ACCESS_ERR', 15], ['VALIDATION_ERR', 16],
  ['TYPE_MISMATCH_ERR', 17], ['SECURITY_ERR', 18], ['NETWORK_ERR', 19], ['ABORT_ERR', 20], ['URL_MISMATCH_ERR', 21],
  ['QUOTA_EXCEEDED_ERR', 22], ['TIMEOUT_ERR', 23], ['INVALID_NODE_TYPE_ERR', 24], ['DATA_CLONE_ERR', 25],
];

const state = new WeakMap();

export class DOMException extends Error {
  constructor(message = '', options = 'Error') {
    super();
    let name = 'Error';
    let cause;
    let hasCause = false;
    if (typeof options === 'object' && options !== null) {
      name = 'name' in options ? String(options.name) : 'Error';
      if ('cause' in options) { hasCause = true; cause = options.cause; }
    } else {
      name = String(options);
    }
    state.set(this, { message: String(message), name });
    if (hasCause) Object.defineProperty(this, 'cause', { value: cause, writable: true, enumerable: false, configurable: true });
  }
  get name() { return brand(this).name; }
  get message() { return brand(this).message; }
  get code() { return LEGACY_CODES[brand(this).name] ?? 0; }
}

function brand(e) {
  const s = state.get(e);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

const constants = {};
for (let i = 0; i < CONSTANTS.length; i++) constants[CONSTANTS[i][0]] = { value: CONSTANTS[i][1], enumerable: true };
Object.defineProperties(DOMException, constants);
Object.defineProperties(DOMException.prototype, constants);
Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });

/** `new DOMException(message, name)` — the platform's shorthand. */
export function domException(message, name) {
  return new DOMException(message, name);
}

/** WebIDL `double?` option: absent → null; otherwise a finite number. */
function quotaOption(options, key) {
  const v = options[key];
  if (v === undefined) return null;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new TypeError(`Failed to construct 'QuotaExceededError': The provided double value for '${key}' is non-finite.`);
  if (n < 0) throw new RangeError(`Failed to construct 'QuotaExceededError': The '${key}' option must be non-negative.`);
  return n;
}

const quotas = new WeakMap();

/**
 * WebIDL's QuotaExceededError (a DOMException subclass since 2025, with `quota` and `requested`,
 * each null when not given). Its name is QuotaExceededError and its legacy code 22.
 */
export class QuotaExceededError extends DOMException {
  constructor(message = '', options = undefined) {
    super(message, 'QuotaExceededError');
    if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
      throw new TypeError("Failed to construct 'QuotaExceededError': The provided value is not of type 'QuotaExceededErrorOptions'.");
    }
    const o = options ?? {};
    const quota = quotaOption(o, 'quota');
    const requested = quotaOption(o, 'requested');
    if (quota !== null && requested !== null && requested < quota) {
      throw new RangeError("Failed to construct 'QuotaExceededError': The 'requested' option must be at least the 'quota' option.");
    }
    quotas.set(this, { quota, requested });
  }
  get quota() { return quotaState(this).quota; }
  get requested() { return quotaState(this).requested; }
}

function quotaState(e) {
  const s = quotas.get(e);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}
Object.defineProperty(QuotaExceededError.prototype, Symbol.toStringTag, { value: 'QuotaExceededError', configurable: true });
