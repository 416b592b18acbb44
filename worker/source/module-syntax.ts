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

/** Edits replacing `import(` and `import.meta` in `program`, using the module-scope names given. */
export function moduleSyntaxEdits(js: string, program: Node, names: { importFn: string; meta: string }): Edit[] {
  if (!MAY_USE.test(js)) return [];
  const edits: Edit[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'ImportExpression') {
      const source = (node as Node & { source: Node }).source;
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
export function moduleSyntaxPrologue(names: { importFn: string; meta: string }): string {
  // The prelude defines both (non-writable): the helper, and the frozen import.meta object on it.
  return `const ${names.importFn} = globalThis[Symbol.for('runjs.import')];const ${names.meta} = ${names.importFn}.meta;`;
}
