// esbuild renames a function or class whose name an enclosing binding shares — `const f =
// function f() {}` comes out as `function f2() {}`, a nested `function m() {}` under a top-level
// `m` as `m2` — so the script would see `f.name === 'f2'`, `[Function: f2]` in util.inspect and
// `f2` in its stack traces and assertion messages (Node's own `common.mustNotCall()` returns a
// `function mustNotCall` inside a `function mustNotCall`). esbuild has no option against it
// (`keepNames` wraps every function in a helper call instead), so the names are put back here.
//
// Why this is exact: in a transform (no bundling) esbuild keeps the source's scopes and only
// appends a number to names (`m` → `m2`, `m3`…). A name that is in the output but nowhere in the
// source is therefore one of those renames, and every use of it was, in the source, the base
// name in the same scope — so writing the base name back everywhere restores the source's own
// bindings. Only names that esbuild gave a function or a class are restored (its lowering helpers'
// temporaries are left alone), and the base name is padded with spaces to the renamed one's
// length, so every position in the output — and the source map esbuild made of it — stays valid.

/** A function's or class's name in esbuild's output that ends in digits. */
const NAMED = /(?:\bfunction\*?\s*|\bclass\s+)([A-Za-z_$][\w$]*?\d+)(?![\w$])/g;

/**
 * Every identifier-shaped word of `text` (one that no word character precedes: not the `e5` of
 * `1e5`), so that each lookup is a set lookup. Searching the source once per name found made the
 * step quadratic: a script of 20,000 functions named `f<n>` (1 MB) took 1.5 s of the worker's
 * thread.
 */
function wordsOf(text: string): Set<string> {
  return new Set(text.match(/(?<![\w$])[A-Za-z_$][\w$]*/g));
}

/**
 * The source name of each function/class name esbuild renamed in `code` (transpiled from
 * `source`): `{ renamed → base }`. The base is the longest prefix left when trailing digits are
 * cut that occurs in the source.
 */
export function renamedFunctionNames(source: string, code: string): Map<string, string> {
  const found = new Map<string, string>();
  let words: Set<string> | undefined;
  for (const m of code.matchAll(NAMED)) {
    const renamed = m[1]!;
    words ??= wordsOf(source);
    if (found.has(renamed) || words.has(renamed)) continue;
    for (let cut = renamed.length - 1; cut > 0 && /\d/.test(renamed[cut]!); cut--) {
      const base = renamed.slice(0, cut);
      if (words.has(base)) {
        found.set(renamed, base);
        break;
      }
    }
  }
  return found;
}

/** `code` with the function and class names esbuild renamed written back as in `source`. */
export function restoreFunctionNames(source: string, code: string): string {
  const renames = renamedFunctionNames(source, code);
  if (renames.size === 0) return code;
  const pattern = new RegExp(`(?<![\\w$])(?:${[...renames.keys()].map((n) => n.replace(/\$/g, '\\$')).join('|')})(?![\\w$])`, 'g');
  return code.replace(pattern, (renamed) => {
    const base = renames.get(renamed)!;
    return base + ' '.repeat(renamed.length - base.length);
  });
}
