// node:querystring: parse/stringify/escape/unescape, odd separators and values.
const q = () => require('node:querystring');
const corpus = {
  'parse': () => q().parse('a=1&b=2&a=3&c&=d&e=%ZZ&f=%E2%82%AC+x'),
  'parse separators': () => q().parse('a:1;b:2', ';', ':'),
  'parse maxKeys': () => q().parse('a=1&b=2&c=3', null, null, { maxKeys: 2 }),
  'parse decodeURIComponent': () => q().parse('a=%41', null, null, { decodeURIComponent: (s) => s.toLowerCase() }),
  'parse non-string': () => q().parse(5),
  'stringify': () => q().stringify({ a: [1, 2], b: 'x y', c: true, d: null, e: undefined, f: 1n, g: {}, h: NaN }),
  'stringify separators': () => q().stringify({ a: 1, b: 2 }, ';', ':'),
  'stringify encodeURIComponent': () => q().stringify({ a: 'é' }, null, null, { encodeURIComponent: (s) => `<${s}>` }),
  'escape': () => q().escape('a b&c/d?é\u{1F600}'),
  'escape lone surrogate': () => q().escape('\uD800'),
  'unescape': () => [q().unescape('%41%zz%'), q().unescape('a+b')],
  'module keys': () => Object.keys(q()).sort(),
  'parse maxKeys counts pairs': () => [
    q().parse('&a', null, null, { maxKeys: 1 }), q().parse('a=1&a=2&b=3', null, null, { maxKeys: 2 }),
    q().parse('a&&b&', null, null, { maxKeys: 3 }), q().parse('a&b&c', null, null, { maxKeys: 1.5 }),
    Object.keys(q().parse('a&b&c', null, null, { maxKeys: 'x' })).length,
  ],
  'unescapeBuffer is a Buffer': () => {
    const b = q().unescapeBuffer('a+b%20%zz', true);
    return [Buffer.isBuffer(b), b.toString(), q().unescapeBuffer('a+b').toString()];
  },
};
