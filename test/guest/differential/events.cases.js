// node:events: EventEmitter semantics, errors, static helpers.
const E = () => require('node:events');
const corpus = {
  'emit order and once': () => { const e = new (E())(); const out = []; e.on('x', (v) => out.push(`a${v}`)); e.once('x', (v) => out.push(`b${v}`)); e.prependListener('x', (v) => out.push(`p${v}`)); e.emit('x', 1); e.emit('x', 2); return out; },
  'error without listener': () => new (E())().emit('error', new Error('boom')),
  'error non-error': () => new (E())().emit('error', { a: 1 }),
  'listener not a function': () => new (E())().on('x', 1),
  'listenerCount and names': () => { const e = new (E())(); const f = () => {}; e.on('a', f); e.on('a', () => {}); e.on(Symbol.for('s'), f); return [e.listenerCount('a'), e.listenerCount('a', f), e.eventNames().map(String)]; },
  'setMaxListeners bad': () => new (E())().setMaxListeners(-1),
  'defaultMaxListeners': () => E().defaultMaxListeners,
  'once promise': async () => { const e = new (E())(); setTimeout(() => e.emit('go', 1, 2), 1); return E().once(e, 'go'); },
  'once rejects on error': async () => { const e = new (E())(); setTimeout(() => e.emit('error', new Error('bad')), 1); try { await E().once(e, 'go'); } catch (err) { return err.message; } },
  'on async iterator': async () => { const e = new (E())(); const out = []; setTimeout(() => { e.emit('d', 1); e.emit('d', 2); }, 1); for await (const [v] of E().on(e, 'd')) { out.push(v); if (out.length === 2) break; } return out; },
  'addAbortListener runs after stopImmediatePropagation': () => { const c = new AbortController(); const out = []; c.signal.addEventListener('abort', (e) => { out.push('first'); e.stopImmediatePropagation(); }); c.signal.addEventListener('abort', () => out.push('stopped')); E().addAbortListener(c.signal, (e) => out.push(e.target === c.signal)); c.abort(); return out; },
  'getEventListeners': () => { const t = new EventTarget(); const f = () => {}; t.addEventListener('x', f); return E().getEventListeners(t, 'x').length; },
  'removeAllListeners': () => { const e = new (E())(); e.on('a', () => {}); e.on('b', () => {}); e.removeAllListeners('a'); return e.eventNames(); },
  'rawListeners once wrapper': () => { const e = new (E())(); const f = () => {}; e.once('a', f); const [w] = e.rawListeners('a'); return [w === f, w.listener === f]; },
  'EventEmitterAsyncResource': () => { const { EventEmitterAsyncResource } = E(); const e = new EventEmitterAsyncResource({ name: 'X' }); const out = []; e.on('a', function (v) { out.push(v, this === e); }); e.emit('a', 1); return [out, typeof e.asyncId, e.asyncResource.eventEmitter === e, e instanceof E()]; },
  'EventEmitterAsyncResource bad options': () => new (E().EventEmitterAsyncResource)(5),
  'module keys': () => Object.keys(E()).sort(),
  'EventTarget max listeners warning': () => warnings((target) => { for (let i = 0; i < 12; i++) target.addEventListener('x', () => {}); for (let i = 0; i < 12; i++) target.addEventListener('y', () => {}); }),
  'EventTarget same listener counted once': () => warnings((target) => { const f = () => {}; for (let i = 0; i < 12; i++) target.addEventListener('x', f); }),
  'EventTarget setMaxListeners': () => warnings((target) => { E().setMaxListeners(1, target); target.addEventListener('x', () => {}); target.addEventListener('x', () => {}); return E().getMaxListeners(target); }),
  'EventTarget defaultMaxListeners': () => warnings((target) => { const d = E().defaultMaxListeners; E().defaultMaxListeners = 2; try { const t2 = new EventTarget(); for (let i = 0; i < 3; i++) t2.addEventListener('z', () => {}); return E().getMaxListeners(t2); } finally { E().defaultMaxListeners = d; } }),
  'AbortSignal has no listener maximum': () => warnings(() => { const s = new AbortController().signal; for (let i = 0; i < 12; i++) s.addEventListener('abort', () => {}); return E().getMaxListeners(s); }),
  'once: an aborted signal removes every listener once added': async () => { const ee = new (E())(); const ac = new AbortController(); const p = E().once(ee, 'foo', { signal: ac.signal }); ac.abort(); try { await p; } catch (e) { return [e.name, e.code, ee.listenerCount('foo'), ee.listenerCount('error')]; } },
  'once: an EventTarget resolves [event] and ignores its error events': async () => { const et = new EventTarget(); setTimeout(() => { et.dispatchEvent(new Event('error')); et.dispatchEvent(new Event('foo')); }, 1); const [e] = await E().once(et, 'foo'); return e.type; },
  'once: not an emitter rejects': () => E().once({}, 'x'),
  'on: an EventTarget yields [event]': async () => { const et = new EventTarget(); setTimeout(() => { et.dispatchEvent(new Event('tick')); et.dispatchEvent(new Event('tick')); }, 1); const got = []; for await (const [e] of E().on(et, 'tick')) { got.push(e.type); if (got.length === 2) break; } return got; },
  'on: not an emitter': () => E().on({}, 'x'),
  'on: options checked': () => [1, null, { signal: 1 }, { highWaterMark: 0 }, { lowWaterMark: 1.5 }, { highWaterMark: 'a' }].map((o) => { try { E().on(new (E())(), 'x', o); return 'ok'; } catch (e) { return [e.name, e.code, e.message]; } }),
  'on: throw() without an Error': () => E().on(new (E())(), 'x').throw(),
  'on: throw() ends after the queued events': async () => { const ee = new (E())(); const it = E().on(ee, 'x'); ee.emit('x', 1); it.throw(new Error('stop')); const got = []; try { for await (const v of it) got.push(v); } catch (e) { got.push(e.message); } return [got, ee.listenerCount('x'), ee.listenerCount('error')]; },
  'on: close events end the iteration': async () => { const ee = new (E())(); const it = E().on(ee, 'x', { close: ['end'] }); setTimeout(() => { ee.emit('x', 1); ee.emit('end'); }, 1); const got = []; for await (const v of it) got.push(v); return [got, ee.listenerCount('x'), ee.listenerCount('end'), ee.listenerCount('error')]; },
  'on: iterator shape': () => { const it = E().on(new (E())(), 'x'); return [Object.getPrototypeOf(it) === Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}.prototype)), Object.keys(it)]; },
  'getEventListeners: not an emitter': () => E().getEventListeners('x'),
  'getMaxListeners: not an emitter': () => E().getMaxListeners({}),
  'kMaxEventTargetListeners symbols': () => [String(E().kMaxEventTargetListeners), String(E().kMaxEventTargetListenersWarned)],
  // Event/EventTarget argument errors: Node's codes and texts (the WebIDL agrees on TypeError).
  'Event: no type': () => new Event(),
  'Event: options a number': () => new Event('x', 1),
  'Event: options null': () => new Event('x', null).type,
  'CustomEvent: no type': () => new CustomEvent(),
  'Event: initEvent without a type': () => new Event('x').initEvent(),
  'addEventListener: one argument': () => new EventTarget().addEventListener('x'),
  'addEventListener: listener a string': () => new EventTarget().addEventListener('x', 'str'),
  'addEventListener: null listener warns': () => warnings((target) => target.addEventListener('x', null)),
  'removeEventListener: one argument': () => new EventTarget().removeEventListener('x'),
  'dispatchEvent: no event': () => new EventTarget().dispatchEvent(),
  'dispatchEvent: not an Event': () => new EventTarget().dispatchEvent({ type: 'x' }),
  'EventTarget method on another object': () => EventTarget.prototype.addEventListener.call({}, 'x', () => {}),
  'Event getter on another object': () => Object.getOwnPropertyDescriptor(Event.prototype, 'type').get.call({}),
  'CustomEvent detail on another object': () => Reflect.get(CustomEvent.prototype, 'detail', {}),
  'inspect an Event': () => require('node:util').inspect(new CustomEvent('x', { cancelable: true })).replace(/timeStamp: [\d.]+/, 'timeStamp: N'),
  'inspect an Event past the depth': () => require('node:util').inspect({ e: [new Event('x')] }, { depth: 0 }),
  'removeAllListeners(): symbol-keyed events too, each with removeListener': () => { const E = require('node:events'); const e = new E(); const sym = Symbol('s'); const f = () => {}; const seen = []; e.on(sym, f); e.on('x', f); e.on('removeListener', (name, l) => seen.push([typeof name === 'symbol' ? name.toString() : name, l === f])); e.removeAllListeners(); return [seen, e.listenerCount(sym), Reflect.ownKeys(e._events).length]; },
  'domain: an added emitter\'s unhandled error goes to the domain': () => { const domain = require('node:domain'); const E = require('node:events'); const d = domain.create(); const e = new E(); d.add(e); const got = []; d.on('error', (er) => got.push([er instanceof Error ? [er.code, er.message] : er, er?.domainEmitter === e, er?.domain === d, er?.domainThrown])); const r = [e.emit('error'), e.emit('error', null), e.emit('error', 42), e.emit('error', new Error('x'))]; const members = d.members.length === 1 && d.members[0] === e; d.remove(e); return [r, got, members, e.domain, d.members.length, d instanceof E, typeof domain.Domain, Object.keys(domain).sort()]; },
};

/** What process 'warning' listeners see while `fn(target)` adds listeners to a fresh EventTarget. */
function warnings(fn) {
  return new Promise((resolve) => {
    const got = [];
    const target = new EventTarget();
    const h = (w) => got.push([w.name, w.message, w.type, w.count, w.target === target]);
    process.on('warning', h);
    const value = fn(target);
    setTimeout(() => { process.off('warning', h); resolve([value, got]); }, 5);
  });
}
