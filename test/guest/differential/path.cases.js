// node:path (POSIX, and path.win32): results and argument errors.
const p = () => require('node:path');
const corpus = {
  'join': () => [p().join('/a', 'b', '../c', './d'), p().join(''), p().join('a', ''), p().join('/a/', '/b/')],
  'join: bad arg': () => p().join('a', 1),
  'resolve': () => [p().resolve('a', 'b'), p().resolve('/x', '../y', 'z/'), p().resolve()],
  'resolve: bad arg': () => p().resolve(null),
  'normalize': () => ['', '.', '/..', 'a//b/../c/.', '../../a', 'a/b/', '//x'].map((x) => p().normalize(x)),
  'normalize: bad arg': () => p().normalize({}),
  'relative': () => [p().relative('/a/b/c', '/a/d'), p().relative('/a', '/a'), p().relative('a', 'b'), p().relative('/', '/x/y')],
  'dirname/basename/extname': () => ['/a/b.c.d', '/a/', 'a', '.bashrc', '/', 'x.', '..'].map((x) => [p().dirname(x), p().basename(x), p().extname(x)]),
  'basename with suffix': () => [p().basename('/a/b.js', '.js'), p().basename('/a/b.js', 'b.js'), p().basename('x.js', 's'), p().basename('/a/b/', 'b')],
  'basename: bad suffix': () => p().basename('a', 1),
  'dirname: bad arg': () => p().dirname(1),
  'parse': () => ['/home/u/f.txt', 'f', '/', '.x', 'a/b/', '//a'].map((x) => p().parse(x)),
  'parse: bad arg': () => p().parse(undefined),
  'format': () => [p().format({ root: '/', dir: '/a', base: 'b.c' }), p().format({ name: 'n', ext: 'e' }), p().format({ root: '/r/', name: 'n', ext: '.e' }), p().format({})],
  'format: bad arg': () => p().format('x'),
  'format: null': () => p().format(null),
  'isAbsolute': () => ['/a', 'a', '', './a'].map((x) => p().isAbsolute(x)),
  'toNamespacedPath': () => [p().toNamespacedPath('/a'), p().toNamespacedPath(1)],
  'constants': () => [p().sep, p().delimiter, p().posix === p(), p().posix.sep, p().win32.sep, p().win32.delimiter],
  'matchesGlob': () => [p().matchesGlob('/a/b/c.js', '/a/**/*.js'), p().matchesGlob('x.ts', '*.js')],
  'matchesGlob: bad arg': () => p().matchesGlob(1, '*'),
  'win32 join/resolve': () => [p().win32.join('C:\\a', '..\\b', 'c'), p().win32.normalize('C:/a//b'), p().win32.isAbsolute('C:\\x'), p().win32.parse('C:\\p\\f.txt')],
  'win32 relative': () => p().win32.relative('C:\\a\\b', 'C:\\a\\c'),
  'module keys': () => Object.keys(p()).sort(),
  'win32 argument errors': () => [undefined, null, 7, {}].flatMap((v) => ['join', 'resolve', 'normalize', 'isAbsolute', 'dirname', 'basename', 'extname', 'parse'].map((fn) => {
    try { return p().win32[fn](v); } catch (e) { return `${fn}: ${e.code} ${e.message}`; }
  })),
  'win32 more argument errors': () => [() => p().win32.relative('a', 1), () => p().win32.basename('a', 1), () => p().win32.format('x'), () => p().win32.format(null), () => p().win32.join('a', undefined)].map((f) => {
    try { return f(); } catch (e) { return `${e.code} ${e.message}`; }
  }),
  'win32 toNamespacedPath non-strings': () => {
    const o = {};
    return [p().win32.toNamespacedPath(o) === o, p().win32.toNamespacedPath(p()) === p(), p().win32.toNamespacedPath(''), p().win32.toNamespacedPath(null), p().win32.toNamespacedPath(), p().win32.toNamespacedPath('C:/foo')];
  },
};
