// What a script's source may be before it reaches the transpiler. esbuild runs as one long-lived
// service process per worker, and some shapes of source make it pay far more than their size:
//
// - nesting: its parser recurses per level (a million `[` or `(` overflow its 1 GB goroutine stack
//   after ~4 s, and the service dies with every transform in flight);
// - indentation: it prints every block, statement and multi-line literal on its own line, indented
//   two spaces per level, so `{` ×1000 `}` ×1000 (2 KB) becomes 2 MB, and a 2 MB script made of
//   such chunks becomes gigabytes (measured: 400 KB → 400 MB in 30 s).
//
// One linear scan bounds all three before esbuild sees the script: its size, its bracket depth and
// an estimate of the indentation esbuild would print. The scan tokenizes just enough (strings,
// comments, template literals, regular expressions) not to count brackets that are text; where it
// guesses (a `/` after `)` or `}`), a wrong guess shifts the count by the brackets in one literal.
// The estimate is an upper bound for esbuild's output on the shapes it amplifies (blocks, nested
// `if`/`do` without braces, dotted namespaces); for ordinary code it is a few bytes per line.

/** Scripts are at most this many bytes of UTF-8. */
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
/** Brackets, braces, parentheses and `${` nest at most this deep. */
export const MAX_NESTING = 1000;
/** Indentation levels (esbuild prints two spaces each) summed over the lines of the transpiled script. */
export const MAX_INDENT_LEVELS = 16 * 1024 * 1024;

export const SOURCE_LIMIT_TEXTS = {
  tooLarge: (bytes: number) => `the script is ${bytes} bytes; scripts may be at most ${MAX_SOURCE_BYTES} bytes (4 MiB)`,
  tooDeep: `brackets, braces and parentheses nest deeper than ${MAX_NESTING} levels (the limit for scripts)`,
  tooIndented: `the script nests too deeply for its length: transpiled, it would be indented more than ${MAX_INDENT_LEVELS} levels in total (the limit for scripts); flatten deeply nested blocks that repeat`,
} as const;

export interface SourceLimitViolation {
  readonly message: string;
  /** 1-based line and column of the token that crossed a limit, when one did. */
  readonly line?: number;
  readonly column?: number;
}

/**
 * What the last token was. `start` (start, operator, punctuator): a `/` starts a regex and a
 * newline does not end the statement. `operand` (identifier, literal, `)`, `]`, `}`): a `/` divides
 * and a newline may end the statement (ASI). `head` (the `)` of an `if`/`for`/`while`/`with` head)
 * and `nest` (`else`, `do`): the statement goes on. `dot` (`.`, `?.`): a property name follows.
 */
type Prev = 'start' | 'operand' | 'head' | 'nest' | 'dot';
type Kind = 'paren' | 'bracket' | 'brace' | 'template';

/** Words after which a `/` starts a regular expression. */
const REGEX_AFTER = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'yield', 'await', 'extends']);
const HEAD_KEYWORDS = new Set(['if', 'for', 'while', 'with']);

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c === 35 || c === 92 || c >= 128;
}

function position(source: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < at; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: at - lineStart + 1 };
}

/** The first limit `source` breaks, or undefined when it is within all of them. */
export function checkSourceLimits(source: string): SourceLimitViolation | undefined {
  // A cheap bound first: UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (source.length * 3 > MAX_SOURCE_BYTES) {
    const bytes = Buffer.byteLength(source, 'utf8');
    if (bytes > MAX_SOURCE_BYTES) return { message: SOURCE_LIMIT_TEXTS.tooLarge(bytes) };
  }
  return new Scan(source).run();
}

/** The indentation levels checkSourceLimits estimates for `source` (for tests and measurements). */
export function estimateIndentLevels(source: string): number {
  const scan = new Scan(source);
  scan.run();
  return scan.indentLevels;
}

/**
 * Indentation model: the level of a line is the number of open brackets plus, per bracket level,
 * the statements nested without braces (`if (a) if (b) do …`, dotted `namespace a.b.c`) that are
 * still open there (`chain`). A statement ends at `;`, at a `}` that closes a block, or at a
 * newline after an operand; `else` and a do-while's `while` continue the statement that just
 * ended, so they return to its level. Each token that can start a line in esbuild's output adds
 * the current level to the total.
 */
class Scan {
  readonly #src: string;
  #i = 0;
  #prev: Prev = 'start';
  #prevWord = '';
  /** The open brackets: their kind, whether a `(` is a statement head, and the enclosing chain. */
  readonly #kinds: Kind[] = [];
  readonly #heads: boolean[] = [];
  readonly #savedChains: number[] = [];
  #chain = 0;
  /** Sum of the open levels' chains (so the level is #kinds.length + #chainSum). */
  #chainSum = 0;
  /** The chain of the statement that ended last, for `else` and a do-while's `while`. */
  #ended = 0;
  #justEnded = false;
  /** After `namespace X` / `module X`: each `.` of the name opens one more level. */
  #dottedName = false;
  #indent = 0;

