// The differential harness's runner (test/guest/node-differential.test.ts): evaluated after a
// corpus file, in the sandbox and in a child Node 24. A corpus calls `cases({ name: fn })`; every
// fn gets `require` and may return a promise. Each result is rendered by `show` — a canonical
// text independent of util.inspect, so a difference in inspect shows only in cases about inspect —
// and a throw as `throws <name> [<code>] <message>`. The last output line is the JSON map.
function show(v, seen = new Set()) {
  const t = typeof v;
  if (v === undefined || v === null || t === 'boolean') return String(v);
  if (t === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (t === 'bigint') return `${v}n`;
  if (t === 'string') return JSON.stringify(v);
  if (t === 'symbol') return v.toString();
  if (t === 'function') return `[function ${v.name}]`;
  if (seen.has(v)) return '[circular]';
  seen.add(v);
  const s = (x) => show(x, seen);
  if (v instanceof Error) return `${v.name} [${v.code}] ${v.message}`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}<${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}>`;
  if (v instanceof ArrayBuffer) return `ArrayBuffer<${Buffer.from(v).toString('hex')}>`;
  if (Array.isArray(v)) return `[${v.map(s).join(', ')}]`;
  if (v instanceof Map) return `Map{${[...v].map(([k, x]) => `${s(k)} => ${s(x)}`).join(', ')}}`;
  if (v instanceof Set) return `Set{${[...v].map(s).join(', ')}}`;
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (v instanceof URL) return `URL(${v.href})`;
  if (v instanceof URLSearchParams) return `URLSearchParams(${v})`;
  if (v instanceof Promise) return 'Promise';
  const proto = Object.getPrototypeOf(v);
  const name = proto === null ? '[null]' : proto === Object.prototype ? '' : proto.constructor?.name ?? '?';
  return `${name}{${Object.keys(v).map((k) => `${k}: ${s(v[k])}`).join(', ')}}`;
}

function thrown(e) {
  return e instanceof Error || (e !== null && typeof e === 'object' && 'message' in e)
    ? `throws ${e.name} [${e.code}] ${e.message}`
    : `throws ${show(e)}`;
}

// A case still pending after 5 s is recorded as hanging, so one hang cannot stall the corpus.
const HANG = Symbol('hang');
const results = {};
for (const [name, fn] of Object.entries(corpus)) {
  let timer;
  try {
    const hang = new Promise((resolve) => { timer = setTimeout(resolve, 5000, HANG); });
    const value = await Promise.race([fn(require), hang]);
    results[name] = value === HANG ? 'hangs' : show(value);
  } catch (e) {
    results[name] = thrown(e);
  } finally {
    clearTimeout(timer);
  }
}
console.log(JSON.stringify(results));
