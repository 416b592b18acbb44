// The source text of the expression a failed `assert.ok(value)` was called with, as Node 24 shows
// it ("The expression evaluated to a falsy value:\n\n  assert.ok(x === 1)\n"): the call's line is
// tokenized (never parsed: it may be an incomplete statement), member accesses before the call's
// column are kept (`assert.ok`, `assert['ok']`), and the text ends at the parenthesis that closes
// the call, or at a semicolon, or at the end of the line — Node's lib/internal/errors/error_source.js.
import { Parser, type Token } from 'acorn';

const MEMBER_ACCESS = ['.', '?.', '[', ']'];
const MEMBER_NAME = ['name', 'string', 'num'];
// QuickJS reports a call at its `(` or at a statement keyword before it, where V8 reports the callee's name.
const STATEMENT_WORDS = /^(?:return|await|throw|yield|void|typeof|else|do|case)\s+/;
// Node's escapeSequencesRegExp: control characters but \t and \n.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;

/** Moves a column QuickJS gave to where V8 would put it (the start of the called name). */
function normaliseColumn(line: string, column: number): number {
  let col = column;
  const word = STATEMENT_WORDS.exec(line.slice(col));
  if (word !== null) col += word[0].length;
  if (line[col] === '(') {
    let i = col;
    while (i > 0 && /\s/.test(line[i - 1]!)) i--;
    while (i > 0 && /[\w$]/.test(line[i - 1]!)) i--;
    if (i < col && /[\w$]/.test(line[i]!)) col = i;
  }
  return col;
}

/**
 * Longest line tokenized. A failing assert in a loop asks once per failure: a bound keeps each ask
 * cheap for the host however long a (minified) line is; past it the message shows the value.
 */
export const MAX_LINE = 10_000;

/** The expression text starting at `column` (0-based) of `line`, or undefined when there is none. */
export function sourceExpression(line: string, column: number): string | undefined {
  if (column < 0 || column >= line.length || line.length > MAX_LINE) return undefined;
  const startColumn = normaliseColumn(line, column);
  let lastToken: Token | undefined;
  let firstMember: Token | null | undefined;
  let end: number | undefined;
  let parens = 0;
  try {
    for (const token of Parser.tokenizer(line, { ecmaVersion: 'latest' })) {
      const label = token.type.label;
      if (token.start < startColumn) {
        if (label === ';') { firstMember = null; continue; }
        if (MEMBER_ACCESS.includes(label) && lastToken?.type.label === 'name') firstMember ??= lastToken;
        else if (!MEMBER_ACCESS.includes(label) && !MEMBER_NAME.includes(label)) firstMember = null;
        lastToken = token;
        continue;
      }
      if (label === '(') { parens++; continue; }
      if (label === ')') {
        parens--;
        if (parens === 0) { end = token.start + 1; break; }
        continue;
      }
      // Node slices up to the token object here (NaN: an empty text); the line's end is what it means.
      if (label === ';') { end = token.start; break; }
    }
  } catch {
    // An unterminated template or comment on the line: what was read so far decides.
  }
  const text = line.slice(firstMember?.start ?? startColumn, end);
  if (text.trim() === '') return undefined;
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
