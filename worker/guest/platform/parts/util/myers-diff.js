// The line diff of assert's failure messages and util.diff (the assert part takes it from the util part), computed as Node 24 computes it (Myers' O(ND)
// algorithm with the same tie-breaking, so the same lines are marked), printed without colours.
const NOP = 0;
const INSERT = 1;
const DELETE = -1;
const NOP_LINES_TO_COLLAPSE = 5;

function linesEqual(a, b, checkCommaDisparity) {
  if (a === b) return true;
  // An object's last property has no trailing comma: `a: 1` and `a: 1,` are the same line.
  return checkCommaDisparity && (`${a},` === b || a === `${b},`);
}

/** Edit script from `actual` to `expected` (arrays of lines), last operation first. */
export function myersDiff(actual, expected, checkCommaDisparity = false) {
  const n = actual.length;
  const m = expected.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 1);
  const trace = [];
  for (let d = 0; d <= max; d++) {
    trace.push(new Int32Array(v));
    for (let k = -d; k <= d; k += 2) {
      const offset = k + max;
      let x = k === -d || (k !== d && v[offset - 1] < v[offset + 1]) ? v[offset + 1] : v[offset - 1] + 1;
      let y = x - k;
      while (x < n && y < m && linesEqual(actual[x], expected[y], checkCommaDisparity)) { x++; y++; }
      v[offset] = x;
      if (x >= n && y >= m) return backtrack(trace, actual, expected, checkCommaDisparity);
    }
  }
  return [];
}

function backtrack(trace, actual, expected, checkCommaDisparity) {
  const max = actual.length + expected.length;
  let x = actual.length;
  let y = expected.length;
  const result = [];
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[k + max - 1] < v[k + max + 1]) ? k + 1 : k - 1;
    const prevX = v[prevK + max];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      const line = actual[x - 1];
      result.push([NOP, checkCommaDisparity && !line.endsWith(',') ? expected[y - 1] : line]);
      x--;
      y--;
    }
    if (d > 0) {
      if (x > prevX) result.push([INSERT, actual[--x]]);
      else result.push([DELETE, expected[--y]]);
    }
  }
  return result;
}

/** `+ actual` / `- expected` lines; runs of more than 5 unchanged lines are cut to `...`. */
export function printMyersDiff(diff) {
  let message = '';
  let skipped = false;
  let nopCount = 0;
  for (let i = diff.length - 1; i >= 0; i--) {
    const [operation, value] = diff[i];
    const previous = i < diff.length - 1 ? diff[i + 1][0] : null;
    if (previous === NOP && operation !== previous) {
      if (nopCount === NOP_LINES_TO_COLLAPSE + 1) {
        message += `  ${diff[i + 1][1]}\n`;
      } else if (nopCount === NOP_LINES_TO_COLLAPSE + 2) {
        message += `  ${diff[i + 2][1]}\n  ${diff[i + 1][1]}\n`;
      } else if (nopCount >= NOP_LINES_TO_COLLAPSE + 3) {
        message += `...\n  ${diff[i + 1][1]}\n`;
        skipped = true;
      }
      nopCount = 0;
    }
    if (operation === INSERT) message += `+ ${value}\n`; // (partialDeepStrictEqual's grey marker is also '+' without colours)
    else if (operation === DELETE) message += `- ${value}\n`;
    else {
      if (nopCount < NOP_LINES_TO_COLLAPSE) message += `  ${value}\n`;
      nopCount++;
    }
  }
  return { message: `\n${message.trimEnd()}`, skipped };
}
