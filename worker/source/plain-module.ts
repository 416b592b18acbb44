// Which scripts need no transform at all: plain JavaScript that means the same read as TypeScript.
// esbuild's round trip to its service process is ≈ 0.5–1.2 ms of a trivial run (docs/benchmarks.md);
// for such a script its output would differ from the input only in layout, so the worker runs the
// source as written.
//
// "Parses as a JavaScript module" is not enough: some texts are valid in both languages with
// different meanings, and the service promises TypeScript's. So a script is plain only when acorn
// parses it as an ES2023 module (nothing esbuild would lower at the es2023 target: no decorators,
// `using`, import attributes, `v`-flag regexes) AND none of its tokens is one where TypeScript
// could read something else:
//
// - `<` and `>` in the same script: `f<T>(x)` is a call with a type argument in TypeScript and
//   `(f < T) > x` in JavaScript; a script with only one of the two cannot hold a type argument list.
// - `)` directly followed by `:`: `a ? (b) : c => d` may be an arrow with a return type in
//   TypeScript (also `case (x): …`).
// - `!` right after a token that ends an expression: `a\n!b` is two statements in JavaScript, and
//   TypeScript's postfix non-null `a!` is a line away.
// - TypeScript's contextual keywords as names (`type`, `declare`, `abstract`, `namespace`, `as`, …),
//   except as a property name after `.` / `?.` or as a key or label before `:`: `type\nFoo = 1`,
//   `declare\nlet x`, `class { readonly\nx }` are where the two grammars part.
//
// Anything else goes through esbuild, so a false "not plain" costs time, never correctness. Three
// textual conditions also send a script to esbuild, for the positions in its error stacks: a
// hashbang (wrap-main.ts moves the body into a function), a line break other than \n or \r\n (V8
// counts lines by them, the wrapper's column bookkeeping by \n) and a `sourceURL`/`sourceMappingURL`
// magic comment (V8 would rename main.js in stacks; esbuild drops comments).
import { parse, tokTypes as tt, type Token, type TokenType } from 'acorn';

/** TypeScript's contextual keywords that change how a statement or class member reads. */
const TS_WORDS = new Set([
  'abstract', 'accessor', 'as', 'asserts', 'declare', 'enum', 'global', 'implements', 'infer', 'interface', 'is',
  'keyof', 'module', 'namespace', 'out', 'override', 'private', 'protected', 'public', 'readonly', 'satisfies',
  'type', 'unique', 'using',
]);

/** Tokens after which a `!` would be TypeScript's postfix non-null assertion. */
const ENDS_EXPRESSION: ReadonlySet<TokenType> = new Set([
  tt.name, tt.privateId, tt.num, tt.string, tt.regexp, tt.parenR, tt.bracketR, tt.braceR, tt.backQuote,
  tt._this, tt._super, tt._null, tt._true, tt._false, tt.incDec,
]);

/** Operator tokens whose text can open or close a TypeScript type argument list. */
const ANGLE_TOKENS: ReadonlySet<TokenType> = new Set([tt.relational, tt.bitShift, tt.assign]);

const UNUSUAL_LINE_BREAK = /\r(?!\n)|[\u2028\u2029]/;
const MAGIC_COMMENT = /[#@]\s*source(?:Mapping)?URL\s*=/;

/** Thrown from the token callback to stop parsing at the first token that disqualifies. */
class NotPlain extends Error {}

/**
 * True when `source` is a JavaScript module that TypeScript reads the same way: the worker may run
 * it without esbuild. False for TypeScript, for JavaScript the rules above cannot vouch for, and
 * for text that does not parse (esbuild then reports the error as it always has).
 */
export function isPlainModule(source: string): boolean {
  if (source.startsWith('#!') || UNUSUAL_LINE_BREAK.test(source) || MAGIC_COMMENT.test(source)) return false;
  let prev: Token | undefined;
  /** A contextual keyword whose verdict depends on the token after it. */
  let pendingWord = false;
  let sawLess = false;
  let sawGreater = false;
  const onToken = (tok: Token): void => {
    if (pendingWord && tok.type !== tt.colon) throw new NotPlain();
    pendingWord = false;
    const type = tok.type;
    if (type === tt.name) {
      const text = source.slice(tok.start, tok.end);
      // A name spelled with escapes (`\u0074ype`) may be a keyword in disguise: not vouched for.
      if (text.includes('\\')) throw new NotPlain();
      if (TS_WORDS.has(text) && prev?.type !== tt.dot && prev?.type !== tt.questionDot) pendingWord = true;
    } else if (ANGLE_TOKENS.has(type)) {
      const text = source.slice(tok.start, tok.end);
      if (text.includes('<')) sawLess = true;
      if (text.includes('>')) sawGreater = true;
      if (sawLess && sawGreater) throw new NotPlain();
    } else if (type === tt.colon) {
      if (prev?.type === tt.parenR) throw new NotPlain();
    } else if (type === tt.prefix && source.charCodeAt(tok.start) === 0x21 /* ! */) {
      if (prev !== undefined && ENDS_EXPRESSION.has(prev.type)) throw new NotPlain();
    }
    prev = tok;
  };
  try {
    parse(source, { ecmaVersion: 2023, sourceType: 'module', allowHashBang: false, onToken });
    return true;
  } catch {
    return false; // a disqualifying token, or not an ES2023 module
  }
}
