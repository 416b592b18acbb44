// Turns the transpiled main module into the shape both engines run:
//
//   <hoisted import declarations>export const __runjs_main = async () => { <body> };
//
// The body keeps its line numbers (imports are blanked in place and hoisted onto line 1). The
// async wrapper gives the run one promise to follow on every engine — isolated-vm's
// Module.evaluate() does not wait for top-level await. The prelude calls it and attaches its
// handlers in the same turn, so no rejection is ever seen as unhandled. It returns [kind, value]: kind 1 for
// the last top-level expression statement (REPL semantics), 2 for `export default`, 0 for none.
import { parse, type Node, type Program, type Statement, type ModuleDeclaration } from 'acorn';

export const MAIN_EXPORT = '__runjs_main';
const COMPLETION = '__runjs_completion';

export class ModuleSpecifierError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModuleSpecifierError';
  }
}

export interface WrappedMain {
  readonly source: string;
  /** Every static import specifier, in order of appearance. */
  readonly imports: readonly string[];
}

type TopLevel = Statement | ModuleDeclaration;

/** Statements that declare rather than compute; skipped when looking for the result expression. */
function isDeclaration(node: TopLevel): boolean {
  switch (node.type) {
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'VariableDeclaration':
    case 'ImportDeclaration':
    case 'EmptyStatement':
      return true;
    case 'ExportNamedDeclaration':
      return true;
    default:
      return false;
  }
}

/** A cheap pre-check (a false positive only costs one call). */
function uses(js: string, what: string): boolean {
  return js.includes(what);
}

function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}

export function wrapMain(js: string): WrappedMain {
  let program: Program;
  try {
    program = parse(js, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true, allowHashBang: true });
  } catch (e) {
    // esbuild accepted it, so this is an acorn gap; report it like a parse error.
    throw new ModuleSpecifierError(`Could not prepare the script: ${e instanceof Error ? e.message : String(e)}`);
  }
  const edits: { start: number; end: number; text: string }[] = [];
  const hoisted: string[] = [];
  const imports: string[] = [];
  let hasDefault = false;

  for (const node of program.body) {
    switch (node.type) {
      case 'ImportDeclaration':
        imports.push(String(node.source.value));
        hoisted.push(js.slice(node.start, node.end));
        edits.push({ start: node.start, end: node.end, text: blank(js.slice(node.start, node.end)) });
        break;
      case 'ExportNamedDeclaration':
        if (node.declaration) {
          // `export const x = 1` → `const x = 1` (exports of a script have no reader).
          edits.push({ start: node.start, end: node.declaration.start, text: blank(js.slice(node.start, node.declaration.start)) });
        } else {
          if (node.source) {
            imports.push(String(node.source.value));
            hoisted.push(`import ${JSON.stringify(String(node.source.value))};`);
          }
          // esbuild writes `export default <expr>` as `var x_default = <expr>; export { x_default as default }`.
          let text = blank(js.slice(node.start, node.end));
          if (!node.source) {
            for (const spec of node.specifiers) {
              const exported = spec.exported.type === 'Identifier' ? spec.exported.name : String(spec.exported.value);
              if (exported === 'default' && spec.local.type === 'Identifier') {
                hasDefault = true;
                text = `${COMPLETION}[2] = ${spec.local.name};${text.slice(spec.local.name.length + COMPLETION.length + 7)}`;
              }
            }
          }
          edits.push({ start: node.start, end: node.end, text });
        }
        break;
      case 'ExportAllDeclaration':
        imports.push(String(node.source.value));
        hoisted.push(`import ${JSON.stringify(String(node.source.value))};`);
        edits.push({ start: node.start, end: node.end, text: blank(js.slice(node.start, node.end)) });
        break;
      case 'ExportDefaultDeclaration': {
        hasDefault = true;
        const decl = node.declaration as Node & { id?: { name: string } | null };
        const isNamedDecl = (decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') && decl.id;
        if (isNamedDecl && decl.id) {
          edits.push({ start: node.start, end: decl.start, text: blank(js.slice(node.start, decl.start)) });
          edits.push({ start: node.end, end: node.end, text: `;${COMPLETION}[2] = ${decl.id.name};` });
        } else {
          edits.push({ start: node.start, end: decl.start, text: `${COMPLETION}[2] = (` });
          edits.push({ start: decl.end, end: node.end, text: ');' });
        }
        break;
      }
      default:
        break;
    }
  }

  // The result expression: the last top-level statement that is not a declaration.
  let last: TopLevel | undefined;
  for (let i = program.body.length - 1; i >= 0; i--) {
    const node = program.body[i] as TopLevel;
    if (!isDeclaration(node) && node.type !== 'ExportDefaultDeclaration') { last = node; break; }
  }
  // A lone string literal counts too (a REPL prints it; as a module directive it means nothing).
  if (last && last.type === 'ExpressionStatement') {
    edits.push({ start: last.start, end: last.expression.start, text: `${COMPLETION}[0] = 1, ${COMPLETION}[1] = (` });
    edits.push({ start: last.expression.end, end: last.end, text: ');' });
  }

  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let body = '';
  let pos = 0;
  for (const e of edits) {
    body += js.slice(pos, e.start) + e.text;
    pos = Math.max(pos, e.end);
  }
  body += js.slice(pos);

  const prologue = `const ${COMPLETION} = [0, undefined, undefined];`;
  const ret = `return ${COMPLETION}[0] === 1 ? [1, ${COMPLETION}[1]] : ${hasDefault ? `[2, ${COMPLETION}[2]]` : '[0]'};`;
  // import.meta's url/filename/dirname/resolve (worker/guest/platform/core/registry.js), set at
  // the module's top level, before any of the script's code; on line 1 so lines stay as written.
  const meta = uses(js, 'import.meta') ? 'globalThis[Symbol.for("runjs.builtin")].importMeta(import.meta);' : '';
  const source = `${meta}${hoisted.join('')}export const ${MAIN_EXPORT} = async () => {${prologue}${body}\n${ret}\n};\n`;
  return { source, imports };
}
