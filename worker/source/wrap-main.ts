// Turns the transpiled main module into the shape both engines run:
//
//   <hoisted import declarations>export const __runjs_main = ((main) => main)(async () => { <body> });
//
// The body keeps its line numbers (imports are blanked in place and hoisted onto line 1, or, with
// `prologueLine` (V8), onto a line of their own before it that the engine counts as line 0). The
// async wrapper gives the run one promise to follow on every engine — isolated-vm's
// Module.evaluate() does not wait for top-level await. The function is anonymous (V8 names a
// function by the binding it is assigned to, even through an array literal, but not a call's
// argument), so the frames of the script's top level read
// `at file:///main.js:L:C`, as a module's top level does in Node, not `at __runjs_main (…)` —
// in `err.stack` as a script reads it too, not only in the texts runjs cleans. The prelude calls it and attaches its
// handlers in the same turn, so no rejection is ever seen as unhandled. It returns a null-prototype
// { k: kind, v: value } (no inherited `then` a script could plant on Object.prototype to hijack the
// promise resolution): kind 1 for the last top-level expression statement (REPL semantics), 2 for
// `export default`, 0 for none.
import { parse, type Node, type Program, type Statement, type ModuleDeclaration } from 'acorn';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import { moduleSyntaxEdits, moduleSyntaxPrologue } from './module-syntax.ts';
import { WrapShifts } from './positions.ts';
import { persistTopLevelEdits } from './persist-top-level.ts';

export const MAIN_EXPORT = '__runjs_main';
const COMPLETION_BASE = '__runjs_completion';

/** A wrapper-owned name that the script itself does not use (so the two cannot collide). */
function freshName(js: string, base: string): string {
  let name = base;
  for (let i = 1; js.includes(name); i++) name = `${base}${i}`;
  return name;
}

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
  /** Per specifier, the names the script's import declarations name (`import { a, "b-c" as d }` → a, b-c). */
  readonly importNames: ReadonlyMap<string, readonly string[]>;
  /** How columns of `source` shifted against the transpiled input (for error positions). */
  readonly shifts: WrapShifts;
  /** The line offset to compile `source` with: -1 with `prologueLine`, else 0. */
  readonly lineOffset: number;
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

export interface WrapOptions {
  /** Heap-mode runs: top-level declarations become globals that survive into later runs (persist-top-level.ts). */
  readonly persistTopLevel?: boolean;
  /**
   * --allow-external-modules: `import('npm:…')` (jsr:, URL) with a string-literal specifier becomes a
   * static import of the module (loaded before the script starts) and a promise of its namespace.
   */
  readonly externalImports?: boolean;
  /**
   * The engine compiles the main module with a line offset (V8; QuickJS has none): the wrapper's
   * prologue then takes a line of its own before the script's first, the module is compiled with
   * `lineOffset` -1, and every position the engine reports — `err.stack` as a script reads it too —
   * is the script's own line and column, line 1 included (otherwise line 1's columns are shifted
   * by the prologue).
   */
  readonly prologueLine?: boolean;
}

