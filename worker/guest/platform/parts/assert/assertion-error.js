// assert's AssertionError with Node 24's messages: the same operator texts, the stacked
// `+ actual - expected` form for one-line values (with a ^ under the first difference of short
// strings), Myers' line diff for the rest, errors shown without their stacks — written after
// Node's lib/internal/assert/assertion_error.js, without colours (a run's output is not a TTY).

const READABLE = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  partialDeepStrictEqual: 'Expected values to be partially and strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: 'Expected values to be loosely deep-equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: 'Values have same structure but are not reference-equal:',
  notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};
const MAX_SHORT_STRING = 12;
const MAX_LONG_STRING = 512;
const TERMINAL_WIDTH = 80;
// (Not a Set: `new Set(list)` would call a Set.prototype.add the script may have replaced.)
const isDiffOperator = (op) => op === 'deepStrictEqual' || op === 'strictEqual' || op === 'partialDeepStrictEqual';

/** An error's look-alike without a stack, so that the message shows `[Error: x]` and its [cause]. */
function copyError(source) {
  const target = Object.assign({ __proto__: Object.getPrototypeOf(source) }, source);
  Object.defineProperty(target, 'message', { value: source.message });
  if (Object.prototype.hasOwnProperty.call(source, 'cause')) {
    let { cause } = source;
    if (cause instanceof Error) cause = copyError(cause);
    Object.defineProperty(target, 'cause', { value: cause });
  }
  return target;
}

function addEllipsis(string) {
  const lines = string.split('\n', 11);
  if (lines.length > 10) {
    lines.length = 10;
    return `${lines.join('\n')}\n...`;
  }
  if (string.length > 512) return `${string.slice(512)}...`;
  return string;
}

