// `new new F(a)()` constructs what `new F(a)` returns (the grammar's `new MemberExpression
// Arguments`, the inner `new F(a)` being the MemberExpression). QuickJS's parser reads it as
// `new (new F(a)())`: it calls the inner result as a function before constructing. esbuild prints
// `new (new F(a))()` — and even `new (new F(a))` — in that shape, so WPT's idlharness check
// `new (new Proxy(C, { construct }))` called class constructors without `new` on QuickJS. The inner
// expression is put back in parentheses, which both engines read the same way. At most one
// character is added per occurrence: positions after it on that line move by a column (rare;
// stacks stay on the right line).
import { parse } from 'acorn';

const NESTED_NEW = /\bnew\s+new\b/;

interface Range { start: number; end: number }

/** Ranges of `new` callees that are themselves unparenthesized `new` expressions, in source order. */
function nestedNewCallees(code: string): Range[] {
  let ast: unknown;
  try {
    ast = parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, allowAwaitOutsideFunction: true });
  } catch {
    return []; // Not parseable here: the engine reports the syntax error as it would have.
  }
  const found: Range[] = [];
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const n = node as { type?: unknown; callee?: { type?: unknown; start: number; end: number } };
    if (typeof n.type !== 'string') continue;
    if (n.type === 'NewExpression' && n.callee?.type === 'NewExpression' && code[n.callee.start - 1] !== '(') {
      found.push({ start: n.callee.start, end: n.callee.end });
    }
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') stack.push(value);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** `code` with every `new` callee that is a bare `new` expression wrapped in parentheses. */
export function parenthesizeNestedNew(code: string): string {
  if (!NESTED_NEW.test(code)) return code;
  const ranges = nestedNewCallees(code);
  if (ranges.length === 0) return code;
  // Edits from the end so earlier offsets stay valid. The space esbuild prints between the two
  // `new`s becomes the opening parenthesis (`new(new F(a))()`), so only the closing one is added.
  const edits: Array<{ at: number; remove: number; text: string }> = [];
  for (const r of ranges) {
    const space = code[r.start - 1] === ' ';
    edits.push({ at: space ? r.start - 1 : r.start, remove: space ? 1 : 0, text: '(' }, { at: r.end, remove: 0, text: ')' });
  }
  edits.sort((a, b) => b.at - a.at);
  let out = code;
  for (const { at, remove, text } of edits) out = out.slice(0, at) + text + out.slice(at + remove);
  return out;
}