export function wrapMain(input: string, opts: WrapOptions = {}): WrappedMain {
  // A hashbang line is only valid at the very start of a file, and the body moves into a
  // function: blank it in place (keeping the line count).
  const js = input.startsWith('#!') ? blank(input.slice(0, input.indexOf('\n') < 0 ? input.length : input.indexOf('\n'))) + input.slice(input.indexOf('\n') < 0 ? input.length : input.indexOf('\n')) : input;
  const COMPLETION = freshName(js, COMPLETION_BASE);
  let program: Program;
  try {
    program = parse(js, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true });
  } catch (e) {
    // esbuild accepted it, so this is an acorn gap; report it like any other parse error.
    const loc = (e as { loc?: { line?: unknown; column?: unknown } }).loc;
    const where = loc && typeof loc.line === 'number' && typeof loc.column === 'number' ? `${loc.line}:${loc.column + 1}: ` : '';
    const message = e instanceof Error ? e.message.replace(/ \(\d+:\d+\)$/, '') : String(e);
    throw new ModuleSpecifierError(`${EXECUTION_ERRORS.TYPESCRIPT_PREFIX}${where}${message}`);
  }
  const syntaxNames = { importFn: freshName(js, '__runjs_import'), meta: freshName(js, '__runjs_import_meta') };
  const hoisted: string[] = [];
  const imports: string[] = [];
  const dynamic = new Map<string, string>();
  const literal = opts.externalImports !== true ? undefined : (specifier: string): string | undefined => {
    if (!/^(npm:|jsr:|https?:\/\/)/i.test(specifier)) return undefined;
    let name = dynamic.get(specifier);
    if (name === undefined) {
      name = freshName(js, `__runjs_ext${dynamic.size}`);
      dynamic.set(specifier, name);
      imports.push(specifier);
      hoisted.push(`import * as ${name} from ${JSON.stringify(specifier)};`);
    }
    return `Promise.resolve(${name})`;
  };
  const edits = moduleSyntaxEdits(js, program, syntaxNames, literal);
  const moduleScope = edits.length > 0 ? moduleSyntaxPrologue(syntaxNames, opts.externalImports === true) : '';
  const importNames = new Map<string, string[]>();
  const named = (specifier: string, name: string): void => {
    const list = importNames.get(specifier) ?? [];
    if (!list.includes(name)) list.push(name);
    importNames.set(specifier, list);
  };
  let hasDefault = false;

  for (const node of program.body) {
    switch (node.type) {
      case 'ImportDeclaration':
        imports.push(String(node.source.value));
        for (const spec of node.specifiers) {
          if (spec.type === 'ImportSpecifier') named(String(node.source.value), spec.imported.type === 'Identifier' ? spec.imported.name : String(spec.imported.value));
        }
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

  let persisted = '';
  if (opts.persistTopLevel) {
    const p = persistTopLevelEdits(js, program);
    edits.push(...p.edits);
    persisted = p.prologue;
  }

  const prologue = `const ${COMPLETION} = [0, undefined, undefined];${persisted}`;
  const head = `${hoisted.join('')}${moduleScope}export const ${MAIN_EXPORT} = ((main) => main)(async () => {${prologue}`;
  const shifts = new WrapShifts();
  // Columns of line 1 that the head shifts (none when it has a line of its own).
  const headColumns = opts.prologueLine === true ? 0 : head.length;
  if (headColumns > 0) shifts.add(1, headColumns, headColumns);
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let body = '';
  let pos = 0;
  let line = 1;
  for (const e of edits) {
    const copied = js.slice(pos, e.start);
    body += copied + e.text;
    for (let i = copied.indexOf('\n'); i >= 0; i = copied.indexOf('\n', i + 1)) line++;
    for (let i = e.text.indexOf('\n'); i >= 0; i = e.text.indexOf('\n', i + 1)) line++;
    pos = Math.max(pos, e.end);
    // After the edit, columns on this line differ by (output column - input column).
    const outCol = body.length - (body.lastIndexOf('\n') + 1) + (body.includes('\n') ? 0 : headColumns);
    const inCol = pos - (js.lastIndexOf('\n', pos - 1) + 1);
    shifts.add(line, outCol, outCol - inCol);
  }
  body += js.slice(pos);

  const ret = `return ${COMPLETION}[0] === 1 ? { __proto__: null, k: 1, v: ${COMPLETION}[1] } : ${hasDefault ? `{ __proto__: null, k: 2, v: ${COMPLETION}[2] }` : '{ __proto__: null, k: 0 }'};`;
  const source = `${head}${opts.prologueLine === true ? '\n' : ''}${body}\n${ret}\n});\n`;
  return { source, imports, importNames, shifts, lineOffset: opts.prologueLine === true ? -1 : 0 };
}
