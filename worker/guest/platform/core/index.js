// The guest platform's core, evaluated in every realm as part of the prelude (before any user
// code). Booting a realm is on every run's path, so the core does almost nothing at boot: it
// installs every web global and `Buffer`, streams, fetch classes… as lazy accessors. The part
// that defines a global (lazy-table.js; the common web globals are the `web` part) is
// evaluated the first time a script touches one of them; the accessor then becomes a plain value.
// Nothing here may call a host op while booting: a realm is booted before its run exists.
import { defineGlobals, showLazyGlobalsAsData } from './install.js';
import { GLOBAL_PARTS } from './lazy-table.js';
import { preloadCompiled, preloadNamed, preloadParts, registerPart, requirePart, usedParts } from './parts.js';
import { builtin, require } from './registry.js';
import { installConsoleExtras } from './console-extras.js';
import { isPlatformInstance } from './webidl-shape.js';
import { op, opAsync, formatError, formatArg, onRunStart, setBeforeRun, failRun, failRunNow, exposeToEngine, promiseDetails, setUncaughtHandler, watchDropped, setAfterTask, currentFrame, enterFrame, runInFrame } from './host.js';
import { now, timeOrigin } from './clock.js';

const g = globalThis;
// The prelude's own (captured before any user code).
const fromPrelude = { setTimeout: g.setTimeout, clearTimeout: g.clearTimeout, console: g.console };

const fromPart = (name) => requirePart(GLOBAL_PARTS[name]).globals[name];
showLazyGlobalsAsData(defineGlobals({ self: g, global: g }, GLOBAL_PARTS, fromPart));

Object.defineProperty(g, Symbol.for('runjs.builtin'), { value: builtin });
// Node's global object carries its own tag (`Object.prototype.toString.call(globalThis)` is
// '[object global]', which assert's deep equality compares); QuickJS's has it natively, V8's not.
if (!Object.hasOwn(g, Symbol.toStringTag)) Object.defineProperty(g, Symbol.toStringTag, { value: 'global', writable: false, enumerable: false, configurable: true });

installConsoleExtras(fromPrelude.console);

/** What the lazy parts see of core (`runjs:part/core`). */
const web = () => requirePart('web');
/**
 * Deep equality of objects whose state is private to a part (crypto's KeyObject, webcrypto's
 * CryptoKey): each such part adds `(a, b) => boolean | undefined` (undefined: `a` is not its).
 */
const deepEqualHooks = [];
const coreExports = {
  host: { op, opAsync, formatError, formatArg, onRunStart, failRun, failRunNow, setUncaughtHandler, watchDropped, setAfterTask, now, timeOrigin, requirePart, require, promiseDetails, isPlatformInstance, currentFrame, enterFrame, runInFrame, deepEqualHooks },
  globals: new Proxy(fromPrelude, { get: (t, name) => (Object.hasOwn(t, name) ? t[name] : web().globals[name]) }),
};
Object.defineProperties(coreExports, {
  process: { get: () => web().process },
  abortModule: { get: () => web().abortModule },
  modules: { get: () => web().modules },
  shared: { get: () => web().shared },
});
registerPart('core', coreExports);
exposeToEngine('preloadParts', preloadParts);
exposeToEngine('preloadCompiled', preloadCompiled);
exposeToEngine('usedParts', usedParts);
setBeforeRun(preloadNamed);
