// Heap-mode runs only: makes the main module's top-level declarations global, so a later run
// restored from this run's heap sees them by name — the REPL behaviour an agent expects
// (`let x = 1` in one run, `x` in the next; the reference runs classic scripts, where top-level
// declarations are global bindings). The main module runs inside an async function (see
// wrap-main.ts), so without this its declarations would be locals that vanish with the run.
//
// The rewrite turns each top-level declaration into a property of globalThis and leaves every
// reference alone: a name no longer declared locally resolves to the global property, so a
// function from run 1 and code in run 2 read and write the same binding, and redefining a
// function in run 2 is seen by run-1 functions that call it.
//
//   let a = 1, {b, c: [d = 2]} = o;  →  ;(globalThis.a = 1), ({b: globalThis.b, c: [globalThis.d = 2]} = o);
//   var v;                            →  ;(globalThis.v = globalThis.v)       (keeps an existing value)
//   class K {}                        →  ;globalThis.K = class K {};
//   function f() {}                   →  function __runjs_fn$f() {}  + prologue: globalThis.f = <it, named "f">
//
// Function declarations keep their hoisting (the prologue publishes them before the body runs) under
// a private local name, renamed back through `name`. `var` names are created (undefined) in the
// prologue too, as hoisting would (TypeScript enums and namespaces compile to `var E; (E || ...)`).
// Every edit stays on its line, so stack-trace line numbers are unchanged. `const` is not enforced
// across runs (it becomes a writable global, as re-running a REPL cell would need anyway).
import type { Node, Pattern, Program, VariableDeclaration, FunctionDeclaration, ClassDeclaration, Statement, ModuleDeclaration } from 'acorn';

export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const FN_PREFIX = '__runjs_fn$';

function globalRef(name: string): string {
  return `globalThis[${JSON.stringify(name)}]`;
}

/** Edits turning every binding identifier of `pattern` into a globalThis member. */
function patternEdits(pattern: Pattern, out: Edit[]): void {
  switch (pattern.type) {
    case 'Identifier':
      out.push({ start: pattern.start, end: pattern.end, text: globalRef(pattern.name) });
      return;
    case 'ObjectPattern':
      for (const p of pattern.properties) {
        if (p.type === 'RestElement') { patternEdits(p.argument, out); continue; }
        if (p.shorthand && p.key.type === 'Identifier') {
          // `{a}` / `{a = 1}`: the key doubles as the target; spell the property out.
          out.push({ start: p.key.start, end: p.key.end, text: `${p.key.name}: ${globalRef(p.key.name)}` });
        } else {
          patternEdits(p.value, out);
        }
      }
      return;
    case 'ArrayPattern':
      for (const el of pattern.elements) if (el) patternEdits(el, out);
      return;
    case 'RestElement':
      patternEdits(pattern.argument, out);
      return;
    case 'AssignmentPattern':
      patternEdits(pattern.left, out);
      return;
    default:
      return; // MemberExpression targets do not occur in declarations
  }
}

function boundNames(pattern: Pattern, out: string[]): void {
  switch (pattern.type) {
    case 'Identifier': out.push(pattern.name); return;
    case 'ObjectPattern':
      for (const p of pattern.properties) boundNames(p.type === 'RestElement' ? p.argument : p.value, out);
      return;
    case 'ArrayPattern': for (const el of pattern.elements) if (el) boundNames(el, out); return;
    case 'RestElement': boundNames(pattern.argument, out); return;
    case 'AssignmentPattern': boundNames(pattern.left, out); return;
    default: return;
  }
}

function newlinesOf(text: string): string {
  return text.replace(/[^\n]/g, '');
}

function variableEdits(js: string, decl: VariableDeclaration, edits: Edit[], prologue: string[]): void {
  if (decl.kind !== 'var' && decl.kind !== 'let' && decl.kind !== 'const') return; // `using` stays local
  const first = decl.declarations[0];
  if (!first) return;
  // The keyword becomes `;` so the assignments never continue the previous line's expression.
  edits.push({ start: decl.start, end: first.start, text: `;${newlinesOf(js.slice(decl.start, first.start))}` });
  for (const d of decl.declarations) {
    edits.push({ start: d.start, end: d.start, text: '(' });
    patternEdits(d.id, edits);
    if (d.init === null || d.init === undefined) {
      const name = d.id.type === 'Identifier' ? d.id.name : '';
      edits.push({ start: d.id.end, end: d.id.end, text: ` = ${decl.kind === 'var' ? globalRef(name) : 'undefined'}` });
    }
    edits.push({ start: d.end, end: d.end, text: ')' });
    if (decl.kind === 'var') {
      const names: string[] = [];
      boundNames(d.id, names);
      for (const n of names) prologue.push(`if (!(${JSON.stringify(n)} in globalThis)) ${globalRef(n)} = undefined;`);
    }
  }
}

function functionEdits(fn: FunctionDeclaration, edits: Edit[], prologue: string[]): void {
  const name = fn.id.name;
  const local = FN_PREFIX + name;
  edits.push({ start: fn.id.start, end: fn.id.end, text: local });
  prologue.push(`${globalRef(name)} = Object.defineProperty(${local}, "name", { value: ${JSON.stringify(name)} });`);
}

function classEdits(cls: ClassDeclaration, edits: Edit[]): void {
  edits.push({ start: cls.start, end: cls.start, text: `;${globalRef(cls.id.name)} = ` });
  edits.push({ start: cls.end, end: cls.end, text: ';' });
}

/**
 * Edits (to merge with wrap-main's) and prologue statements that make `program`'s top-level
 * declarations global. Declarations nested in blocks or loops stay local, as in any script.
 */
export function persistTopLevelEdits(js: string, program: Program): { edits: Edit[]; prologue: string } {
  const edits: Edit[] = [];
  const prologue: string[] = [];
  for (const node of program.body as (Statement | ModuleDeclaration)[]) {
    const decl: Node | null | undefined = node.type === 'ExportNamedDeclaration' ? node.declaration : node;
    if (!decl) continue;
    if (decl.type === 'VariableDeclaration') variableEdits(js, decl as VariableDeclaration, edits, prologue);
    else if (decl.type === 'FunctionDeclaration') functionEdits(decl as FunctionDeclaration, edits, prologue);
    else if (decl.type === 'ClassDeclaration') classEdits(decl as ClassDeclaration, edits);
  }
  return { edits, prologue: prologue.join('') };
}
