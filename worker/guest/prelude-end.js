// The last prelude file: removes the temporary `__runjs_internal` global (prelude.js) before any
// user code can see it, and completes the prelude script with the internal object the engine keeps.
(function () {
  const internal = globalThis.__runjs_internal;
  delete globalThis.__runjs_internal;
  return internal;
})();
