// A value computed on first use and then fixed for the life of the process: facts about the
// installed code (a digest of source files, the compiled wasm module), never state a run can
// change. Module state that can change belongs on an object (a worker's host, a run's resources).
export function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}
