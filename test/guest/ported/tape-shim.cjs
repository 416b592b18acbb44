// A minimal `tape` for running npm packages' own test files inside the sandbox: tests run one
// after another (each ends at t.end() or when its plan is met), assertion failures are counted,
// and the last line printed is "N passed, M failed".
const queue = [];
const finishHooks = [];
let passed = 0;
let failed = 0;
const failures = [];

function record(ok, name) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

function makeT(name, done) {
  const endHooks = [];
  let planned;
  let count = 0;
  let ended = false;
  const t = {
    end(err) {
      if (err) record(false, `${name}: ${err}`);
      if (ended) return;
      ended = true;
      for (const h of endHooks) h();
      done();
    },
    on(event, fn) { if (event === 'end') endHooks.push(fn); },
    plan(n) { planned = n; },
    assertion(ok, message) {
      record(!!ok, `${name}: ${message}`);
      count++;
      if (planned !== undefined && count >= planned) t.end();
    },
    ok(v, m = 'ok') { t.assertion(v, m); },
    notOk(v, m = 'notOk') { t.assertion(!v, m); },
    pass(m = 'pass') { t.assertion(true, m); },
    fail(m = 'fail') { t.assertion(false, m); },
    error(e, m = 'error') { t.assertion(!e, `${m}: ${e}`); },
    equal(a, b, m = `${a} === ${b}`) { t.assertion(a === b, `${m} (got ${show(a)}, want ${show(b)})`); },
    notEqual(a, b, m = 'notEqual') { t.assertion(a !== b, m); },
    deepEqual(a, b, m = 'deepEqual') { t.assertion(require('util').isDeepStrictEqual(a, b), `${m} (got ${show(a)}, want ${show(b)})`); },
    throws(fn, expected, m = 'throws') {
      let threw = false;
      try { fn(); } catch (e) { threw = expected instanceof RegExp ? expected.test(String(e)) : typeof expected === 'function' && expected.prototype !== undefined ? e instanceof expected : true; }
      t.assertion(threw, m);
    },
    doesNotThrow(fn, m = 'doesNotThrow') {
      try { fn(); t.assertion(true, m); } catch (e) { t.assertion(false, `${m}: ${e}`); }
    },
  };
  t.strictEqual = t.equal;
  t.equals = t.equal;
  t.same = t.deepEqual;
  t.deepStrictEqual = t.deepEqual;
  return t;
}

let skipped = 0;
function test(name, opts, fn) {
  if (typeof opts === 'function') { fn = opts; opts = {}; }
  // The packages mark some of their upstream tests { skip: true } (path-browserify has no win32).
  if (opts && opts.skip) { skipped++; return; }
  queue.push({ name, fn });
}

function show(v) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
test.onFinish = (fn) => finishHooks.push(fn);

/** Runs every queued test in order; prints failures and the summary line. */
async function run() {
  while (queue.length > 0) {
    const { name, fn } = queue.shift();
    const failedBefore = failed;
    await new Promise((resolve) => {
      const t = makeT(name, resolve);
      try {
        const r = fn(t);
        if (r && typeof r.then === 'function') r.then(() => t.end(), (e) => { record(false, `${name}: ${e && e.stack || e}`); t.end(); });
      } catch (e) {
        record(false, `${name}: threw ${e && e.stack || e}`);
        t.end();
      }
    });
    // A test that finished without a failure counts once (files that use Node's assert count so).
    if (failed === failedBefore) record(true, name);
  }
  for (const h of finishHooks) {
    try { h(); record(true, 'finish hook'); } catch (e) { record(false, `finish hook: ${e && e.message}`); }
  }
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`upstream tests marked skip: ${skipped}`);
  console.log(`${passed} passed, ${failed} failed`);
}

// CommonJS, because the packages' tests `require('tape')`.
module.exports = test;
test.run = run;
