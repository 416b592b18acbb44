// undici, loaded at its first use. It is about 110 of the ≈ 260 modules a worker would load at
// start, paid by every worker start (a replacement after a kill or timeout among them) even when
// no run of that worker ever touches the network. Node's module cache keeps the one instance.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const load = createRequire(import.meta.url);

export type UndiciModule = typeof Undici;

/** The undici module, loaded on the first call. */
export function undici(): UndiciModule {
  return load('undici') as UndiciModule;
}

/** undici's fetch, loading undici when it is first called (not when it is passed around). */
export const lazyFetch: typeof Undici.fetch = (input, init) => undici().fetch(input, init);
