// Lists each builtin module's export names by booting the freshly built prelude in a node:vm
// context (a realm of its own, like an isolate) with a stub host, and asking the registry.
// Module wrappers need static export lists; this keeps them exactly in step with the platform.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { ROOT_FOR_EXPORTS as ROOT } from './root.ts';

export function listModuleExports(files: ReadonlyMap<string, string>): Record<string, string[]> {
  const read = (p: string) => files.get(p) ?? readFileSync(`${ROOT}${p}`, 'utf8');
  const source = ['worker/guest/prelude.js', 'worker/guest/generated/platform.js', 'worker/guest/prelude-end.js'].map(read).join('\n');
  const context = vm.createContext({});
  context['__runjs_host'] = (op: string, argsJson: string) => {
    if (op === 'platform.part') return `v${JSON.stringify(read(`worker/guest/generated/parts/${JSON.parse(argsJson) as string}.js`))}`;
    if (op === 'perf.now') return 'v0';
    return 'v';
  };
  vm.runInContext(source, context, { filename: 'runjs:prelude' });
  const names = vm.runInContext(`JSON.stringify((() => {
    const builtin = globalThis[Symbol.for('runjs.builtin')];
    const out = {};
    for (const name of builtin.names) {
      const m = builtin('node:' + name);
      if (m === null || (typeof m !== 'object' && typeof m !== 'function')) throw new Error('builtin module ' + name + ' is missing from its part');
      // Non-enumerable own properties too (console's Console is one); not a function module's own
      // length/name/prototype, and only names an import can spell.
      const skip = typeof m === 'function' ? ['default', 'length', 'name', 'prototype', 'caller', 'arguments'] : ['default'];
      out[name] = Object.getOwnPropertyNames(m).filter((k) => !skip.includes(k) && /^[A-Za-z_$][\\w$]*$/.test(k)).sort();
    }
    return out;
  })())`, context) as string;
  return JSON.parse(names) as Record<string, string[]>;
}
