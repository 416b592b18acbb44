// node:timers and node:timers/promises: Timeout objects (ref/unref/hasRef/refresh/close,
// Symbol.toPrimitive), ordering, argument errors, the promise API with signals, scheduler.
const t = () => require('node:timers');
const tp = () => require('node:timers/promises');
const err = (e) => [e.name, e.code, e.message];
const corpus = {
  'module keys': () => Object.keys(t()).sort(),
  'promises keys': () => Object.keys(tp()).sort(),
  'Timeout shape': () => { const x = t().setTimeout(() => {}, 1); const r = [x.constructor.name, typeof x.ref, typeof x.unref, x.hasRef(), x.unref() === x, x.hasRef(), x.ref() === x, typeof x[Symbol.toPrimitive](), typeof x.refresh, typeof x.close]; t().clearTimeout(x); return r; },
  'Timeout close': () => { const x = t().setTimeout(() => {}, 1); return [x.close() === x, x.hasRef()]; },
  'clearTimeout by primitive': () => new Promise((r) => { let fired = false; const x = t().setTimeout(() => { fired = true; }, 1); t().clearTimeout(+x); setTimeout(() => r(fired), 20); }),
  'clearTimeout odd values': () => [t().clearTimeout(), t().clearTimeout(null), t().clearTimeout('x'), t().clearTimeout({})],
  'setTimeout args': () => new Promise((r) => t().setTimeout((a, b) => r([a, b]), 1, 'x', 2)),
  'setTimeout not a function': () => t().setTimeout('code', 1),
  'setTimeout: negative and huge delays': () => new Promise((r) => { const out = []; t().setTimeout(() => out.push('neg'), -5); t().setTimeout(() => out.push('nan'), NaN); t().setTimeout(() => { out.push('huge'); r(out); }, 2 ** 31); }),
  'delay warnings': () => new Promise((r) => { const out = []; const on = (w) => out.push(`${w.name}: ${w.message}`); process.on('warning', on); for (const d of [-5, NaN, 2 ** 31, undefined, 'x', 0, 10]) t().clearTimeout(t().setTimeout(() => {}, d)); setTimeout(() => { process.off('warning', on); r(out); }, 10); }),
  // Settles when the refreshed timer fires (no wall-clock deadline: the machine may be loaded).
  // The refresh and the timer it must now follow are set in one callback, so their order does not
  // depend on how late a loaded machine fires anything (was: 15/30/35 ms apart, flaky under load).
  'refresh restarts': () => new Promise((r) => { const out = []; const x = t().setTimeout(() => { out.push('a'); r(out); }, 50); t().setTimeout(() => { x.refresh(); out.push('refreshed'); t().setTimeout(() => out.push('b'), 10); }, 1); }),
  // The refresh is scheduled from the first firing, so no clock decides whether it comes after it.
  'refresh after fire': () => new Promise((r) => { let n = 0; const x = t().setTimeout(() => { if (++n === 2) r(n); else t().setTimeout(() => x.refresh(), 1); }, 1); }),
  'order: immediate vs timeout 0 inside timer': () => new Promise((r) => { const out = []; t().setTimeout(() => { t().setTimeout(() => out.push('timeout'), 0); t().setImmediate(() => out.push('immediate')); t().setTimeout(() => r(out), 20); }, 0); }),
  'order: same delay in order': () => new Promise((r) => { const out = []; for (let i = 0; i < 5; i++) t().setTimeout(() => out.push(i), 5); t().setTimeout(() => r(out), 20); }),
  'setImmediate object': () => { const i = t().setImmediate(() => {}); const r = [i.constructor.name, i.hasRef(), typeof i.ref, typeof i.unref]; t().clearImmediate(i); return r; },
  'setImmediate not a function': () => t().setImmediate(1),
  'setInterval': async () => { let n = 0; await new Promise((r) => { const x = t().setInterval(() => { if (++n === 3) { t().clearInterval(x); r(); } }, 1); }); return n; },
  'promises.setTimeout value': () => tp().setTimeout(1, 'v'),
  'promises.setTimeout bad delay': async () => { try { await tp().setTimeout('x'); return 'ok'; } catch (e) { return err(e); } },
  'promises.setTimeout bad options': async () => { try { await tp().setTimeout(1, 'v', 1); } catch (e) { return err(e); } },
  'promises.setTimeout bad signal': async () => { try { await tp().setTimeout(1, 'v', { signal: 1 }); } catch (e) { return err(e); } },
  'promises.setTimeout bad ref': async () => { try { await tp().setTimeout(1, 'v', { ref: 1 }); } catch (e) { return err(e); } },
  'promises.setTimeout aborted': async () => { try { await tp().setTimeout(1000, 'v', { signal: AbortSignal.abort('why') }); } catch (e) { return [...err(e), e.cause]; } },
  'promises.setTimeout abort later': async () => { const c = new AbortController(); const p = tp().setTimeout(1000, 'v', { signal: c.signal }); c.abort(); try { await p; } catch (e) { return [...err(e), String(e.cause)]; } },
  'promises.setImmediate value': () => tp().setImmediate('i'),
  'promises.setImmediate aborted': async () => { try { await tp().setImmediate('v', { signal: AbortSignal.abort() }); } catch (e) { return err(e); } },
  'promises.setInterval': async () => { const out = []; for await (const v of tp().setInterval(1, 'x')) { out.push(v); if (out.length === 3) break; } return out; },
  'promises.setInterval bad options': async () => { try { for await (const v of tp().setInterval(1, 'x', 'bad')) { void v; break; } } catch (e) { return err(e); } },
  'scheduler.wait': async () => [await tp().scheduler.wait(1), typeof tp().scheduler.yield],
  'scheduler.wait aborted': async () => { try { await tp().scheduler.wait(1000, { signal: AbortSignal.abort() }); } catch (e) { return err(e); } },
  'scheduler.wait bad delay': async () => { try { await tp().scheduler.wait('x'); return 'ok'; } catch (e) { return err(e); } },
  'scheduler.yield': async () => { const out = []; const p = tp().scheduler.yield().then(() => out.push('yield')); Promise.resolve().then(() => out.push('micro')); await p; return out; },
  'scheduler shape': () => [tp().scheduler.constructor.name, Object.getOwnPropertyNames(Object.getPrototypeOf(tp().scheduler)).sort()],
  'scheduler.wait on wrong this': async () => { try { await tp().scheduler.wait.call({}, 1); } catch (e) { return err(e); } },
  'promisified setTimeout': () => require('node:util').promisify(t().setTimeout)(1, 'p'),
  'timers.promises': () => t().promises === tp(),
  'node:timers: callbacks run with the Timeout or Immediate as this': () => new Promise((resolve) => { const T = require('node:timers'); const out = []; const t = T.setTimeout(function () { out.push(this === t); if (out.length === 2) resolve(out); }, 1); const i = T.setImmediate(function () { out.push(this === i); if (out.length === 2) resolve(out); }); }),
  'node:timers: Symbol.dispose clears a Timeout and an Immediate': () => new Promise((resolve) => { const T = require('node:timers'); let fired = 0; const t = T.setTimeout(() => { fired++; }, 1); const i = T.setImmediate(() => { fired++; }); t[Symbol.dispose](); i[Symbol.dispose](); T.setTimeout(() => resolve(fired), 20); }),
  'global setImmediate is node:timers\' and returns an Immediate': () => { const i = setImmediate(() => {}); const r = [setImmediate === t().setImmediate, clearImmediate === t().clearImmediate, i.constructor.name, i.hasRef(), i.unref() === i, i.hasRef(), i.ref().hasRef()]; clearImmediate(i); return r; },
  'clearImmediate ignores what is not an Immediate': () => [clearImmediate(), clearImmediate(null), clearImmediate(1), clearImmediate({})],
  'global setImmediate not a function': () => setImmediate('x'),
  // An unref'd immediate runs while something keeps the run alive (the timeout), not after.
  'unref\'d immediates': () => new Promise((resolve) => { const out = []; setImmediate(() => out.push('unref kept alive')).unref(); t().setTimeout(() => { setImmediate(() => out.push('never')).unref(); out.push('timeout'); resolve(out); }, 5); }),
  // Immediates set by immediates wait for the next loop turn, behind a timer that expired meanwhile.
  'immediate queued by an immediate runs after an expired timer': () => new Promise((resolve) => { const out = []; setImmediate(() => { out.push('i1'); t().setTimeout(() => out.push('timer'), 1); const end = Date.now() + 3; while (Date.now() < end); setImmediate(() => { out.push('i2'); resolve(out); }); }); }),
  'setInterval keeps firing after a throw': () => new Promise((resolve) => { let n = 0; const on = () => { if (++n === 2) { t().clearInterval(x); process.off('uncaughtException', on); resolve(n); } }; process.on('uncaughtException', on); const x = t().setInterval(() => { throw new Error('tick'); }, 1); }),
  'setInterval: this, arguments and refresh': () => new Promise((resolve) => { const out = []; const x = t().setInterval(function (a) { out.push(this === x, a); if (out.length === 4) { x.close(); resolve([out, x.hasRef(), x.refresh() === x]); } }, 1, 'arg'); }),
  'promises.setInterval abort while waiting': async () => { const c = new AbortController(); const it = tp().setInterval(1000, 'v', { signal: c.signal })[Symbol.asyncIterator](); const p = it.next(); c.abort(); try { await p; } catch (e) { return err(e); } },
  'node:timers: setImmediate passes its arguments': () => new Promise((resolve) => require('node:timers').setImmediate((a, b) => resolve([a, b]), 1, 'two')),
};
