// How util.inspect shows a Buffer, as Node's lib/buffer.js does: the first INSPECT_MAX_BYTES
// bytes in hex, how many were left out, then the buffer's own non-index properties.
import core from 'runjs:part/core';

const { invalidArgType, outOfRange, requirePart } = core.shared;
const customInspect = Symbol.for('nodejs.util.inspect.custom');
// Listing a typed array's own keys makes one string per element (there is no engine call for
// the non-index ones alone, as Node's getOwnNonIndexProperties): past this many bytes the
// properties are left out.
const PROPERTIES_MAX_BYTES = 1 << 16;

/** Node's Buffer.prototype[inspect.custom]; `limits.INSPECT_MAX_BYTES` is node:buffer's setting. */
export function installBufferInspect(Buffer, limits) {
  Object.defineProperty(Buffer.prototype, customInspect, {
    value: function inspect(recurseTimes, ctx) {
      const max = limits.INSPECT_MAX_BYTES;
      const shown = Math.min(max, this.length);
      const remaining = this.length - max;
      let str = this.toString('hex', 0, shown).replace(/(.{2})/g, '$1 ').trim();
      if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
      if (ctx && this.length <= PROPERTIES_MAX_BYTES) {
        const extras = { __proto__: null };
        let any = false;
        for (const key of Reflect.ownKeys(this)) {
          if (typeof key === 'string' && /^(?:0|[1-9][0-9]*)$/.test(key) && +key < this.length) continue;
          if (!ctx.showHidden && !Object.prototype.propertyIsEnumerable.call(this, key)) continue;
          any = true;
          extras[key] = this[key];
        }
        if (any) {
          if (this.length !== 0) str += ', ';
          // Cut '[Object: null prototype] {' and ' }' off the object's text, as Node does.
          str += requirePart('util').inspect(extras, { ...ctx, breakLength: Infinity, compact: true }).slice(27, -2);
        }
      }
      return `<${this.constructor.name} ${str}>`;
    },
    writable: true, configurable: true,
  });
  Buffer.prototype.inspect = Buffer.prototype[customInspect];
}

/** node:buffer's INSPECT_MAX_BYTES: an accessor that takes only a number >= 0, as in Node. */
export function defineInspectMaxBytes(target, limits) {
  Object.defineProperty(target, 'INSPECT_MAX_BYTES', {
    enumerable: true, configurable: true,
    get: () => limits.INSPECT_MAX_BYTES,
    set: (value) => {
      if (typeof value !== 'number') throw invalidArgType('INSPECT_MAX_BYTES', 'of type number', value);
      if (!(value >= 0)) throw outOfRange('INSPECT_MAX_BYTES', '>= 0', value);
      limits.INSPECT_MAX_BYTES = value;
    },
  });
}
