// What the core shares with the lazy parts (reached there as `core.shared` via runjs:part/core).
export { op, opAsync, failRun, formatError, formatArg, onRunStart } from './host.js';
export { nodeError, invalidArgType, outOfRange } from './errors.js';
export { describeType, queueMicrotask } from './microtask.js';
export { utf8Encode, utf8Decode } from './encoding.js';
export { encodingForLabel } from './encoding-labels.js';
export { bytesToBase64, base64ToBytes, latin1 } from './base64.js';
export { BULK_MIN, hostToBytes, hostToText, hostByteLength } from './bulk-codec.js';
export { registerCloneable } from './structured-clone.js';
export { randomBytes, getRandomValues, randomUUID } from './crypto.js';
export { signalAbort } from './abort.js';
export { sleepUnref } from './timers.js';
export { parseUrlencoded, serializeUrlencoded } from './url.js';
export { now } from './clock.js';
export { defineHidden } from './install.js';
export { requirePart } from './parts.js';
export { VERSION } from './navigator.js';
export { resolveObjectURL } from './object-urls.js';
export { eventTargetListeners } from './event-target.js';
