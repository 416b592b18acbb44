// node:timers and node:timers/promises. There is no setInterval: runjs follows the interface
// spec, which has no interval timers (a run ends when its work is done).
function abortError(signal) {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  e.cause = signal?.reason;
  return e;
}

function delayed(schedule, cancel, value, options) {
  const signal = options?.signal;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    let onAbort;
    const id = schedule(() => {
      if (signal !== undefined) signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (signal !== undefined) {
      onAbort = () => {
        cancel(id);
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

export const promises = {
  setTimeout: (delay = 1, value = undefined, options = undefined) => delayed((fn) => setTimeout(fn, delay), clearTimeout, value, options),
  setImmediate: (value = undefined, options = undefined) => delayed((fn) => setImmediate(fn), clearImmediate, value, options),
  scheduler: {
    wait: (delay, options = undefined) => delayed((fn) => setTimeout(fn, delay), clearTimeout, undefined, options),
    yield: () => delayed((fn) => setImmediate(fn), clearImmediate, undefined, undefined),
  },
};

export const timers = {
  setTimeout: (...args) => setTimeout(...args),
  clearTimeout: (id) => clearTimeout(id),
  setImmediate: (...args) => setImmediate(...args),
  clearImmediate: (id) => clearImmediate(id),
  promises,
};