  constructor(source: string) {
    this.#src = source;
  }

  get indentLevels(): number {
    return this.#indent;
  }

  run(): SourceLimitViolation | undefined {
    const s = this.#src;
    const n = s.length;
    if (s.startsWith('#!')) this.#i = this.#skipLine(2);
    while (this.#i < n) {
      const c = s.charCodeAt(this.#i);
      if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) { this.#newline(); this.#i++; continue; }
      if (c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff) { this.#i++; continue; }
      if (c === 47 /* / */) {
        const next = s.charCodeAt(this.#i + 1);
        if (next === 47) { this.#i = this.#skipLine(this.#i + 2); continue; }
        if (next === 42) { this.#skipBlockComment(); continue; }
        if (this.#prev === 'operand') { this.#punct(); this.#i++; continue; }
        this.#skipRegex();
        this.#operand();
        continue;
      }
      if (c === 39 || c === 34) { this.#skipString(c); this.#operand(); continue; }
      if (c === 96) {
        this.#i++;
        const v = this.#template();
        if (v) return v;
        continue;
      }
      if (isWordChar(c)) { this.#word(); continue; }
      const v = this.#punctuator(c);
      if (v) return v;
    }
    return undefined;
  }

  #level(): number {
    return this.#kinds.length + this.#chainSum;
  }

  /** A token that may start a line of esbuild's output. */
  #line(): SourceLimitViolation | undefined {
    this.#indent += this.#level();
    if (this.#indent > MAX_INDENT_LEVELS) return { message: SOURCE_LIMIT_TEXTS.tooIndented, ...position(this.#src, this.#i) };
    return undefined;
  }

  #endStatement(): void {
    // A second end in a row (`}` then a newline) keeps the level of the statement that ended.
    if (this.#justEnded && this.#chain === 0) return;
    this.#ended = this.#chain;
    this.#chainSum -= this.#chain;
    this.#chain = 0;
    this.#justEnded = true;
  }

  #resume(): void {
    if (!this.#justEnded || this.#ended <= this.#chain) return;
    this.#chainSum += this.#ended - this.#chain;
    this.#chain = this.#ended;
  }

  #nest(): void {
    this.#chain++;
    this.#chainSum++;
  }

  #operand(): void {
    this.#prev = 'operand';
    this.#prevWord = '';
    this.#justEnded = false;
    this.#dottedName = false;
  }

  #punct(): void {
    this.#prev = 'start';
    this.#prevWord = '';
    this.#justEnded = false;
    this.#dottedName = false;
  }

  #newline(): void {
    if (this.#prev === 'operand') this.#endStatement();
    this.#indent += this.#level();
  }

  #skipLine(from: number): number {
    const s = this.#src;
    let i = from;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) break;
      i++;
    }
    return i;
  }

  #skipBlockComment(): void {
    const end = this.#src.indexOf('*/', this.#i + 2);
    const stop = end === -1 ? this.#src.length : end + 2;
    // A comment with a line break ends a statement like the break would.
    const text = this.#src.slice(this.#i, stop);
    if (text.includes('\n') || text.includes('\r')) this.#newline();
    this.#i = stop;
  }

