// Type checks: type_name and is_*.
import { RegoObject, RegoSet, typeName } from '../values.ts';
import type { BuiltinTable } from './kit.ts';

export const TYPES: BuiltinTable = {
  type_name: { arity: 1, fn: (a) => typeName(a[0]!) },
  is_string: { arity: 1, fn: (a) => typeof a[0] === 'string' },
  is_number: { arity: 1, fn: (a) => typeof a[0] === 'number' },
  is_boolean: { arity: 1, fn: (a) => typeof a[0] === 'boolean' },
  is_array: { arity: 1, fn: (a) => Array.isArray(a[0]) },
  is_set: { arity: 1, fn: (a) => a[0] instanceof RegoSet },
  is_object: { arity: 1, fn: (a) => a[0] instanceof RegoObject },
  is_null: { arity: 1, fn: (a) => a[0] === null },
};
