// Runs path-browserify's own Node-derived test files (node_modules/path-browserify/test)
// against runjs's node:path.
import test from './tape-shim.cjs';

require('path-browserify/test/test-path.js');
require('path-browserify/test/test-path-basename.js');
require('path-browserify/test/test-path-dirname.js');
require('path-browserify/test/test-path-extname.js');
require('path-browserify/test/test-path-isabsolute.js');
require('path-browserify/test/test-path-join.js');
require('path-browserify/test/test-path-parse-format.js');
require('path-browserify/test/test-path-relative.js');
require('path-browserify/test/test-path-resolve.js');
require('path-browserify/test/test-path-zero-length-strings.js');
await test.run();
