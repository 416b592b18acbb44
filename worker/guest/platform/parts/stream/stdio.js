// process.stdout/stderr as real Writables once node:stream is loaded: `pipeline(src,
// process.stdout)` waits for the destination's 'finish', which the boot-time writer objects
// (worker/guest/platform/web/process.js, kept small so boot stays cheap) never emit. As in Node,
// end() does not close the stream: it emits 'finish', and later writes still print.
export function installStdio(Stream, process) {
  const { Writable } = Stream;
  for (const name of ['stdout', 'stderr']) {
    const raw = process[name];
    if (raw === null || typeof raw !== 'object' || raw._writableState !== undefined) continue;
    const w = new Writable({
      decodeStrings: false,
      emitClose: false,
      autoDestroy: false,
      write(chunk, encoding, callback) {
        raw.write(chunk, encoding);
        callback();
      },
    });
    w.end = function end(chunk, encoding, callback) {
      const cb = [chunk, encoding, callback].find((x) => typeof x === 'function');
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.write(chunk, typeof encoding === 'string' ? encoding : undefined);
      process.nextTick(() => {
        this.emit('finish');
        if (cb !== undefined) cb();
      });
      return this;
    };
    for (const key of ['fd', 'isTTY', 'columns', 'rows', 'getWindowSize', 'hasColors', 'getColorDepth']) {
      if (key in raw) w[key] = raw[key];
    }
    process[name] = w;
  }
}
