// The compute suite as data: plain-JavaScript workloads (ES2022, no host APIs, no TypeScript, so
// they run unchanged on every engine runjs has and in plain Node) plus the two ways to run one:
// as a guest script that times itself, and as a function compiled fresh in this process. Each
// body does its work and returns a small checksum, so no engine can skip the work and both sides
// can be checked to have computed the same thing. Sized for roughly 50–300 ms in plain V8 on a
// 2-core cloud VM.

export interface ComputeBench {
  /** Metric segment: `compute.<name>.ratio_vs_v8`. */
  readonly name: string;
  readonly description: string;
  /** A function body (plain JS); returns a JSON-serialisable checksum. */
  readonly body: string;
  /** Guest heap for the run (heap_memory_max_mb): room for the data set, as a user would set it. */
  readonly heapMb: number;
}

/** What a timed run of a bench reports: guest time only (Date.now() around the body) and the checksum. */
export interface ComputeTiming {
  readonly ms: number;
  readonly check: unknown;
}

// A tiny deterministic PRNG several bodies share (Math.random would make checksums differ).
const LCG = 'let seed = 12345; const rand = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };';

export const COMPUTE_SUITE: readonly ComputeBench[] = [
  {
    name: 'numeric_loop',
    description: 'integer and floating-point arithmetic in a hot loop (logistic map, modular mixing)',
    heapMb: 64,
    body: `
      let acc = 0;
      let x = 0.5;
      let f = 0;
      for (let i = 1; i <= 30000000; i++) {
        acc = (acc + ((i * 31) % 7) + (i ^ (i >>> 3))) % 1000003;
        x = 3.9 * x * (1 - x);
        f += x * (i & 7);
      }
      return acc + Math.floor(f) % 1000;`,
  },
  {
    name: 'json',
    description: 'JSON.stringify then JSON.parse of 100k small objects (strings, numbers, arrays, nesting)',
    heapMb: 512,
    body: `
      const items = [];
      for (let i = 0; i < 100000; i++) {
        items.push({ id: i, name: 'item-' + i, tags: ['t' + (i % 10), 'u' + (i % 7)], price: (i * 37 % 1000) / 10,
          active: i % 3 === 0, nested: { x: i % 100, label: 'v' + (i % 13) } });
      }
      const text = JSON.stringify(items);
      const back = JSON.parse(text);
      let sum = 0;
      for (let i = 0; i < back.length; i++) sum += back[i].nested.x + back[i].tags.length;
      return text.length + sum;`,
  },
  {
    name: 'array_grouping',
    description: '100k records grouped by an integer key in a Map and by a string key in an object, sorted and reduced',
    heapMb: 256,
    body: `
      ${LCG}
      const items = [];
      for (let i = 0; i < 100000; i++) items.push({ id: i, cat: rand(1000), score: rand(97), region: 'r' + rand(20) });
      let check = 0;
      for (let round = 0; round < 8; round++) {
        const byCat = new Map();
        for (const it of items) {
          let g = byCat.get(it.cat);
          if (g === undefined) { g = []; byCat.set(it.cat, g); }
          g.push(it);
        }
        const byRegion = {};
        for (const it of items) (byRegion[it.region] ??= []).push(it.id);
        const totals = [...byCat.entries()]
          .map(([cat, g]) => ({ cat, total: g.reduce((s, it) => s + it.score, 0), n: g.length }))
          .filter((t) => t.n > 0)
          .sort((a, b) => b.total - a.total || a.cat - b.cat);
        const widest = Object.keys(byRegion).map((k) => byRegion[k].length).reduce((a, b) => Math.max(a, b), 0);
        const top = items.filter((it) => it.score > 90).map((it) => it.id % 100);
        check += totals[0].cat + totals.length + widest + top.length + new Set(top).size;
      }
      return check;`,
  },
  {
    name: 'string_building',
    description: 'concatenation, template literals, join, padStart/repeat and split over ~10 MB of text',
    heapMb: 512,
    body: `
      let s = '';
      for (let i = 0; i < 300000; i++) s += 'line ' + i + ': ' + (i % 15 === 0 ? 'fizzbuzz' : String(i * 7)) + '\\n';
      const parts = [];
      for (let i = 0; i < 300000; i++) parts.push(\`\${i}:\${(i * 31) % 1000}:\${String(i % 97).padStart(3, '0')}\`);
      const joined = parts.join(',');
      let html = '';
      for (let i = 0; i < 50000; i++) html += '<li class="' + (i % 2 ? 'odd' : 'even') + '">' + '-'.repeat(i % 8) + i + '</li>';
      const lines = s.split('\\n');
      let check = 0;
      for (let i = 0; i < lines.length; i += 1000) check += lines[i].length;
      return s.length + joined.length + html.length + lines.length + check + joined.charCodeAt(joined.length >> 1);`,
  },
  {
    name: 'regex_1mb',
    description: 'global matches, matchAll with groups, replace with back-references, split and test over 1 MB of text',
    heapMb: 256,
    body: `
      ${LCG}
      const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda', 'sigma', 'omega', 'io'];
      const chunks = [];
      let size = 0;
      while (size < 1048576) {
        const k = rand(10);
        const c = k < 6 ? words[rand(words.length)] + ' '
          : k === 6 ? 'user' + rand(1000) + '@' + words[rand(5)] + '.' + ['com', 'org', 'net'][rand(3)] + ' '
          : k === 7 ? (2000 + rand(25)) + '-' + String(1 + rand(12)).padStart(2, '0') + '-' + String(1 + rand(28)).padStart(2, '0') + ' '
          : k === 8 ? rand(100000) + ' ' : '.\\n';
        chunks.push(c);
        size += c.length;
      }
      const text = chunks.join('');
      let check = 0;
      for (let round = 0; round < 3; round++) {
        check += (text.match(/\\b[a-z]{5,}\\b/g) || []).length;
        let hosts = 0;
        for (const m of text.matchAll(/([a-z0-9._]+)@([a-z]+)\\.(com|org|net)\\b/g)) hosts += m[2].length;
        check += hosts;
        check += text.replace(/(\\d{4})-(\\d{2})-(\\d{2})/g, '$3/$2/$1').length;
        check += text.split(/[^0-9]+/).filter((x) => x.length > 3).length;
        check += text.replace(/\\b(\\w)(\\w*)\\b/g, (m, a, b) => a.toUpperCase() + b).charCodeAt(round * 1000);
        const re = /^(?:[a-z]+ ){3,}[a-z]+$/;
        for (const line of text.split('\\n')) if (re.test(line.trim())) check++;
      }
      return check;`,
  },
  {
    name: 'class_heavy',
    description: 'class hierarchies: constructors with super, private fields, getters, static members, polymorphic calls, small immutable objects',
    heapMb: 256,
    body: `
      class Shape {
        static count = 0;
        constructor(id) { this.id = id; Shape.count++; }
        area() { return 0; }
        get kind() { return 'shape'; }
      }
      class Rect extends Shape {
        #w; #h;
        constructor(id, w, h) { super(id); this.#w = w; this.#h = h; }
        area() { return this.#w * this.#h; }
        get kind() { return 'rect'; }
        get w() { return this.#w; }
      }
      class Square extends Rect {
        constructor(id, s) { super(id, s, s); }
        get kind() { return 'square'; }
      }
      class Circle extends Shape {
        static PI = 3.14159;
        #r;
        constructor(id, r) { super(id); this.#r = r; }
        area() { return Circle.PI * this.#r * this.#r; }
        get kind() { return 'circle'; }
      }
      class Vec {
        constructor(x, y) { this.x = x; this.y = y; }
        add(o) { return new Vec(this.x + o.x, this.y + o.y); }
        scale(k) { return new Vec(this.x * k, this.y * k); }
        dot(o) { return this.x * o.x + this.y * o.y; }
      }
      let area = 0;
      let kinds = 0;
      let v = new Vec(0, 0);
      const step = new Vec(0.5, -0.25);
      for (let round = 0; round < 15; round++) {
        const shapes = [];
        for (let i = 0; i < 100000; i++) {
          const k = i % 3;
          shapes.push(k === 0 ? new Rect(i, i % 10, 3) : k === 1 ? new Square(i, i % 7) : new Circle(i, i % 5));
        }
        for (const s of shapes) {
          area += s.area();
          if (s instanceof Rect && s.kind === 'square') kinds += s.w;
          v = v.add(step).scale(0.999);
        }
      }
      return Math.round(area) + kinds + Shape.count + Math.round(v.dot(step) * 1000);`,
  },
];

