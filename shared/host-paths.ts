// Texts a run sends back (guest exceptions from ops, internal-error outcomes, a worker's stderr
// quoted in a run's error) must not name the host's directories: where runjs is installed, the worker's working directory, the temporary
// and home directories, where node lives. Errors runjs itself raises never include them; this is
// for the ones it passes on from Node or a library (an `ENOENT: … open '/srv/runjs/…'` from a
// failed read, a spawn error naming a binary). The guest's own world is "/" (process.cwd() is
// "/", os.tmpdir() is "/tmp"), so a host directory is replaced by `<host>`.
import { homedir, tmpdir } from 'node:os';
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where runjs is installed: the checkout, or for the npm package (which runs from its dist/) the
 * project whose node_modules holds it, so the dependencies installed beside it are covered too.
 */
const INSTALL_DIR = fileURLToPath(new URL('../', import.meta.url)).split(`${sep}node_modules${sep}`)[0]!;

/** Host directories, longest first (a directory inside another is replaced whole). */
const HOST_DIRS: readonly string[] = [...new Set([INSTALL_DIR, process.cwd(), tmpdir(), homedir(), dirname(process.execPath)]
  .map((d) => d.replace(/[/\\]+$/, ''))
  .filter((d) => d.length > 1))]
  .sort((a, b) => b.length - a.length);

/** `text` with every host directory (and anything under it) named `<host>`. */
export function redactHostPaths(text: string): string {
  let out = text;
  for (const dir of HOST_DIRS) if (out.includes(dir)) out = out.split(dir).join('<host>');
  return out;
}
