// The subset of quickjs-emscripten's low-level FFI (QTS_* exports) our layer calls, typed with
// plain numbers for pointers. Every JSValue* returned is owned by the caller and freed with
// QTS_FreeValuePointer; JSValueConst* (argv entries, the constants) are borrowed.

/** JS_EVAL_TYPE_GLOBAL / JS_EVAL_TYPE_MODULE from quickjs.h. */
export const EVAL_GLOBAL = 0;
export const EVAL_MODULE = 1;

/** JS_PromiseState results. */
export const PROMISE_PENDING = 0;
export const PROMISE_FULFILLED = 1;
export const PROMISE_REJECTED = 2;

export interface RawFFI {
  QTS_NewRuntime(): number;
  QTS_NewContext(rt: number, intrinsics: number): number;
  QTS_RuntimeSetMaxStackSize(rt: number, bytes: number): void;
  QTS_RuntimeEnableInterruptHandler(rt: number): void;
  QTS_RuntimeEnableModuleLoader(rt: number, useCustomNormalize: number): void;
  QTS_GetUndefined(): number;
  QTS_GetNull(): number;
  QTS_GetTrue(): number;
  QTS_GetFalse(): number;
  QTS_NewFloat64(ctx: number, n: number): number;
  QTS_NewString(ctx: number, cstr: number): number;
  QTS_GetString(ctx: number, value: number): number;
  QTS_FreeCString(ctx: number, cstr: number): void;
  QTS_NewArrayBuffer(ctx: number, buffer: number, length: number): number;
  QTS_GetArrayBuffer(ctx: number, value: number): number;
  QTS_GetArrayBufferLength(ctx: number, value: number): number;
  QTS_FreeValuePointer(ctx: number, value: number): void;
  QTS_DupValuePointer(ctx: number, value: number): number;
  QTS_GetProp(ctx: number, obj: number, name: number): number;
  QTS_Call(ctx: number, fn: number, thisObj: number, argc: number, argvPtrs: number): number;
  QTS_ResolveException(ctx: number, maybeException: number): number;
  QTS_Eval(ctx: number, code: number, length: number, filename: string, detectModule: number, flags: number): number;
  QTS_ExecutePendingJob(rt: number, maxJobs: number, lastJobCtxOut: number): number;
  QTS_IsJobPending(rt: number): number;
  QTS_PromiseState(ctx: number, value: number): number;
  QTS_PromiseResult(ctx: number, value: number): number;
  QTS_NewFunction(ctx: number, name: string, argLength: number, isConstructor: boolean, hostRefId: number): number;
  QTS_ArgvGetJSValueConstPointer(argv: number, index: number): number;
  QTS_Typeof(ctx: number, value: number): number;
  QTS_Dump(ctx: number, value: number): number;
}
