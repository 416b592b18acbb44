// Line-level three-way merge of text files (node-diff3) with conflicts written the way
// `git merge-file --diff3 -L ours -L base -L theirs` writes them, and unified diffs (jsdiff) of
// each side against the base for the agent that has to resolve them. Tests compare the results
// with git itself on a corpus of edits.
import { diff3Merge } from 'node-diff3';
import { createTwoFilesPatch } from 'diff';

/** What a pair of files is, for choosing a merge: only `text` merges line by line. */
export type ContentKind = 'text' | 'binary' | 'sqlite';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function sniff(bytes: Uint8Array): ContentKind {
  if (bytes.length >= SQLITE_MAGIC.length && SQLITE_MAGIC.equals(bytes.subarray(0, SQLITE_MAGIC.length))) return 'sqlite';
  if (bytes.includes(0)) return 'binary';
  try {
    utf8.decode(bytes);
    return 'text';
  } catch {
    return 'binary';
  }
}

/** Lines with their terminators, so joining them gives the text back byte for byte. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export type TextMerge =
  | { readonly clean: true; readonly text: string }
  | { readonly clean: false; readonly markers: string };

/** With `prefer`, conflicting hunks take that side (git's `-X ours|theirs`) and the merge is clean. */
export function mergeText(base: string, ours: string, theirs: string, prefer?: 'ours' | 'theirs'): TextMerge {
  const regions = diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs), { excludeFalseConflicts: true });
  let out = '';
  let clean = true;
  for (const r of regions) {
    if (r.ok) { out += r.ok.join(''); continue; }
    const c = r.conflict!;
    if (prefer !== undefined) { out += (prefer === 'ours' ? c.a : c.b).join(''); continue; }
    clean = false;
    // Markers end their lines the way the conflicting lines do (CRLF files get CRLF markers, as in git).
    const first = c.a[0] ?? c.b[0] ?? c.o[0] ?? '';
    const eol = first.endsWith('\r\n') ? '\r\n' : '\n';
    out += `<<<<<<< ours${eol}${block(c.a, eol)}||||||| base${eol}${block(c.o, eol)}=======${eol}${block(c.b, eol)}>>>>>>> theirs${eol}`;
  }
  return clean ? { clean: true, text: out } : { clean: false, markers: out };
}

/** A side of a conflict; a last line without a newline gets one, so the marker starts a line (as git does). */
function block(lines: readonly string[], eol: string): string {
  const s = lines.join('');
  return s === '' || s.endsWith('\n') ? s : `${s}${eol}`;
}

/** A unified diff from the base to one side, headed `base/<path>` and `<side>/<path>`. */
export function unifiedDiff(path: string, base: string, side: string, sideName: 'ours' | 'theirs'): string {
  return createTwoFilesPatch(`base/${path}`, `${sideName}/${path}`, base, side, undefined, undefined, { context: 3 });
}
