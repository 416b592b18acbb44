// Rewrites the two module expressions a wrapped script cannot keep as they are:
//
// - `import(x)` → a guest helper (`globalThis[Symbol.for('runjs.import')]`, defined by the
//   prelude). isolated-vm has no dynamic-import hook (every import() rejected "Not supported")
//   and QuickJS's own loader cannot report a missing module as a guest error; the helper gives
//   both engines the same behaviour: built-in modules resolve (a frozen namespace object), and
//   npm:/jsr:/URL, relative and unknown specifiers reject with the texts static imports fail with.
// - `import.meta` → a frozen { url: 'file:///main.js', filename: '/main.js', dirname: '/' }, as
//   Node gives a module at /main.js (isolated-vm leaves it empty); it is the helper's `meta`.
import type { Node } from 'acorn';

export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Cheap pre-check: most scripts use neither, and then the tree is not walked. */
const MAY_USE = /\bimport\s*[(.]/;

/**
 * Edits replacing `import(` and `import.meta` in `program`, using the module-scope names given.
 * `literal`, given a string-literal specifier, may return the whole expression's replacement
 * (external modules: a namespace imported statically, see wrap-main.ts).
 */
export function moduleSyntaxEdits(js: string, program: Node, names: { importFn: string; meta: string }, literal?: (specifier: string) => string | undefined): Edit[] {
  if (!MAY_USE.test(js)) return [];
  const edits: Edit[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'ImportExpression') {
      const source = (node as Node & { source: Node & { value?: unknown } }).source;
      const options = (node as Node & { options?: unknown }).options;
      const replaced = source.type === 'Literal' && typeof source.value === 'string' && options == null ? literal?.(source.value) : undefined;
      if (replaced !== undefined) { edits.push({ start: node.start, end: node.end, text: replaced }); return; }
      edits.push({ start: node.start, end: source.start, text: `${names.importFn}(` });
    } else if (node.type === 'MetaProperty' && js.startsWith('import', node.start)) {
      edits.push({ start: node.start, end: node.end, text: names.meta });
    }
    for (const key of Object.keys(node)) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item);
      } else if (isNode(value)) {
        visit(value);
      }
    }
  };
  visit(program);
  return edits;
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string' && typeof (v as { start?: unknown }).start === 'number';
}

/** Module-scope declarations for the names (evaluated before the script body runs). */
export function moduleSyntaxPrologue(names: { importFn: string; meta: string }, externalImports = false): string {
  // The prelude defines both (non-writable): the helper, and the frozen import.meta object on it.
  const helper = "globalThis[Symbol.for('runjs.import')]";
  if (!externalImports) return `const ${names.importFn} = ${helper};const ${names.meta} = ${names.importFn}.meta;`;
  // With external modules on, a literal import('npm:…') was made static (wrap-main.ts); one whose
  // specifier is computed cannot be loaded once the script runs, and says so.
  const refuse = '(s) => { const t = String(s); if (/^(npm:|jsr:|[a-z][a-z0-9+.-]*:\\/\\/)/i.test(t)) { const e = new Error(`Cannot import \'${t}\': import() of an external module needs a string-literal specifier (external modules load before the script starts)`); e.code = \'ERR_MODULE_NOT_FOUND\'; return Promise.reject(e); } return f(s); }';
  return `const ${names.meta} = ${helper}.meta;const ${names.importFn} = ((f) => ${refuse})(${helper});`;
}