  #skipString(quote: number): void {
    const s = this.#src;
    let i = this.#i + 1;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 92) { i += 2; continue; }
      if (c === quote) { i++; break; }
      if (c === 10 || c === 13) break; // unterminated: esbuild reports it
      i++;
    }
    this.#i = i;
  }

  #skipRegex(): void {
    const s = this.#src;
    let i = this.#i + 1;
    let inClass = false;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 92) { i += 2; continue; }
      if (c === 10 || c === 13) break;
      if (inClass) { if (c === 93) inClass = false; } else if (c === 91) inClass = true;
      else if (c === 47) { i++; break; }
      i++;
    }
    while (i < s.length && isWordChar(s.charCodeAt(i))) i++; // flags
    this.#i = i;
  }

  /** Template text up to its end or its next `${` (which opens a level). */
  #template(): SourceLimitViolation | undefined {
    const s = this.#src;
    let i = this.#i;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 92) { i += 2; continue; }
      if (c === 96) { this.#i = i + 1; this.#operand(); return undefined; }
      if (c === 36 && s.charCodeAt(i + 1) === 123) {
        this.#i = i;
        const v = this.#open('template', false);
        this.#i = i + 2;
        this.#punct();
        return v;
      }
      i++;
    }
    this.#i = i;
    return undefined;
  }

  #word(): void {
    const s = this.#src;
    const start = this.#i;
    let i = start + 1;
    while (i < s.length && isWordChar(s.charCodeAt(i))) i++;
    this.#i = i;
    const afterDot = this.#prev === 'dot';
    const prevWord = this.#prevWord;
    // `namespace a.b.c` nests one level per name: each `.` of it opens one (see '.').
    const dotted = afterDot ? this.#dottedName : this.#prev === 'start' && (prevWord === 'namespace' || prevWord === 'module');
    const word = afterDot || i - start > 10 ? '' : s.slice(start, i);
    switch (word) {
      case 'if':
        // esbuild braces an `if` nested in another: its line and the closing `}` line.
        if (prevWord !== 'else') { this.#nest(); this.#indent += this.#level(); }
        this.#indent += this.#level();
        break;
      case 'do':
      case 'else':
        if (word === 'do') this.#nest();
        else this.#resume();
        this.#indent += this.#level();
        this.#prev = 'nest';
        this.#prevWord = word;
        this.#justEnded = false;
        return;
      case 'while':
        this.#resume();
        this.#indent += this.#level();
        break;
      case 'namespace':
      case 'module':
        this.#prev = 'start';
        this.#prevWord = word;
        this.#justEnded = false;
        return;
      default:
        break;
    }
    this.#operand();
    this.#dottedName = dotted;
    this.#prevWord = word;
    if (REGEX_AFTER.has(word) || HEAD_KEYWORDS.has(word)) this.#prev = 'start';
  }

  #open(kind: Kind, head: boolean): SourceLimitViolation | undefined {
    if (this.#kinds.length >= MAX_NESTING) return { message: SOURCE_LIMIT_TEXTS.tooDeep, ...position(this.#src, this.#i) };
    this.#kinds.push(kind);
    this.#heads.push(head);
    this.#savedChains.push(this.#chain);
    this.#chain = 0;
    return undefined;
  }

  /** Closes the innermost level; false when none is open (an unbalanced closer, esbuild's to report). */
  #close(): { kind: Kind; head: boolean } | undefined {
    const kind = this.#kinds.pop();
    if (kind === undefined) return undefined;
    const head = this.#heads.pop()!;
    this.#chainSum -= this.#chain;
    this.#chain = this.#savedChains.pop()!;
    return { kind, head };
  }

  #punctuator(c: number): SourceLimitViolation | undefined {
    const s = this.#src;
    switch (c) {
      case 40: /* ( */ {
        const v = this.#open('paren', this.#prev === 'start' && HEAD_KEYWORDS.has(this.#prevWord));
        if (v) return v;
        this.#i++;
        this.#punct();
        return undefined;
      }
      case 91: /* [ */ {
        const v = this.#open('bracket', false);
        if (v) return v;
        this.#i++;
        this.#punct();
        return undefined;
      }
      case 123: /* { */ {
        const line = this.#line();
        if (line) return line;
        const v = this.#open('brace', false);
        if (v) return v;
        this.#i++;
        this.#punct();
        return undefined;
      }
      case 41: /* ) */
      case 93: /* ] */ {
        const closed = this.#close();
        // A multi-line call or literal ends on a line of its own.
        const line = this.#line();
        if (line) return line;
        this.#i++;
        this.#operand();
        if (closed?.head) this.#prev = 'head';
        return undefined;
      }
      case 125: /* } */ {
        const closed = this.#close();
        if (closed?.kind === 'template') {
          this.#i++;
          return this.#template();
        }
        const line = this.#line();
        if (line) return line;
        this.#i++;
        this.#endStatement();
        this.#prev = 'operand';
        this.#prevWord = '';
        this.#dottedName = false;
        return undefined;
      }
      case 59: /* ; */ {
        const line = this.#line();
        if (line) return line;
        this.#i++;
        this.#endStatement();
        this.#prev = 'start';
        this.#prevWord = '';
        this.#dottedName = false;
        return undefined;
      }
      case 44: /* , */
      case 58: /* : */ {
        const line = this.#line();
        if (line) return line;
        this.#i++;
        this.#punct();
        return undefined;
      }
      case 46: /* . */ {
        const digit = s.charCodeAt(this.#i + 1);
        this.#i++;
        if (digit >= 48 && digit <= 57) return undefined; // `.5`: the digits that follow are the operand
        if (this.#dottedName) {
          // Each name becomes a nested function: `let b;`, `((b2) => {` and `})(b = …)` lines.
          this.#nest();
          this.#indent += 3 * this.#level();
          this.#prev = 'dot';
          return undefined;
        }
        this.#prev = 'dot';
        this.#prevWord = '';
        this.#justEnded = false;
        return undefined;
      }
      case 63: /* ? */
        if (s.charCodeAt(this.#i + 1) === 46 && !(s.charCodeAt(this.#i + 2) >= 48 && s.charCodeAt(this.#i + 2) <= 57)) {
          this.#i += 2;
          this.#prev = 'dot';
          this.#prevWord = '';
          this.#justEnded = false;
          this.#dottedName = false;
          return undefined;
        }
        this.#i++;
        this.#punct();
        return undefined;
      case 43: /* + */
      case 45: /* - */
        // `a++ / b` divides; `x = ++/re/.lastIndex` does not parse anyway.
        if (s.charCodeAt(this.#i + 1) === c && this.#prev === 'operand') { this.#i += 2; this.#operand(); return undefined; }
        this.#i++;
        this.#punct();
        return undefined;
      default:
        this.#i++;
        this.#punct();
        return undefined;
    }
  }
}
