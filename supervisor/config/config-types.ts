/**
 * The Config type, derived from the flag table at the type level so a new
 * table entry appears in Config without a second edit. A flag with a default
 * (that cannot be undefined) is a required property; any other is optional.
 */
import type { CamelCase } from './flag-spec.ts';
import type { FlagTable } from './flag-table.ts';

export interface JsonObject {
  readonly [key: string]: unknown;
}

type Entry = FlagTable[number];

type ValueOf<E> = E extends { kind: 'enum'; values: readonly string[] }
  ? E['values'][number]
  : E extends { kind: 'list' }
    ? readonly string[]
    : E extends { kind: 'integer' | 'port' | 'size' }
      ? number
      : E extends { kind: 'boolean' }
        ? boolean
        : E extends { kind: 'json-or-path'; jsonShape: 'object' }
          ? JsonObject
          : E extends { kind: 'json-or-path'; jsonShape: 'array' }
            ? readonly unknown[]
            : E extends { kind: 'json-or-path' }
              ? JsonObject | readonly unknown[]
              : string;

type AlwaysSet<E> = E extends { default: (...args: never[]) => infer R }
  ? undefined extends R
    ? false
    : true
  : E extends { default: unknown }
    ? true
    : false;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type Config = Simplify<
  { readonly [E in Entry as AlwaysSet<E> extends true ? CamelCase<E['name']> : never]: ValueOf<E> } & {
    readonly [E in Entry as AlwaysSet<E> extends true ? never : CamelCase<E['name']>]?: ValueOf<E>;
  }
>;

/** Where a flag's final value came from. */
export type ValueSource =
  | { readonly kind: 'cli' }
  | { readonly kind: 'env'; readonly name: string }
  | { readonly kind: 'file'; readonly key: string; readonly path: string }
  | { readonly kind: 'default' };
