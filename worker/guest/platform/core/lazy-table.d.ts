// Types for the host's reads of the table (worker/engines/v8/named-parts.ts); the guest imports the .js.
/** Builtin module name (without `node:`) → part. */
export declare const MODULE_PARTS: Readonly<Record<string, string>>;
/** Lazily installed global → part. */
export declare const GLOBAL_PARTS: Readonly<Record<string, string>>;
/** Builtins Node knows only as `node:<name>`. */
export declare const PREFIX_ONLY: Readonly<Record<string, true>>;
