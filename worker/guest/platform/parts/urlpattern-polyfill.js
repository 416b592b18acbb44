// urlpattern-polyfill's class, a part of its own: evaluated when a script first makes a
// URLPattern (parts/urlpattern.js), not when it imports node:url, whose ES module wrapper reads
// every export (URLPattern too) and would otherwise evaluate the polyfill's 36 KB on each import.
export { URLPattern } from 'urlpattern-polyfill/urlpattern';
export const globals = {};
export const modules = {};
