// WebAssembly modules (docs/wasm.md): the bytes of a module the operator configured, for the
// guest's lazy `__wasm_<name>` (worker/guest/prelude.js installWasm), which compiles them in the
// run's own isolate. Nothing here reads a file: the supervisor loaded and checked the modules at
// startup and sent them in WorkerSettings.wasm.
import { OpError, type OpFactory } from '../op-types.ts';

export const createWasmOps: OpFactory = (settings) => {
  const modules = new Map((settings.wasm ?? []).map((m) => [m.name, m.bytes]));
  return {
    /** {name} → the module's bytes. */
    'wasm.bytes': {
      kind: 'sync',
      run(args) {
        const name = typeof args === 'object' && args !== null ? (args as Record<string, unknown>)['name'] : undefined;
        const bytes = typeof name === 'string' ? modules.get(name) : undefined;
        if (bytes === undefined) throw new OpError(`no WebAssembly module is named ${JSON.stringify(name)}`, 'TypeError');
        return bytes;
      },
    },
  };
};
