// navigator: what a script may ask about its host. Fixed values; the user agent names runjs.
/* global __RUNJS_VERSION__ */
const CREATE = Symbol('create');

export class Navigator {
  constructor(token) {
    if (token !== CREATE) throw new TypeError('Illegal constructor');
  }
  get userAgent() { return `runjs/${__RUNJS_VERSION__}`; }
  get language() { return 'en-US'; }
  get languages() { return ['en-US']; }
  get hardwareConcurrency() { return 1; }
  get platform() { return 'linux'; }
  get onLine() { return false; }
}
Object.defineProperty(Navigator.prototype, Symbol.toStringTag, { value: 'Navigator', configurable: true });

export const navigator = new Navigator(CREATE);
export const VERSION = __RUNJS_VERSION__;
