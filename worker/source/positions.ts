// Maps `file:///main.js:L:C` positions in error texts back to the script as submitted. Two steps
// separate them: esbuild reformats the code (blank lines dropped, statements split; its source
// map undoes that), and wrap-main.ts edits the transpiled code without changing its lines (the
// wrapper prologue before line 1's code, the result capture around the last expression), which
// the breakpoints recorded while wrapping undo.
import { SourceMap } from 'node:module';

/** A point on an output line from which on columns are shifted by `delta` against the input. */
interface Breakpoint {
  readonly col: number;
  readonly delta: number;
}

/** Column shifts wrap-main.ts introduced, per line (1-based lines, 0-based columns). */
export class WrapShifts {
  readonly #lines = new Map<number, Breakpoint[]>();

  add(line: number, col: number, delta: number): void {
    let list = this.#lines.get(line);
    if (!list) { list = []; this.#lines.set(line, list); }
    list.push({ col, delta });
  }

  /** The transpiled column of wrapped column `col` on `line` (0-based columns). */
  toTranspiled(line: number, col: number): number {
    const list = this.#lines.get(line);
    let delta = 0;
    if (list) for (const b of list) if (b.col <= col) delta = b.delta;
    return Math.max(0, col - delta);
  }
}

const MAIN_POSITION = /file:\/\/\/main\.js:(\d+):(\d+)/g;

/** esbuild's source map (JSON) as a SourceMap, or undefined when it does not parse. */
export function parseSourceMap(mapJson: string): SourceMap | undefined {
  try {
    return new SourceMap(JSON.parse(mapJson) as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    return undefined;
  }
}

/**
 * The submitted source's position (1-based line, 0-based column) of transpiled `line`:`col`.
 * With the transpiled line's text, whitespace after the mapping found is not counted: esbuild maps
 * a statement from the start of its line, before the indentation it wrote itself.
 */
export function originalPosition(map: SourceMap, line: number, col: number, generatedText?: string): { line: number; column: number } | undefined {
  const entry = map.findEntry(line - 1, col) as { originalLine?: number; originalColumn?: number; generatedLine?: number; generatedColumn?: number };
  if (entry.originalLine === undefined || entry.originalColumn === undefined || entry.generatedColumn === undefined) return undefined;
  if (entry.generatedLine !== line - 1) return { line: entry.originalLine + 1, column: entry.originalColumn };
  // findEntry gives the mapping at or before the position; keep the offset into that token.
  let from = entry.generatedColumn;
  if (generatedText !== undefined) while (from < col && /\s/.test(generatedText[from] ?? '')) from++;
  return { line: entry.originalLine + 1, column: entry.originalColumn + col - from };
}

/**
 * Rewrites every main.js position in `text` to the submitted source's line and column. A null map:
 * the script ran as written (plain-module.ts), so only the wrapper's shifts are undone.
 */
export function remapPositions(text: string, shifts: WrapShifts, mapJson: string | null): string {
  if (!text.includes('file:///main.js:')) return text;
  if (mapJson === null) {
    return text.replace(MAIN_POSITION, (_whole, l: string, c: string) => `file:///main.js:${l}:${shifts.toTranspiled(Number(l), Number(c) - 1) + 1}`);
  }
  const map = parseSourceMap(mapJson);
  if (map === undefined) return text;
  return text.replace(MAIN_POSITION, (whole, l: string, c: string) => {
    const line = Number(l);
    const at = originalPosition(map, line, shifts.toTranspiled(line, Number(c) - 1));
    return at === undefined ? whole : `file:///main.js:${at.line}:${at.column + 1}`;
  });
}
