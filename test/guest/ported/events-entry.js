// Runs the `events` package's own Node-derived test files (node_modules/events/tests) against
// runjs's node:events, the way their index.js does: each file is one tape test.
import test from './tape-shim.cjs';

const files = {
  'add-listeners': () => require('events/tests/add-listeners.js'),
  'check-listener-leaks': () => require('events/tests/check-listener-leaks.js'),
  errors: () => require('events/tests/errors.js'),
  'events-list': () => require('events/tests/events-list.js'),
  'events-once': () => require('events/tests/events-once.js'),
  'listener-count': () => require('events/tests/listener-count.js'),
  'listeners-side-effects': () => require('events/tests/listeners-side-effects.js'),
  listeners: () => require('events/tests/listeners.js'),
  'max-listeners': () => require('events/tests/max-listeners.js'),
  'method-names': () => require('events/tests/method-names.js'),
  'modify-in-emit': () => require('events/tests/modify-in-emit.js'),
  'num-args': () => require('events/tests/num-args.js'),
  once: () => require('events/tests/once.js'),
  prepend: () => require('events/tests/prepend.js'),
  'remove-all-listeners': () => require('events/tests/remove-all-listeners.js'),
  'remove-listeners': () => require('events/tests/remove-listeners.js'),
  'set-max-listeners-side-effects': () => require('events/tests/set-max-listeners-side-effects.js'),
  'special-event-names': () => require('events/tests/special-event-names.js'),
  subclass: () => require('events/tests/subclass.js'),
  symbols: () => require('events/tests/symbols.js'),
};
const common = require('events/tests/common.js');
for (const [name, load] of Object.entries(files)) {
  test(name, (t) => {
    t.on('end', () => { delete common.test; });
    common.test = t;
    const exp = load();
    if (exp && exp.then) return exp;
    t.end();
  });
}
await test.run();