/**
 * The guest script for `bench`: times the body with Date.now() and evaluates to {ms, check}. It
 * leaves the figures in the top-level bindings `__ms` and `__check` too (part of the contract:
 * a harness may append its own final expression, as the bare-QuickJS contender does).
 */
export function guestScript(bench: ComputeBench, salt = ''): string {
  return `/* ${bench.name} ${salt} */
function __bench() {${bench.body}
}
const __t0 = Date.now();
const __check = __bench();
const __ms = Date.now() - __t0;
({ ms: __ms, check: __check })
`;
}

/** The body of the plain-V8 function for `bench` (see plainFunction); `salt` makes the source unique. */
export function plainSource(bench: ComputeBench, salt = ''): string {
  return `/* ${bench.name} ${salt} */
function __bench() {${bench.body}
}
const __t0 = Date.now();
const __check = __bench();
const __ms = Date.now() - __t0;
return { ms: __ms, check: __check };
`;
}

/**
 * `bench` compiled as a function in the current process (plain V8), timed the same way as the
 * guest script. A distinct `salt` per call defeats V8's compilation cache, so each call starts
 * cold like a fresh isolate does.
 */
export function plainFunction(bench: ComputeBench, salt = ''): () => ComputeTiming {
  return new Function(plainSource(bench, salt)) as () => ComputeTiming;
}
