// The console methods prelude.js does not define (table, dir, group, count, time, assert, …),
// built on its log/info/warn/error so the line format and prefixes stay those of the interface
// spec. Groups do not indent (console lines are one value each, as in the reference service).
// core/console-extras.js installs stubs that build these on first call.
import { now } from './clock.js';
import { onRunStart } from './host.js';
import { requirePart } from './parts.js';

export function extendConsole(c) {
  const log = c.log;
  const warn = c.warn;
  const error = c.error;
  const counts = new Map();
  const timers = new Map();
  onRunStart(() => {
    counts.clear();
    timers.clear();
  });
  const inspect = (v) => requirePart('util').inspect(v);
  const label = (l) => (l === undefined ? 'default' : String(l));
  const elapsed = (ms) => (ms < 1000 ? `${ms.toFixed(3)}ms` : `${(ms / 1000).toFixed(3)}s`);
  const extras = {
    dir: (v) => log(v),
    dirxml: (...args) => log(...args),
    group: (...args) => { if (args.length > 0) log(...args); },
    groupCollapsed: (...args) => { if (args.length > 0) log(...args); },
    groupEnd: () => {},
    clear: () => {},
    count(l = undefined) {
      const k = label(l);
      const n = (counts.get(k) ?? 0) + 1;
      counts.set(k, n);
      log(`${k}: ${n}`);
    },
    countReset(l = undefined) {
      const k = label(l);
      if (!counts.has(k)) warn(`Count for '${k}' does not exist`);
      else counts.set(k, 0);
    },
    assert(condition, ...args) {
      if (condition) return;
      if (args.length === 0) error('Assertion failed');
      else if (typeof args[0] === 'string') error(`Assertion failed: ${args[0]}`, ...args.slice(1));
      else error('Assertion failed:', ...args);
    },
    time(l = undefined) {
      const k = label(l);
      if (timers.has(k)) { warn(`Label '${k}' already exists for console.time()`); return; }
      timers.set(k, now());
    },
    timeLog(l = undefined, ...data) {
      const k = label(l);
      const t = timers.get(k);
      if (t === undefined) { warn(`No such label '${k}' for console.timeLog()`); return; }
      log(`${k}: ${elapsed(now() - t)}`, ...data);
    },
    timeEnd(l = undefined) {
      const k = label(l);
      const t = timers.get(k);
      if (t === undefined) { warn(`No such label '${k}' for console.timeEnd()`); return; }
      timers.delete(k);
      log(`${k}: ${elapsed(now() - t)}`);
    },
    table(data, properties = undefined) {
      if (data === null || typeof data !== 'object') { log(data); return; }
      log(renderTable(data, properties, inspect));
    },
  };
  return extras;
}

/** Node 24's console.table layout (box-drawing characters, index column, values via inspect). */
function renderTable(data, properties, inspect) {
  const INDEX = '(index)';
  const VALUES = 'Values';
  const rows = [];
  const columns = [];
  let hasValues = false;
  const isMap = data instanceof Map;
  const entries = isMap ? [...data.entries()] : data instanceof Set ? [...data.values()].map((v, i) => [i, v]) : Object.keys(data).map((k) => [k, data[k]]);
  const indexHeader = isMap ? '(iteration index)' : INDEX;
  for (const [k, v] of entries) {
    const row = { [indexHeader]: isMap ? String(rows.length) : String(k) };
    if (isMap) row.Key = inspect(k);
    if (v !== null && typeof v === 'object') {
      for (const key of properties ?? Object.keys(v)) {
        if (!columns.includes(key)) columns.push(key);
        if (key in v) row[key] = inspect(v[key]);
      }
    } else {
      hasValues = true;
      row[VALUES] = inspect(v);
    }
    rows.push(row);
  }
  const header = [indexHeader, ...(isMap ? ['Key'] : []), ...columns, ...(hasValues ? [VALUES] : [])];
  const width = (s) => [...s].length;
  const widths = header.map((h) => Math.max(width(h), ...rows.map((r) => width(r[h] ?? ''))) + 2);
  // Left-aligned with one space of padding, as Node 24 lays it out.
  const cell = (s, w) => ` ${s}${' '.repeat(w - width(s) - 1)}`;
  const line = (l, m, r) => l + widths.map((w) => '─'.repeat(w)).join(m) + r;
  const out = [line('┌', '┬', '┐'), `│${header.map((h, i) => cell(h, widths[i])).join('│')}│`, line('├', '┼', '┤')];
  for (const r of rows) out.push(`│${header.map((h, i) => cell(r[h] ?? '', widths[i])).join('│')}│`);
  out.push(line('└', '┴', '┘'));
  return out.join('\n');
}