export function makeAssertionError(inspect, invalidArgType, { myersDiff, printMyersDiff }) {
  const inspectValue = (v) => inspect(v, { compact: false, customInspect: false, depth: 1000, maxArrayLength: Infinity, showHidden: false, showProxy: false, sorted: true, getters: true });

  function simpleDiff(originalActual, actual, originalExpected, expected) {
    let length = actual.length + expected.length;
    if (typeof originalActual === 'string') length -= 2;
    if (typeof originalExpected === 'string') length -= 2;
    if (length <= MAX_SHORT_STRING && (originalActual !== 0 || originalExpected !== 0)) return { message: `${actual} !== ${expected}`, header: '' };
    let message = `\n+ ${actual}\n- ${expected}`;
    if (actual.length + expected.length <= TERMINAL_WIDTH) {
      for (let i = 0; i < actual.length; i++) {
        if (actual[i] !== expected[i]) {
          // Not under the first characters (3: the quote too), where the difference is plain.
          if (i >= 3) message += `\n${' '.repeat(i + 2)}^`;
          break;
        }
      }
    }
    return { message };
  }

  function createErrDiff(actual, expected, operator, customMessage, diffType) {
    if (operator === 'strictEqual' && ((typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null) || (typeof actual === 'function' && typeof expected === 'function'))) {
      operator = 'strictEqualObject';
    }
    let skipped = false;
    let message;
    const inspectedActual = inspectValue(actual);
    const inspectedExpected = inspectValue(expected);
    const linesActual = inspectedActual.split('\n');
    const linesExpected = inspectedExpected.split('\n');
    let header = '+ actual - expected';
    const oneLine = linesActual.length === 1 && linesExpected.length === 1
      && (typeof actual !== 'object' || actual === null || typeof expected !== 'object' || expected === null);
    if (oneLine) {
      const simple = simpleDiff(actual, linesActual[0], expected, linesExpected[0]);
      message = simple.message;
      if (simple.header !== undefined) header = simple.header;
    } else if (inspectedActual === inspectedExpected) {
      operator = 'notIdentical';
      if (linesActual.length > 50 && diffType !== 'full') {
        message = `${linesActual.slice(0, 50).join('\n')}\n...}`;
        skipped = true;
      } else message = linesActual.join('\n');
      header = '';
    } else {
      const printed = printMyersDiff(myersDiff(linesActual, linesExpected, actual != null && typeof actual === 'object'));
      message = printed.message;
      if (operator === 'partialDeepStrictEqual') header = '+ actual - expected';
      skipped = printed.skipped;
    }
    return `${customMessage || READABLE[operator]}\n${header}${skipped ? '\n... Skipped lines' : ''}\n${message}\n`;
  }

  function generatedMessage(actual, expected, operator, diffType) {
    if (isDiffOperator(operator)) return createErrDiff(actual, expected, operator, undefined, diffType);
    if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
      let base = READABLE[operator];
      const res = inspectValue(actual).split('\n');
      if (operator === 'notStrictEqual' && ((typeof actual === 'object' && actual !== null) || typeof actual === 'function')) base = READABLE.notStrictEqualObject;
      if (res.length > 50 && diffType !== 'full') {
        res[46] = '...';
        res.length = 47;
      }
      return res.length === 1 ? `${base}${res[0].length > 5 ? '\n\n' : ' '}${res[0]}` : `${base}\n\n${res.join('\n')}\n`;
    }
    let res = inspectValue(actual);
    let other = inspectValue(expected);
    const known = READABLE[operator];
    if (operator === 'notDeepEqual' && res === other) {
      res = `${known}\n\n${res}`;
      return res.length > 1024 && diffType !== 'full' ? `${res.slice(0, 1021)}...` : res;
    }
    if (res.length > MAX_LONG_STRING && diffType !== 'full') res = `${res.slice(0, 509)}...`;
    if (other.length > MAX_LONG_STRING && diffType !== 'full') other = `${other.slice(0, 509)}...`;
    if (operator === 'deepEqual') res = `${known}\n\n${res}\n\nshould loosely deep-equal\n\n`;
    else if (READABLE[`${operator}Unequal`]) res = `${READABLE[`${operator}Unequal`]}\n\n${res}\n\nshould not loosely deep-equal\n\n`;
    else other = ` ${operator} ${other}`;
    return `${res}${other}`;
  }

  return class AssertionError extends Error {
    constructor(options) {
      if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArgType('options', 'of type object', options);
      const { message, operator, stackStartFn, stackStartFunction, details, diff = 'simple' } = options;
      let { actual, expected } = options;
      let text;
      if (message != null) {
        text = isDiffOperator(operator) ? createErrDiff(actual, expected, operator, message, diff) : String(message);
      } else {
        if (actual instanceof Error && 'stack' in actual && expected instanceof Error && 'stack' in expected) {
          actual = copyError(actual);
          expected = copyError(expected);
        }
        text = generatedMessage(actual, expected, operator, diff);
      }
      super(text);
      this.generatedMessage = !message;
      this.code = 'ERR_ASSERTION';
      if (details) {
        // CallTracker's verify(): one numbered group of fields per function, as Node.
        this.actual = undefined;
        this.expected = undefined;
        this.operator = undefined;
        for (let i = 0; i < details.length; i++) {
          this[`message ${i}`] = details[i].message;
          this[`actual ${i}`] = details[i].actual;
          this[`expected ${i}`] = details[i].expected;
          this[`operator ${i}`] = details[i].operator;
          this[`stack trace ${i}`] = details[i].stack;
        }
      } else {
        this.actual = actual;
        this.expected = expected;
        this.operator = operator;
      }
      this.diff = diff;
      // As Node: the stack is taken (and read, which fixes its head line) while the name shows the
      // code — `AssertionError [ERR_ASSERTION]: message` — and the name is reset after.
      Object.defineProperty(this, 'name', { value: 'AssertionError [ERR_ASSERTION]', enumerable: false, writable: true, configurable: true });
      if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(this, stackStartFn ?? stackStartFunction);
      void this.stack;
      this.name = 'AssertionError';
    }
    toString() { return `${this.name} [${this.code}]: ${this.message}`; }
    /**
     * As Node's: inspected with `actual`/`expected` at depth 0 and long strings cut (more than 10
     * lines, or — Node's own slice — the characters after the 512th), since the message already
     * shows both values.
     */
    [Symbol.for('nodejs.util.inspect.custom')](recurseTimes, ctx) {
      const tmpActual = this.actual;
      const tmpExpected = this.expected;
      if (typeof this.actual === 'string') this.actual = addEllipsis(this.actual);
      if (typeof this.expected === 'string') this.expected = addEllipsis(this.expected);
      try {
        return inspect(this, { ...ctx, customInspect: false, depth: 0 });
      } finally {
        this.actual = tmpActual;
        this.expected = tmpExpected;
      }
    }
  };
}
