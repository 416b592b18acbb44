// performance (High Resolution Time + User Timing marks/measures), counting from the run's start.
import { now, timeOrigin } from './clock.js';
import { onRunStart } from './host.js';
import { DOMException } from './dom-exception.js';
import { structuredClone } from './structured-clone.js';
import { EventTarget } from './event-target.js';

const entries = [];
onRunStart(() => { entries.length = 0; });

const entryState = new WeakMap();

export class PerformanceEntry {
  constructor(token, name, entryType, startTime, duration, detail) {
    if (token !== ENTRY) throw new TypeError('Illegal constructor');
    entryState.set(this, { name, entryType, startTime, duration, detail });
  }
  get name() { return entryState.get(this).name; }
  get entryType() { return entryState.get(this).entryType; }
  get startTime() { return entryState.get(this).startTime; }
  get duration() { return entryState.get(this).duration; }
  get detail() { return entryState.get(this).detail; }
  toJSON() {
    const s = entryState.get(this);
    return { name: s.name, entryType: s.entryType, startTime: s.startTime, duration: s.duration, detail: s.detail };
  }
}
const ENTRY = Symbol('entry');
export class PerformanceMark extends PerformanceEntry {
  constructor(name, options = undefined) {
    const start = options?.startTime ?? now();
    if (typeof start !== 'number' || start < 0) throw new TypeError('startTime must be a non-negative number');
    super(ENTRY, String(name), 'mark', start, 0, options?.detail === undefined ? null : structuredClone(options.detail));
  }
}
export class PerformanceMeasure extends PerformanceEntry {
  constructor(token, name, start, duration, detail) {
    super(token, name, 'measure', start, duration, detail);
  }
}

function markTime(name) {
  if (typeof name === 'number') return name;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].entryType === 'mark' && entries[i].name === name) return entries[i].startTime;
  }
  throw new DOMException(`The "${name}" performance mark has not been set`, 'SyntaxError');
}

export class Performance extends EventTarget {
  constructor(token) {
    if (token !== ENTRY) throw new TypeError('Illegal constructor');
    super();
  }
  now() { return now(); }
  get timeOrigin() { return timeOrigin(); }
  toJSON() { return { timeOrigin: timeOrigin() }; }
  mark(name, options = undefined) {
    const m = new PerformanceMark(name, options);
    entries.push(m);
    return m;
  }
  measure(name, startOrOptions = undefined, endMark = undefined) {
    let start = 0;
    let end = now();
    let detail = null;
    if (typeof startOrOptions === 'object' && startOrOptions !== null) {
      if (startOrOptions.start !== undefined) start = markTime(startOrOptions.start);
      if (startOrOptions.end !== undefined) end = markTime(startOrOptions.end);
      else if (startOrOptions.duration !== undefined) end = start + Number(startOrOptions.duration);
      if (startOrOptions.detail !== undefined) detail = structuredClone(startOrOptions.detail);
    } else {
      if (startOrOptions !== undefined) start = markTime(startOrOptions);
      if (endMark !== undefined) end = markTime(endMark);
    }
    const m = new PerformanceMeasure(ENTRY, String(name), start, end - start, detail);
    entries.push(m);
    return m;
  }
  getEntries() { return entries.slice(); }
  getEntriesByName(name, type = undefined) {
    return entries.filter((e) => e.name === String(name) && (type === undefined || e.entryType === type));
  }
  getEntriesByType(type) { return entries.filter((e) => e.entryType === String(type)); }
  clearMarks(name = undefined) { clear('mark', name); }
  clearMeasures(name = undefined) { clear('measure', name); }
}
function clear(type, name) {
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].entryType === type && (name === undefined || entries[i].name === String(name))) entries.splice(i, 1);
  }
}
Object.defineProperty(Performance.prototype, Symbol.toStringTag, { value: 'Performance', configurable: true });

export const performance = new Performance(ENTRY);
