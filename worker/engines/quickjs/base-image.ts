// The base image: a fresh QuickJS runtime and context with our limits switched on, the engine
// bridge and the guest prelude evaluated — captured once per worker, and the state every fresh
// heap-mode run boots from (restoring it is ~1 ms; evaluating the prelude is far more).
import { readFileSync } from 'node:fs';
import type { HeapImage, ImageHandles } from '../../../shared/heap-image.ts';
import { PRELUDE_FILENAME, PRELUDE_SOURCE } from '../../guest/prelude-source.ts';
import { guestVersion } from './guest-version.ts';
import { PRELOAD_JSON } from '../../guest/preloaded-parts.ts';
import { captureImage } from './memory-image.ts';
import { EVAL_GLOBAL } from './raw-ffi.ts';
import type { WasmVm } from './wasm-vm.ts';

export const BRIDGE_SOURCE = readFileSync(new URL('bridge.js', import.meta.url), 'utf8');
/** Contains "runjs:prelude" so the prelude's stack cleaning drops the bridge's frames too. */
export const BRIDGE_FILENAME = 'runjs:prelude/quickjs-bridge';
/** The one host function's HostRef id; stored inside images, so it may never change. */
export const HOST_FUNCTION_ID = 1;
/**
 * Scratch block layout: 16 argv pointers, then 8 inline JSValues (argument values that need no
 * allocation), then the ExecutePendingJob context out-pointer.
 */
export const SCRATCH_ARGV = 0;
export const SCRATCH_VALUES = 64;
export const SCRATCH_CTX_OUT = 128;
const SCRATCH_BYTES = 144;

/** Thrown when QuickJS rejects the bridge or the prelude (a bug in runjs, not in a script). */
export class BaseImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaseImageError';
  }
}

function check(vm: WasmVm, ctx: number, valuePtr: number, what: string): number {
  if (!vm.isException(valuePtr)) return valuePtr;
  const ex = vm.ffi.QTS_ResolveException(ctx, valuePtr);
  vm.ffi.QTS_FreeValuePointer(ctx, valuePtr);
  const text = ex ? vm.getString(ctx, ex) : 'unknown error';
  throw new BaseImageError(`QuickJS rejected the ${what}: ${text}`);
}

/** The realm reads JSValue tags straight from memory; make sure this build lays them out as assumed. */
function checkValueLayout(vm: WasmVm, ctx: number): void {
  const ffi = vm.ffi;
  const float = ffi.QTS_NewFloat64(ctx, 0.5);
  const thrown = vm.evaluate(ctx, 'throw 0', 'runjs:layout-check', EVAL_GLOBAL);
  const ok = vm.isNumber(float) && !vm.isException(float) && vm.isException(thrown) && !vm.isNumber(thrown);
  ffi.QTS_FreeValuePointer(ctx, float);
  const ex = ffi.QTS_ResolveException(ctx, thrown);
  ffi.QTS_FreeValuePointer(ctx, thrown);
  if (ex) ffi.QTS_FreeValuePointer(ctx, ex);
  if (!ok) throw new BaseImageError('this QuickJS build lays out JSValues differently than runjs expects');
}

/** Builds the base state in a fresh VM and captures it. The VM is left holding that state. */
export function buildBaseImage(vm: WasmVm, build: string, maxStackBytes: number): HeapImage {
  const ffi = vm.ffi;
  const rt = ffi.QTS_NewRuntime();
  const ctx = ffi.QTS_NewContext(rt, 0);
  if (rt === 0 || ctx === 0) throw new BaseImageError('QuickJS could not create a runtime');
  checkValueLayout(vm, ctx);
  ffi.QTS_RuntimeSetMaxStackSize(rt, maxStackBytes);
  ffi.QTS_RuntimeEnableInterruptHandler(rt);
  ffi.QTS_RuntimeEnableModuleLoader(rt, 0);
  const scratch = vm.malloc(SCRATCH_BYTES);
  vm.u8.fill(0, scratch, scratch + SCRATCH_BYTES);

  const raw = ffi.QTS_NewFunction(ctx, '__runjs_host', 3, false, HOST_FUNCTION_ID);
  const setup = check(vm, ctx, vm.evaluate(ctx, BRIDGE_SOURCE, BRIDGE_FILENAME, EVAL_GLOBAL), 'engine bridge');
  const bridge = check(vm, ctx, vm.call(ctx, scratch, setup, ffi.QTS_GetUndefined(), [raw]), 'engine bridge setup');
  ffi.QTS_FreeValuePointer(ctx, setup);
  ffi.QTS_FreeValuePointer(ctx, raw);
  const internal = check(vm, ctx, vm.evaluate(ctx, PRELUDE_SOURCE, PRELUDE_FILENAME, EVAL_GLOBAL), 'guest prelude');
  const failed = vm.drainJobs(rt, ctx, scratch + SCRATCH_CTX_OUT);
  if (failed !== 0) throw new BaseImageError(`QuickJS failed running the guest prelude's jobs: ${vm.getString(ctx, failed)}`);
  preloadParts(vm, rt, ctx, scratch, internal);

  const handles: ImageHandles = { rt, ctx, internal, bridge, scratch };
  return captureImage(vm, { build, prelude: guestVersion(), handles, generation: 0 });
}

/** Evaluates the preloaded platform parts (worker/guest/preloaded-parts.ts) into the image. */
function preloadParts(vm: WasmVm, rt: number, ctx: number, scratch: number, internal: number): void {
  const ffi = vm.ffi;
  const name = vm.newString(ctx, 'preloadParts');
  const fn = check(vm, ctx, ffi.QTS_GetProp(ctx, internal, name), 'preloadParts lookup');
  ffi.QTS_FreeValuePointer(ctx, name);
  const json = vm.newString(ctx, PRELOAD_JSON);
  const result = check(vm, ctx, vm.call(ctx, scratch, fn, internal, [json]), 'preloaded platform parts');
  ffi.QTS_FreeValuePointer(ctx, result);
  ffi.QTS_FreeValuePointer(ctx, json);
  ffi.QTS_FreeValuePointer(ctx, fn);
  const failed = vm.drainJobs(rt, ctx, scratch + SCRATCH_CTX_OUT);
  if (failed !== 0) throw new BaseImageError(`QuickJS failed running the preloaded parts' jobs: ${vm.getString(ctx, failed)}`);
}
