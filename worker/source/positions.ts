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

/**
 * Rewrites every main.js position in `text` to the submitted source's line and column. A null map:
 * the script ran as written (plain-module.ts), so only the wrapper's shifts are undone.
 */
export function remapPositions(text: string, shifts: WrapShifts, mapJson: string | null): string {
  if (!text.includes('file:///main.js:')) return text;
  if (mapJson === null) {
    return text.replace(MAIN_POSITION, (_whole, l: string, c: string) => `file:///main.js:${l}:${shifts.toTranspiled(Number(l), Number(c) - 1) + 1}`);
  }
  let map: SourceMap | undefined;
  try {
    map = new SourceMap(JSON.parse(mapJson) as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    return text;
  }
  return text.replace(MAIN_POSITION, (whole, l: string, c: string) => {
    const line = Number(l);
    const col = shifts.toTranspiled(line, Number(c) - 1);
    const entry = map.findEntry(line - 1, col) as { originalLine?: number; originalColumn?: number; generatedLine?: number; generatedColumn?: number };
    if (entry.originalLine === undefined || entry.originalColumn === undefined || entry.generatedColumn === undefined) return whole;
    // findEntry gives the mapping at or before the position; keep the offset into that token.
    const column = entry.originalColumn + (entry.generatedLine === line - 1 ? col - entry.generatedColumn : 0);
    return `file:///main.js:${entry.originalLine + 1}:${column + 1}`;
  });
}
