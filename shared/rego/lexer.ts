// The Rego lexer: source text → tokens with 1-based line and column. Newlines are not tokens;
// each token records whether a newline precedes it, because a newline ends an expression in a
// rule body but not inside brackets (the parser decides which applies).
import { RegoError } from './errors.ts';

export type TokenKind = 'ident' | 'string' | 'number' | 'op' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** Identifier or operator text; a string's decoded value; a number's source text. */
  readonly text: string;
  readonly line: number;
  readonly col: number;
  /** A newline (or the start of the file) comes between the previous token and this one. */
  readonly nl: boolean;
}

export interface Position {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

// Longest first, so `:=` wins over `:`.
const OPERATORS = [':=', '==', '!=', '<=', '>=', '=', '<', '>', '+', '-', '*', '/', '%', '&', '|', '[', ']', '{', '}', '(', ')', ',', ';', '.', ':'];

const isIdentStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

export function tokenize(src: string, file: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let nl = true;
  const fail = (msg: string, at: number): never => {
    throw new RegoError('rego_parse_error', msg, { file, line, col: at - lineStart + 1 });
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      nl = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const col = i - lineStart + 1;
    const start = i;
    if (isIdentStart(c)) {
      while (i < src.length && (isIdentStart(src[i]!) || isDigit(src[i]!))) i++;
      out.push({ kind: 'ident', text: src.slice(start, i), line, col, nl });
    } else if (isDigit(c)) {
      while (i < src.length && isDigit(src[i]!)) i++;
      if (src[i] === '.' && isDigit(src[i + 1] ?? '')) {
        i++;
        while (i < src.length && isDigit(src[i]!)) i++;
      }
      if (src[i] === 'e' || src[i] === 'E') {
        i++;
        if (src[i] === '+' || src[i] === '-') i++;
        if (!isDigit(src[i] ?? '')) fail('invalid number', start);
        while (i < src.length && isDigit(src[i]!)) i++;
      }
      out.push({ kind: 'number', text: src.slice(start, i), line, col, nl });
    } else if (c === '"') {
      i++;
      let s = '';
      for (;;) {
        if (i >= src.length || src[i] === '\n') fail('non-terminated string', start);
        const d = src[i]!;
        if (d === '"') { i++; break; }
        if (d === '\\') {
          const e = src[i + 1];
          const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
          if (e !== undefined && simple[e] !== undefined) { s += simple[e]; i += 2; continue; }
          if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) {
            s += String.fromCharCode(parseInt(src.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          fail(`illegal escape sequence in string`, i);
        }
        s += d;
        i++;
      }
      out.push({ kind: 'string', text: s, line, col, nl });
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end < 0) fail('non-terminated raw string', start);
      const raw = src.slice(i + 1, end);
      out.push({ kind: 'string', text: raw, line, col, nl });
      for (let j = i; j < end; j++) if (src[j] === '\n') { line++; lineStart = j + 1; }
      i = end + 1;
    } else {
      const op = OPERATORS.find((o) => src.startsWith(o, i));
      if (op === undefined) fail(`illegal token '${c}'`, i);
      i += op!.length;
      out.push({ kind: 'op', text: op!, line, col, nl });
    }
    nl = false;
  }
  out.push({ kind: 'eof', text: '', line, col: i - lineStart + 1, nl: true });
  return out;
}
