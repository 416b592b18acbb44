// Static imports of a guest script. `node:` (and bare builtin) names resolve to the guest's own
// modules as later work adds them; external specifiers need --allow-external-modules.

/** Builtin module name → guest module source. Empty until the guest platform adds modules. */
export type BuiltinModules = ReadonlyMap<string, string>;

/** Builtins Node knows only as `node:<name>` (worker/guest/platform/core/lazy-table.js PREFIX_ONLY). */
const PREFIX_ONLY: ReadonlySet<string> = new Set(['test']);

export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

/** What an external specifier names (for messages), or undefined for any other specifier. */
export function externalKind(specifier: string): string | undefined {
  if (specifier.startsWith('npm:')) return 'npm package';
  if (specifier.startsWith('jsr:')) return 'JSR package';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(specifier)) return 'URL module';
  return undefined;
}

/** Returns the source for `specifier`, or throws ImportError with a message for the user. */
export function resolveImport(specifier: string, builtins: BuiltinModules): string {
  const kind = externalKind(specifier);
  if (kind !== undefined) {
    throw new ImportError(`External module imports are disabled. Cannot import ${kind} '${specifier}'. Start the server with --allow-external-modules to enable.`);
  }
  const name = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  const source = specifier === name && PREFIX_ONLY.has(name) ? undefined : builtins.get(name);
  if (source !== undefined) return source;
  const available = [...builtins.keys()].sort().map((n) => `node:${n}`).join(', ') || 'none yet';
  if (specifier.startsWith('node:') || /^[a-z_]+(\/[a-z_]+)?$/.test(specifier)) {
    throw new ImportError(`Module '${specifier}' is not available in runjs. Available built-in modules: ${available}`);
  }
  throw new ImportError(`Cannot resolve import '${specifier}': only built-in modules can be imported (relative and bare package imports need --allow-external-modules with an npm: or URL specifier)`);
}
