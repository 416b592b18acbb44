// The method dispatchers of the captured primordials. Inlined verbatim (not bundled, not
// transformed) into the generated platform script, next to the generated capture of every
// builtin the platform uses (scripts/guest-bundle/primordialize.ts, primordialsSource), which
// runs before any user code. `$name(o, ...args)` calls o's `name` method, except that a method a
// builtin prototype holds *now* (possibly replaced by user code) is swapped for the one it held
// at boot; a subclass's own override is still used. Each dispatcher is built on its first call.
function installDispatchers(P, saved) {
  const ReflectApply = Reflect.apply;
  const TypeErrorCtor = TypeError;
  function notAFunction(o, name) {
    return new TypeErrorCtor(`${o === null ? 'null' : typeof o}.${name} is not a function`);
  }
  function dispatcher(name, found) {
    const n = found.length;
    if (n === 0) {
      return function (o, ...a) {
        const f = o[name];
        if (typeof f !== 'function') throw notAFunction(o, name);
        return ReflectApply(f, o, a);
      };
    }
    if (n === 2) {
      const h0 = found[0];
      const s0 = found[1];
      return function (o, ...a) {
        let f = o[name];
        if (f === h0[name]) f = s0;
        else if (typeof f !== 'function') throw notAFunction(o, name);
        return ReflectApply(f, o, a);
      };
    }
    return function (o, ...a) {
      const f = o[name];
      for (let i = 0; i < n; i += 2) {
        if (found[i] !== undefined && f === found[i][name]) return ReflectApply(found[i + 1], o, a);
      }
      if (typeof f !== 'function') throw notAFunction(o, name);
      return ReflectApply(f, o, a);
    };
  }
  for (const name in saved) {
    const key = `$${name}`;
    P[key] = function (o, ...a) {
      const d = dispatcher(name, saved[name]);
      P[key] = d;
      return ReflectApply(d, undefined, [o, ...a]);
    };
  }
  return P;
}
