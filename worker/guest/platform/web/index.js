// The `web` part: the web globals every runtime has (events, abort, URL, encoding, crypto,
// structuredClone, performance, navigator, process, …). Core installs each of them as a lazy
// global; the first one a script touches evaluates this part.
import { DOMException, QuotaExceededError } from './dom-exception.js';
import { Event, EventTarget, CustomEvent } from './event-target.js';
import { MessageEvent, ErrorEvent, CloseEvent, PromiseRejectionEvent } from './more-events.js';
import { AbortController, AbortSignal } from './abort.js';
import { MessageChannel, MessagePort } from './message-channel.js';
import { queueMicrotask, reportError } from './microtask.js';
import { addEventListener, removeEventListener, dispatchEvent } from './global-events.js';
import { setImmediate, clearImmediate } from './timers.js';
import { structuredClone } from './structured-clone.js';
import { atob, btoa } from './base64.js';
import { TextEncoder, TextDecoder } from './encoding.js';
import { URL, URLSearchParams } from './url.js';
import { performance, Performance, PerformanceEntry, PerformanceMark, PerformanceMeasure } from './performance.js';
import { navigator, Navigator } from './navigator.js';
import { crypto, Crypto } from './crypto.js';
import { process } from './process.js';
import { require } from './registry-require.js';
import * as sharedModule from './shared.js';

export { extendConsole } from './console-extras.js';

export const globals = {
  queueMicrotask, reportError, structuredClone, atob, btoa, setImmediate, clearImmediate,
  DOMException, QuotaExceededError, Event, EventTarget, CustomEvent, AbortController, AbortSignal,
  MessageEvent, ErrorEvent, CloseEvent, PromiseRejectionEvent, MessageChannel, MessagePort,
  TextEncoder, TextDecoder, URL, URLSearchParams,
  performance, Performance, PerformanceEntry, PerformanceMark, PerformanceMeasure,
  navigator, Navigator, crypto, Crypto, process, require,
  addEventListener, removeEventListener, dispatchEvent,
};
export const shared = sharedModule;
export { process };
export const abortModule = { AbortController, AbortSignal, default: AbortController };
export const modules = { process };
