// External import specifiers: `npm:name[@range][/subpath]`, `jsr:@scope/name[@range][/subpath]`
// (through JSR's npm-compatible registry, as `@jsr/scope__name`) and http(s) URLs.

export type ModuleType = 'npm' | 'jsr' | 'url';

export type ParsedSpecifier =
  | { readonly type: 'npm' | 'jsr'; readonly name: string; readonly range: string; readonly subpath: string }
  | { readonly type: 'url'; readonly url: string };

export class SpecifierError extends Error {
  override readonly name = 'SpecifierError';
}

const NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

/** Whether `name` is a package name runjs accepts (one path segment, or `@scope/name`; never `..`). */
export function isPackageName(name: string): boolean {
  return NAME.test(name) && !name.split('/').some((p) => p === '.' || p === '..');
}

/** Parses `specifier`; throws SpecifierError with the reason. */
export function parseSpecifier(specifier: string): ParsedSpecifier {
  if (specifier.startsWith('npm:') || specifier.startsWith('jsr:')) {
    const type = specifier.slice(0, 3) as 'npm' | 'jsr';
    const rest = specifier.slice(4).replace(/^\/+/, '');
    // The name is one path segment, or two for a scope; a version range follows an `@`.
    const scoped = rest.startsWith('@');
    const firstSlash = rest.indexOf('/');
    const nameEnd = scoped ? (firstSlash === -1 ? -1 : firstSlash + 1) : 0;
    const tail = rest.slice(nameEnd);
    const m = /^([^@/]+)(?:@([^/]*))?(?:\/(.*))?$/.exec(tail);
    if (nameEnd === -1 || m === null) throw new SpecifierError(`'${specifier}' is not a valid ${type}: specifier (expected ${type}:${type === 'jsr' ? '@scope/' : ''}name[@range][/subpath])`);
    const name = rest.slice(0, nameEnd) + m[1]!;
    if (!isPackageName(name) || (type === 'jsr' && !scoped)) {
      throw new SpecifierError(`'${specifier}' is not a valid ${type}: specifier (expected ${type}:${type === 'jsr' ? '@scope/' : ''}name[@range][/subpath])`);
    }
    const subpath = m[3] ?? '';
    if (subpath.split('/').some((p) => p === '..')) throw new SpecifierError(`'${specifier}': the subpath may not contain '..'`);
    const npmName = type === 'jsr' ? `@jsr/${name.slice(1).replace('/', '__')}` : name;
    return { type, name: npmName, range: m[2] === undefined || m[2] === '' ? 'latest' : decodeURIComponent(m[2]), subpath };
  }
  let url: URL;
  try {
    url = new URL(specifier);
  } catch {
    throw new SpecifierError(`'${specifier}' is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SpecifierError('only https/http modules are supported');
  return { type: 'url', url: url.href };
}
