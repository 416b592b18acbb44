// The ES module source of every builtin module (`node:path`, bare `path`, …): a thin wrapper
// over the module object the guest platform's registry returns (see
// worker/guest/platform/core/registry.js). Export names come from generated/module-exports.json,
// which scripts/gen-guest-bundle.ts derives from the platform itself.
import { readFileSync } from 'node:fs';
import type { BuiltinModules } from '../source/resolve-import.ts';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(['default', 'delete', 'new', 'class', 'function', 'var', 'let', 'const', 'if', 'else', 'for', 'while', 'do',
  'return', 'switch', 'case', 'break', 'continue', 'throw', 'try', 'catch', 'finally', 'in', 'of', 'instanceof', 'typeof', 'void',
  'this', 'super', 'import', 'export', 'extends', 'yield', 'await', 'enum', 'null', 'true', 'false', 'with', 'debugger', 'static',
  'implements', 'interface', 'package', 'private', 'protected', 'public', 'arguments', 'eval']);

export function moduleSource(name: string, exportNames: readonly string[]): string {
  // With its `node:`: some builtins (node:test) have no bare name.
  const lines = [`const m = globalThis[Symbol.for('runjs.builtin')](${JSON.stringify(`node:${name}`)});`, 'export default m;'];
  let i = 0;
  for (const n of exportNames) {
    if (n === 'default') continue;
    if (IDENTIFIER.test(n) && !RESERVED.has(n)) lines.push(`export const ${n} = m.${n};`);
    else {
      const local = `__e${i++}`;
      lines.push(`const ${local} = m[${JSON.stringify(n)}];`, `export { ${local} as ${JSON.stringify(n)} };`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function load(): BuiltinModules {
  const json = JSON.parse(readFileSync(new URL('generated/module-exports.json', import.meta.url), 'utf8')) as Record<string, string[]>;
  return new Map(Object.entries(json).map(([name, names]) => [name, moduleSource(name, names)]));
}

export const BUILTIN_MODULES: BuiltinModules = load();
